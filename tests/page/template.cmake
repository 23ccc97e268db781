# The report page's template on its own, without a run: filled with the development fixtures
# (web/report/fixtures, the substitution the simulator makes done by tools/fill.mjs), each page
# checked against the schema and opened in Chromium with the checks of expect/<name>.json; the
# unfilled template must open too, saying it holds no run. Screenshots go to build/tests/pages/.
#
# include()d from tests/page/tests.cmake where the template is built (SIMT_REPORT_PAGE_FILE).
if(NOT SIMT_REPORT_PAGE_FILE)
  return()
endif()
find_program(SIMT_NODE node)
find_program(SIMT_CHROMIUM NAMES chromium chromium-browser)
set(simt_template_pages ${CMAKE_CURRENT_BINARY_DIR}/pages)
set(simt_template_env "SIMT_NODE_MODULES=${PROJECT_BINARY_DIR}/web/report/node_modules;CHROMIUM=${SIMT_CHROMIUM}")

# simt_template_page(<name> <what the data is> <what the browser test checks>)
function(simt_template_page name what look)
  set(page ${simt_template_pages}/template-${name}.html)
  set(fill "The report page's template filled with ${what}")
  if(name STREQUAL "template")
    add_test(NAME "${fill}"
      COMMAND ${CMAKE_COMMAND} -E copy ${SIMT_REPORT_PAGE_FILE} ${page})
  else()
    add_test(NAME "${fill}"
      COMMAND ${SIMT_NODE} ${PROJECT_SOURCE_DIR}/web/report/tools/fill.mjs ${SIMT_REPORT_PAGE_FILE}
              ${PROJECT_SOURCE_DIR}/web/report/fixtures/${name}.json ${page})
    add_test(NAME "${fill} holds data of the schema's shape"
      COMMAND ${SIMT_NODE} ${CMAKE_CURRENT_SOURCE_DIR}/page/check_schema.mjs
              ${PROJECT_SOURCE_DIR}/web/report/report.schema.json ${page})
    set_tests_properties("${fill} holds data of the schema's shape" PROPERTIES
      FIXTURES_REQUIRED template_${name} ENVIRONMENT "${simt_template_env}")
  endif()
  set_tests_properties("${fill}" PROPERTIES FIXTURES_SETUP template_${name})
  if(SIMT_CHROMIUM)
    add_test(NAME "In Chromium, the report page's template filled with ${what} ${look}"
      COMMAND ${SIMT_NODE} ${CMAKE_CURRENT_SOURCE_DIR}/page/check_page.mjs --page ${page}
              --screenshot ${simt_template_pages}/template-${name}.png
              --expect ${CMAKE_CURRENT_SOURCE_DIR}/page/expect/${name}.json)
    set_tests_properties("In Chromium, the report page's template filled with ${what} ${look}" PROPERTIES
      FIXTURES_REQUIRED template_${name} ENVIRONMENT "${simt_template_env}" TIMEOUT 120)
  endif()
endfunction()

simt_template_page(sample "the sample run (fixtures/sample.json)"
  "draws every section, and a click on a line or a finding shows what it names")
simt_template_page(stopped "a run that stopped on a fault (fixtures/stopped.json)"
  "says it stopped and leaves out the sections it has no data for")
simt_template_page(template "nothing (the template as built)" "says it holds no run")
