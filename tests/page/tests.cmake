# The report page (SIMT_REPORT=html:PATH, docs/report-page.md), tested as a person would look at
# it: a run writes the page (make_page.cmake), its embedded data is checked against the schema
# without a browser (check_schema.mjs), and Debian's Chromium, driven by Playwright, opens it from
# disk and checks what the learner is told to look at (check_page.mjs, with the checks of
# expect/<name>.json), saving a screenshot in build/tests/pages/.
#
# Needs the page's template (web/, built where Node.js and npm are) and, for the browser tests,
# Chromium; `./lab test` installs both. Without them the tests are not registered, and say so.
if(NOT TARGET simt_sim)
  return()
endif()
# A path that cannot be written: said before anything runs, and the program runs on, pageless.
simt_robustness_test("A report page whose path cannot be written is said at the start, and the program still runs"
  PROGRAM broken_off_by_one ENV "SIMT_REPORT=html:/nonexistent/dir/page.html" STATUS 0
  EXPECT "^c\\[0\\] = 3\nsimt: SIMT_REPORT=html:/nonexistent/dir/page.html: cannot open /nonexistent/dir/page.html for writing \\([^)]*\\); the program runs without a report page\nsimt: out-of-bounds read")
if(NOT SIMT_REPORT_PAGE_FILE)
  message(STATUS "simt: the report page's tests are not registered: its template is not built "
                 "(Node.js and npm are needed: apt-get install nodejs npm)")
  return()
endif()
find_program(SIMT_NODE node)
find_program(SIMT_CHROMIUM NAMES chromium chromium-browser)
include(${CMAKE_CURRENT_LIST_DIR}/template.cmake)
if(NOT SIMT_CHROMIUM)
  message(STATUS "simt: the report page's browser tests are not registered: no Chromium "
                 "(apt-get install chromium)")
endif()

set(SIMT_PAGES ${CMAKE_CURRENT_BINARY_DIR}/pages)
set(simt_page_modules ENVIRONMENT "SIMT_NODE_MODULES=${PROJECT_BINARY_DIR}/web/report/node_modules")

# simt_page(<name> <what the run is> PROGRAM <target> [ARGS ...] [STATUS n] [WRAP ...] [ENV ...]
#           [LOOK <what the browser test checks>])
function(simt_page name what)
  cmake_parse_arguments(ARG "" "PROGRAM;STATUS;LOOK" "ARGS;WRAP;ENV" ${ARGN})
  if(NOT DEFINED ARG_STATUS)
    set(ARG_STATUS 0)
  endif()
  set(page ${SIMT_PAGES}/${name}.html)
  add_test(NAME "${what} leaves a report page"
    COMMAND ${CMAKE_COMMAND} "-DPROGRAM=$<TARGET_FILE:${ARG_PROGRAM}>" "-DARGS=${ARG_ARGS}"
            -DPAGE=${page} -DSTATUS=${ARG_STATUS} "-DWRAP=${ARG_WRAP}" "-DENV=${ARG_ENV}"
            -P ${CMAKE_CURRENT_SOURCE_DIR}/page/make_page.cmake)
  set_tests_properties("${what} leaves a report page" PROPERTIES FIXTURES_SETUP page_${name})
  add_test(NAME "The report page of ${what} holds data of the schema's shape"
    COMMAND ${SIMT_NODE} ${CMAKE_CURRENT_SOURCE_DIR}/page/check_schema.mjs
            ${PROJECT_SOURCE_DIR}/web/report/report.schema.json ${page})
  set_tests_properties("The report page of ${what} holds data of the schema's shape" PROPERTIES
    FIXTURES_REQUIRED page_${name} ${simt_page_modules})
  if(SIMT_CHROMIUM AND ARG_LOOK)
    add_test(NAME "In Chromium, the report page of ${what} ${ARG_LOOK}"
      COMMAND ${SIMT_NODE} ${CMAKE_CURRENT_SOURCE_DIR}/page/check_page.mjs --page ${page}
              --screenshot ${SIMT_PAGES}/${name}.png
              --expect ${CMAKE_CURRENT_SOURCE_DIR}/page/expect/${name}.json)
    set_tests_properties("In Chromium, the report page of ${what} ${ARG_LOOK}" PROPERTIES
      FIXTURES_REQUIRED page_${name} ${simt_page_modules}
      ENVIRONMENT "SIMT_NODE_MODULES=${PROJECT_BINARY_DIR}/web/report/node_modules;CHROMIUM=${SIMT_CHROMIUM}"
      TIMEOUT 120)
  endif()
endfunction()

simt_page(lesson07 "lesson 07's racy counter" PROGRAM 07_atomics
  LOOK "lists the race at line 25 and names both threads and the element")
simt_page(lesson09 "lesson 09's transposes" PROGRAM 09_shared_memory
  LOOK "shows the tiled transpose's column read 32-way in one bank and the padded one in none")
simt_page(lesson14 "lesson 14's strided copy" PROGRAM 14_coalescing ARGS stride 8 16
  LOOK "shows the strided copy's warp over more sectors than its lanes need")
simt_page(lesson16 "lesson 16's streams" PROGRAM 16_overlap
  LOOK "draws a copy overlapping a kernel of another stream on the GPU's timeline")
simt_page(lesson20 "lesson 20's graphs" PROGRAM 20_unified_graphs
  LOOK "draws the graph launch's kernel nodes on the GPU's timeline")
simt_page(lesson21 "lesson 21's matrix multiplies" PROGRAM 21_matmul
  LOOK "puts every launch on the roofline and marks the occupancy point")
simt_page(off_by_one "an off-by-one vector add" PROGRAM broken_off_by_one
  LOOK "draws the index past the array in its red zone")
simt_page(deadlock "a kernel whose barrier deadlocks" PROGRAM bad_input ARGS deadlock STATUS 1
  LOOK "says the program stopped and shows which threads wait at which barrier")
simt_page(fault "a kernel that writes through a wild pointer" PROGRAM kernel_faults ARGS wild
  STATUS 1 LOOK "says the program stopped and where the thread faulted")
find_program(SIMT_TIMEOUT_PROGRAM timeout)
if(SIMT_TIMEOUT_PROGRAM)
  simt_page(interrupted "a spinning kernel stopped with Ctrl-C" PROGRAM bad_input ARGS spin
    STATUS 130 WRAP ${SIMT_TIMEOUT_PROGRAM} --preserve-status -s INT 2 ENV SIMT_TIMEOUT=0
    LOOK "says it was interrupted")
endif()

# The page through `./lab run --html`, a learner's own way to it (lab builds in build/: one run
# at a time, as the first-hour tests do).
if(NOT SIMT_SANITIZE AND PROJECT_BINARY_DIR STREQUAL "${PROJECT_SOURCE_DIR}/build")
  set(name "./lab run --html writes the page of a learner's file, and of a lesson, to build/run/<name>/report.html")
  add_test(NAME "${name}"
    COMMAND ${CMAKE_COMMAND} -DLAB=${PROJECT_SOURCE_DIR}/lab -DROOT=${PROJECT_SOURCE_DIR}
            -DSOURCE=${PROJECT_SOURCE_DIR}/tests/cuda/broken/off_by_one.cu
            -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/lab-html
            -P ${CMAKE_CURRENT_SOURCE_DIR}/page/lab_html.cmake)
  set_tests_properties("${name}" PROPERTIES RESOURCE_LOCK lab_build TIMEOUT 900)
endif()
