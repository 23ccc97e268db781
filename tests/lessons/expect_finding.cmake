# Runs a lesson with SIMT_REPORT=json and requires a finding of KIND at the line of SOURCE that
# contains MARKER, and the lesson's own "OK". ARGS, when given, are the program's arguments
# (a lesson that shows a bug only when asked: `10_reduction race`). Usage:
#   cmake -DPROGRAM=... -DSOURCE=... -DMARKER=... -DKIND=... -DWORK_DIR=... [-DARGS=...] -P expect_finding.cmake
file(MAKE_DIRECTORY "${WORK_DIR}")
set(json "${WORK_DIR}/findings.json")
file(REMOVE "${json}")

# The marker's line is one more than the newlines before it. (Not file(STRINGS) and a list: a
# line that ends in a backslash, as a macro's lines do, escapes the list's separator.)
file(READ "${SOURCE}" text)
string(FIND "${text}" "${MARKER}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "no line of ${SOURCE} contains '${MARKER}'")
endif()
string(SUBSTRING "${text}" 0 ${at} before)
string(REGEX REPLACE "[^\n]" "" newlines "${before}")
string(LENGTH "${newlines}" line)
math(EXPR line "${line} + 1")

execute_process(
  COMMAND ${CMAKE_COMMAND} -E env SIMT_REPORT=json:${json} SIMT_CHECK=all "${PROGRAM}" ${ARGS}
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
