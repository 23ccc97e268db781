# tests/sync/atomic_in_loop.cu built without CMake, by simt-nvcc (-DMODE=nvcc) or `./lab run`
# (lab), at one worker and at four: it runs to its end, its count right, with no finding.
# -DMODE=... -DSIMT_NVCC=<build/bin/simt-nvcc> -DLAB=<./lab> -DSOURCE=<atomic_in_loop.cu> -DWORK_DIR=<scratch>
include(${CMAKE_CURRENT_LIST_DIR}/../support/run_command.cmake)
route_program()
foreach(workers IN ITEMS 1 4)
  run(${CMAKE_COMMAND} -E env SIMT_WORKERS=${workers} ${program} used)
  if(NOT all MATCHES "atomic in a loop \\(result used\\): [0-9]+ paths in the money \\(expected [0-9]+\\)\n"
     OR NOT all MATCHES "simt: no findings \\(race, bounds, init, sync checked\\)\n$"
     OR all MATCHES "simt: [^\n]*(deadlock|[0-9]+ finding|stopped)")
    message(FATAL_ERROR "at ${workers} workers it did not run clean to its end:\n${all}")
  endif()
endforeach()
message(STATUS "as expected:\n${all}")
