# Runs a program with SIMT_REPORT=html:PAGE and checks that it ended as expected and left a page
# that holds the run's data. WRAP: a command the program runs under (timeout -s INT 2, for a
# Ctrl-C). The page's content is the browser test's and the schema test's to check.
# cmake -DPROGRAM=... -DARGS=a;b -DPAGE=... -DSTATUS=0 [-DWRAP=...] [-DENV=A=1;B=2] -P make_page.cmake
file(REMOVE "${PAGE}")
get_filename_component(dir "${PAGE}" DIRECTORY)
file(MAKE_DIRECTORY "${dir}")
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env "SIMT_REPORT=html:${PAGE}" ${ENV} ${WRAP} ${PROGRAM} ${ARGS}
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
if(NOT "${status}" STREQUAL "${STATUS}")
  message(FATAL_ERROR "${PROGRAM} ${ARGS} ended with ${status}, not ${STATUS}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(NOT EXISTS "${PAGE}")
  message(FATAL_ERROR "no page at ${PAGE}\nstderr:\n${err}")
endif()
file(READ "${PAGE}" page)
string(FIND "${page}" "<script id=\"simt-data\" type=\"application/json\">{\"simt_report\":1" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${PAGE} holds no run data")
endif()
string(FIND "${err}" "simt: report page written to ${PAGE}" said)
if(said EQUAL -1)
  message(FATAL_ERROR "the program did not say where its page is\nstderr:\n${err}")
endif()
