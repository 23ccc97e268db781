# Runs a lesson with SIMT_REPORT=json and requires a finding of KIND at the line of SOURCE that
# contains MARKER, and the lesson's own "OK". Usage:
#   cmake -DPROGRAM=... -DSOURCE=... -DMARKER=... -DKIND=... -DWORK_DIR=... -P expect_finding.cmake
file(MAKE_DIRECTORY "${WORK_DIR}")
set(json "${WORK_DIR}/findings.json")
file(REMOVE "${json}")

file(STRINGS "${SOURCE}" lines)
set(line 0)
set(n 0)
foreach(text IN LISTS lines)
  math(EXPR n "${n} + 1")
  string(FIND "${text}" "${MARKER}" at)
  if(at GREATER -1)
    set(line ${n})
    break()
  endif()
endforeach()
if(line EQUAL 0)
  message(FATAL_ERROR "no line of ${SOURCE} contains '${MARKER}'")
endif()

execute_process(
  COMMAND ${CMAKE_COMMAND} -E env SIMT_REPORT=json:${json} SIMT_CHECK=all "${PROGRAM}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "\nOK\n")
  message(FATAL_ERROR "${PROGRAM} failed (exit ${rc}):\n${out}\n${err}")
endif()
if(NOT EXISTS "${json}")
  message(FATAL_ERROR "${PROGRAM} wrote no JSON report; stderr:\n${err}")
endif()
file(READ "${json}" report)
get_filename_component(base "${SOURCE}" NAME)
if(NOT report MATCHES "\"kind\":\"${KIND}\"[^\n]*\"file\":\"[^\"]*${base}\",\"line\":${line},\"access\"")
  message(FATAL_ERROR "expected a ${KIND} finding at ${base}:${line}; the report was:\n${report}")
endif()
message(STATUS "found ${KIND} at ${base}:${line}")
