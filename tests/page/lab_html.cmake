# ./lab run --html, as a learner runs it: a file of their own, then a lesson. Each run's page is at
# build/run/<name>/report.html, lab says so before the run and the program after it, and the page
# holds the run's finding.
# -DLAB=<./lab> -DROOT=<the source tree> -DSOURCE=<a .cu file> -DWORK_DIR=<scratch>
include(${CMAKE_CURRENT_LIST_DIR}/../support/run_command.cmake)
set(MODE lab)
route_program()
set(page "${ROOT}/build/run/${route_name}/report.html")
file(REMOVE "${page}")
run(${program} --html)
expect("lab: the report page will be [^\n]*build/run/${route_name}/report.html"
       "./lab run --html did not say where the page will be")
expect("simt: report page written to [^\n]*build/run/${route_name}/report.html"
       "the program did not say it wrote its page")
file(READ "${page}" text)
if(NOT text MATCHES "\"kind\":\"out-of-bounds\"")
  message(FATAL_ERROR "${page} does not hold the run's out-of-bounds finding")
endif()

set(page "${ROOT}/build/run/07_atomics/report.html")
file(REMOVE "${page}")
run("${LAB}" run 07 --html)
expect("simt: report page written to [^\n]*build/run/07_atomics/report.html"
       "./lab run 07 --html did not write the lesson's page")
file(READ "${page}" text)
if(NOT text MATCHES "\"kind\":\"data-race\"")
  message(FATAL_ERROR "${page} does not hold lesson 07's race")
endif()
