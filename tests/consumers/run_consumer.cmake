# Builds and runs the consumer app the way another project would use simt.
# -DMODE=subdirectory|installed -DSIMT_SOURCE_DIR=<simt> -DWORK_DIR=<scratch folder>
file(REMOVE_RECURSE "${WORK_DIR}")
set(here "${CMAKE_CURRENT_LIST_DIR}")
set(build_type -DCMAKE_BUILD_TYPE=Release)
if(MODE STREQUAL "installed")
  execute_process(COMMAND ${CMAKE_COMMAND} -S "${SIMT_SOURCE_DIR}" -B "${WORK_DIR}/simt" ${build_type}
                          -DSIMT_BUILD_TESTS=OFF -DSIMT_BUILD_PROGRAMS=OFF
                          -DCMAKE_INSTALL_PREFIX=${WORK_DIR}/prefix
                  COMMAND_ERROR_IS_FATAL ANY)
  execute_process(COMMAND ${CMAKE_COMMAND} --build "${WORK_DIR}/simt" -j 2 COMMAND_ERROR_IS_FATAL ANY)
  execute_process(COMMAND ${CMAKE_COMMAND} --install "${WORK_DIR}/simt" COMMAND_ERROR_IS_FATAL ANY)
  set(extra -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
elseif(MODE STREQUAL "subdirectory")
  set(extra -DSIMT_SOURCE_DIR=${SIMT_SOURCE_DIR})
else()
  message(FATAL_ERROR "MODE must be subdirectory or installed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S "${here}/${MODE}" -B "${WORK_DIR}/app" ${build_type} ${extra}
                COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${CMAKE_COMMAND} --build "${WORK_DIR}/app" -j 2 COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND "${WORK_DIR}/app/consumer" COMMAND_ERROR_IS_FATAL ANY)
