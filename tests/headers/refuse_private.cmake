# Requires every private header to refuse direct inclusion with its "#error include
# <simt/simt.hpp>" line. cmake -DCXX=<compiler> -DSOURCE_DIR=<simt tree> -DWORK_DIR=<dir> -P ...
cmake_minimum_required(VERSION 3.25)
file(GLOB_RECURSE headers RELATIVE "${SOURCE_DIR}"
  "${SOURCE_DIR}/common/include/simt/view/*.hpp" "${SOURCE_DIR}/common/include/simt/host/*.hpp"
  "${SOURCE_DIR}/sim/include/simt/sim/*.hpp" "${SOURCE_DIR}/cuda/include/simt/cuda/*.hpp")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(failed "")
foreach(header IN LISTS headers)
  string(REGEX REPLACE "^[a-z]+/include/" "" name "${header}")
  file(WRITE "${WORK_DIR}/direct.cpp" "#include <${name}>\n")
  execute_process(COMMAND "${CXX}" -std=c++20 -fsyntax-only
                          -I${SOURCE_DIR}/common/include -I${SOURCE_DIR}/sim/include
                          -I${SOURCE_DIR}/cuda/include "${WORK_DIR}/direct.cpp"
                  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
  # The #error must be the header's own, not one of a header it includes.
  if(rc EQUAL 0 OR NOT err MATCHES "${header}:[0-9]+:[0-9]+: error: #error \"include <simt/simt.hpp>")
    list(APPEND failed "${name}")
  endif()
endforeach()
list(LENGTH headers count)
if(count EQUAL 0)
  message(FATAL_ERROR "no private headers found under ${SOURCE_DIR}")
endif()
if(failed)
  list(JOIN failed "\n  " text)
  message(FATAL_ERROR "these private headers can be included directly:\n  ${text}")
endif()
message(STATUS "${count} private headers refuse direct inclusion")
