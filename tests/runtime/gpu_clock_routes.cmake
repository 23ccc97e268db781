# tests/runtime/gpu_clock.cu built without CMake, by simt-nvcc (-DMODE=nvcc) or `./lab run`
# (lab): the GPU's clock answers as in the CMake build (a pinned 25 MB copy on the A100 is
# 1.003 ms), and with the clock on, the race between two streams is still reported at its lines.
# -DMODE=... -DSIMT_NVCC=<build/bin/simt-nvcc> -DLAB=<./lab> -DSOURCE=<gpu_clock.cu> -DWORK_DIR=<scratch>
include(${CMAKE_CURRENT_LIST_DIR}/../support/run_command.cmake)
route_program()
run(${program})
expect("label: A100, predicted\nnothing: 0.000 ms\ncopy in, pinned: 1.003 ms\n"
       "the GPU's clock did not give the copy's time")
expect("simt: no findings \\(race, bounds, init, sync checked\\)\n$" "the clean run was not clean")
run(${program} race)
expect("simt: data race \\((read after write|write after read)\\) on global memory 'x'\\[0\\][^\n]*\n  (read|write) by thread \\(0,0,0\\) block \\(0,0,0\\) at gpu_clock.cu:(24|29)[^\n]*\n  (read|write) by thread \\(0,0,0\\) block \\(0,0,0\\) at gpu_clock.cu:(24|29)[^\n]*\n"
       "the race between the streams was not reported at its lines")
expect("label: A100, predicted\nthe two kernels: timed\n" "the racy kernels were not timed")
message(STATUS "as expected:\n${all}")
