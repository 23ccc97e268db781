# Runs PROGRAM TIMES times under SIMT_WORKERS=WORKERS; every run must exit 0 and print what
# matches EXPECT. For a fault that a schedule shows only now and then: one run in a few.
# cmake -DPROGRAM=<exe> -DTIMES=<n> -DWORKERS=<n> -DEXPECT=<regex> -P repeat.cmake
foreach(i RANGE 1 ${TIMES})
  execute_process(COMMAND ${CMAKE_COMMAND} -E env SIMT_WORKERS=${WORKERS} "${PROGRAM}"
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
  if(NOT status EQUAL 0 OR NOT "${out}${err}" MATCHES "${EXPECT}")
    message(FATAL_ERROR "run ${i} of ${TIMES} (SIMT_WORKERS=${WORKERS}) exited ${status}; "
                        "expected its output to match '${EXPECT}':\n${out}${err}")
  endif()
endforeach()
message(STATUS "${TIMES} runs, each as expected")
