# tests/sync/idioms.cu built without CMake, by simt-nvcc (-DMODE=nvcc) or `./lab run` (lab): the
# last-block reduction with its fence runs clean, without it reports the race at its lines.
# -DMODE=... -DSIMT_NVCC=<build/bin/simt-nvcc> -DLAB=<./lab> -DSOURCE=<idioms.cu> -DWORK_DIR=<scratch>
include(${CMAKE_CURRENT_LIST_DIR}/../support/run_command.cmake)
route_program()
run(${program} last-block)
if(NOT all MATCHES "last-block: 1533 \\(expected 1533\\)" OR all MATCHES "simt: [0-9]+ finding")
  message(FATAL_ERROR "the right form did not run clean:\n${all}")
endif()
run(${program} last-block-no-fence)
if(NOT all MATCHES "simt: data race \\(read after write\\) on global memory 'partial'\\[0\\][^\n]*\n  read by thread \\(0,0,0\\) block \\(7,0,0\\) at idioms.cu:139\n  write by thread \\(0,0,0\\) block \\(0,0,0\\) at idioms.cu:130\n  the other thread made this access, then the atomic at idioms.cu:132")
  message(FATAL_ERROR "the wrong form did not report its race at its lines:\n${all}")
endif()
message(STATUS "as expected:\n${all}")
