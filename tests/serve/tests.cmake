# The playground's server (tools/serve, docs/playground.md) over HTTP: its safety rules (token,
# Origin, Host, names only from the listing), the listing, edits in the working copy, runs two at
# a time, compiler errors, Stop, and a server killed or terminated taking its runs with it
# (serve_test.mjs, one case a test). Each case starts its own simt_serve with a state folder of
# its own under build/tests/serve-state/, so a learner's working copies in build/playground are
# never touched; its runs build with build/bin/simt-nvcc against the library already built, so
# nothing is built in build/ itself.
if(NOT TARGET simt_serve OR NOT TARGET simt_sim OR SIMT_SANITIZE)
  return()
endif()
find_program(SIMT_NODE node)
if(NOT SIMT_NODE)
  message(STATUS "simt: the playground server's tests are not registered: no Node.js (apt-get install nodejs)")
  return()
endif()

foreach(case IN ITEMS
    "safety|The playground refuses requests without its token, from another Origin or Host, and names that are paths"
    "lessons|The playground lists each lesson with its files, title and the variants its README runs"
    "edits|A playground edit is kept in the working copy, never over the lesson's file, and Reset brings the lesson's text back"
    "runs|Two playground runs of lesson 01 go at once to exit 0 and OK, and a third is refused with 429"
    "compile_errors|A compiler error in a playground edit is reported at its file and line"
    "stop|Stop ends a playground run of a spinning kernel as Ctrl-C does, naming the kernel"
    "killed|A playground server killed with SIGKILL leaves no program of its runs behind"
    "terminated|A playground server ended with SIGTERM kills its runs and exits 0")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 which)
  list(GET parts 1 name)
  add_test(NAME "${name}"
    COMMAND ${SIMT_NODE} ${CMAKE_CURRENT_LIST_DIR}/serve_test.mjs ${which} $<TARGET_FILE:simt_serve>
            ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR} ${CMAKE_CURRENT_BINARY_DIR}/serve-state/${which})
  # simt-nvcc must be there (it is made at configure time; its library and front end at build).
  set_tests_properties("${name}" PROPERTIES TIMEOUT 300)
endforeach()
