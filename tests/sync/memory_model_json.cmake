# A memory-model finding in the JSON report (SIMT_REPORT=json:PATH): its own kind, the hazard,
# and the read's line first, the write's second. -DPROGRAM=<sync_volatile> -DWORK_DIR=<scratch>
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
execute_process(COMMAND ${CMAKE_COMMAND} -E env SIMT_REPORT=json:${WORK_DIR}/report.jsonl
                        ${PROGRAM} spin-without-fence
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "exit status ${status}:\n${out}${err}")
endif()
file(READ "${WORK_DIR}/report.jsonl" json)
string(REGEX MATCHALL "[^\n]+" lines "${json}")
list(LENGTH lines n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "expected one finding, got ${n}:\n${json}")
endif()
foreach(field IN ITEMS "\"kind\":\"memory-model\"" "\"hazard\":\"RAW\"" "\"array\":\"data\"" "\"line\":132"
                       "\"access\":\"read\"" "\"access\":\"write\",\"block\":\\[1,0,0\\]|\"line\":125")
  if(NOT json MATCHES "${field}")
    message(FATAL_ERROR "the JSON finding has no ${field}:\n${json}")
  endif()
endforeach()
message(STATUS "as expected:\n${json}")
