# The playground (docs/playground.md, `./lab serve`) in Chromium, as a learner uses it: simt_serve
# started on a free port with tests/serve/mine as its folder, the page (web/playground) driven by
# Playwright through lesson 07's race, a variant, a fix that survives a reload, a compile error,
# and Stop (check_playground.mjs). Screenshots of each step go to build/tests/playground/.
#
# Needs the server, the page (built where Node.js and npm are) and Chromium; `./lab test` installs
# all three. Without them the test is not registered.
find_program(SIMT_CHROMIUM NAMES chromium chromium-browser)
find_program(SIMT_NODE node)
if(TARGET simt_serve AND TARGET simt_playground_page AND SIMT_CHROMIUM)
  set(name "In Chromium, the playground marks lesson 07's race, runs its variant, keeps an edit, marks a compile error and stops a spinning kernel")
  add_test(NAME "${name}"
    COMMAND ${SIMT_NODE} ${CMAKE_CURRENT_LIST_DIR}/check_playground.mjs $<TARGET_FILE:simt_serve>
            --shots ${CMAKE_CURRENT_BINARY_DIR}/playground
            --mine ${PROJECT_SOURCE_DIR}/tests/serve/mine)
  # The server builds the lessons in build/, as ./lab run does: one such test at a time.
  set_tests_properties("${name}" PROPERTIES
    RESOURCE_LOCK lab_build
    TIMEOUT 600
    ENVIRONMENT "SIMT_NODE_MODULES=${PROJECT_BINARY_DIR}/web/report/node_modules;CHROMIUM=${SIMT_CHROMIUM}")
else()
  message(STATUS "simt: the playground's browser test is not registered: it needs simt_serve, the "
                 "playground page (Node.js and npm) and Chromium (apt-get install chromium)")
endif()
