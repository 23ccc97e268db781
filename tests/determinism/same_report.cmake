# Runs PROGRAM (with ARGS) at SIMT_WORKERS=1, 2, 4 and 8 and requires the same exit status, the
# same stdout and stderr and the same JSON report, byte for byte, at each: the simulator's
# findings must not depend on the cores that run it. FINDING is a regular expression the output
# must match, so that a program that stopped finding anything cannot pass.
# cmake -DPROGRAM=<exe> "-DARGS=<args>" -DFINDING=<regex> -DOUT=<dir> -P same_report.cmake
cmake_minimum_required(VERSION 3.25)
file(MAKE_DIRECTORY "${OUT}")
set(first "")
foreach(workers 1 2 4 8)
  set(json "${OUT}/report_${workers}.jsonl")
  file(REMOVE "${json}")
  execute_process(COMMAND ${CMAKE_COMMAND} -E env SIMT_WORKERS=${workers} SIMT_REPORT=json:${json}
                          ${PROGRAM} ${ARGS}
    RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  set(report "")
  if(EXISTS "${json}")
    file(READ "${json}" report)
  endif()
  # The summary names the JSON file, whose name carries the worker count.
  string(REPLACE "report_${workers}.jsonl" "report_N.jsonl" err "${err}")
  set(run "status ${status}\n--- stdout\n${out}--- stderr\n${err}--- JSON\n${report}")
  if(workers EQUAL 1)
    if(NOT "${out}${err}" MATCHES "${FINDING}")
      message(FATAL_ERROR "at SIMT_WORKERS=1 the output does not match '${FINDING}':\n${run}")
    endif()
    set(first "${run}")
  elseif(NOT run STREQUAL first)
    file(WRITE "${OUT}/workers_1.txt" "${first}")
    file(WRITE "${OUT}/workers_${workers}.txt" "${run}")
    message(FATAL_ERROR "SIMT_WORKERS=${workers} reported differently from SIMT_WORKERS=1 "
                        "(diff ${OUT}/workers_1.txt ${OUT}/workers_${workers}.txt):\n${run}")
  endif()
endforeach()
message(STATUS "the same report at 1, 2, 4 and 8 workers:\n${first}")
