# A plain-CUDA test program built the two ways a learner builds one without CMake: by simt-nvcc
# (-DMODE=nvcc) or by `./lab run` (lab), then run with ARGS; its output must match EXPECT, and
# with CLEAN set, no finding may be reported.
# -DMODE=... -DSIMT_NVCC=<build/bin/simt-nvcc> -DLAB=<./lab> -DSOURCE=<file.cu> -DARGS=<a;b>
# -DEXPECT=<regex> [-DCLEAN=ON] -DWORK_DIR=<scratch>
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}/mine")
# The source and the headers beside it, as a learner's folder holds them.
get_filename_component(folder "${SOURCE}" DIRECTORY)
get_filename_component(name "${SOURCE}" NAME_WE)
file(GLOB headers "${folder}/*.h" "${folder}/*.cuh")
file(COPY "${SOURCE}" ${headers} DESTINATION "${WORK_DIR}/mine")
# A quoted include elsewhere in the tree ("../cuda/check_cuda.h") goes to the same place
# relative to the copy.
file(STRINGS "${SOURCE}" quoted REGEX "^#include \"")
foreach(line IN LISTS quoted)
  string(REGEX REPLACE "^#include \"([^\"]+)\".*" "\\1" path "${line}")
  if(EXISTS "${folder}/${path}")
    get_filename_component(where "${WORK_DIR}/mine/${path}" DIRECTORY)
    file(COPY "${folder}/${path}" DESTINATION "${where}")
  endif()
endforeach()

if(MODE STREQUAL "nvcc")
  execute_process(COMMAND "${SIMT_NVCC}" -o ${name} mine/${name}.cu WORKING_DIRECTORY "${WORK_DIR}"
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "simt-nvcc failed (${status}):\n${out}${err}")
  endif()
  set(command "${WORK_DIR}/${name}" ${ARGS})
elseif(MODE STREQUAL "lab")
  set(command "${LAB}" run mine/${name}.cu ${ARGS})
else()
  message(FATAL_ERROR "MODE must be nvcc or lab")
endif()
execute_process(COMMAND ${command} WORKING_DIRECTORY "${WORK_DIR}" RESULT_VARIABLE status
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
if(NOT all MATCHES "${EXPECT}")
  message(FATAL_ERROR "exit status ${status}; the output does not match\n  ${EXPECT}\n${all}")
endif()
if(CLEAN AND (NOT status EQUAL 0 OR all MATCHES "simt: [0-9]+ finding"))
  message(FATAL_ERROR "expected a clean run, got exit status ${status}:\n${all}")
endif()
message(STATUS "as expected:\n${all}")
