# The plain run (sim/include/simt/sim/block/thread_loop.hpp): a block whose first thread meets no
# barrier runs the rest as one loop. Each program is built UNCHECKED (where the plain run matters)
# and checked; each case has a thread after the first that needs the simulator, and asserts what
# it prints, its error, or its finding with the line. SIMT_CHECK=none on the UNCHECKED build
# turns the plain run on whatever the build's default checks are.
simt_add_executable(fastloop_plain_run SOURCES fastloop/plain_run.cu SIMULATOR_ONLY UNCHECKED)
simt_add_executable(fastloop_plain_run_checked SOURCES fastloop/plain_run.cu SIMULATOR_ONLY)

foreach(build IN ITEMS "fastloop_plain_run;built UNCHECKED;SIMT_CHECK=none"
                       "fastloop_plain_run_checked;checked;SIMT_CHECK=all")
  list(GET build 0 program)
  list(GET build 1 how)
  list(GET build 2 checks)
  simt_robustness_test("A barrier that only threads after the first reach still orders shared memory, ${how}"
    PROGRAM ${program} ARGS late-barrier ENV ${checks} STATUS 0
    EXPECT "late barrier: 0 wrong\nafter the launch: cudaSuccess")
  foreach(workers 1 2)
    simt_robustness_test("Divergent barriers after a barrier-free first thread are a deadlock naming both lines, ${how}, ${workers} workers"
      PROGRAM ${program} ARGS two-barriers ENV ${checks} SIMT_WORKERS=${workers} STATUS 1
      EXPECT "simt: deadlock in block \\(0,0,0\\) [^\n]*\n  39 threads wait at __syncthreads\\(\\) at plain_run.cu:19: \\(1,0,0\\)..\\(39,0,0\\)\n  24 threads wait at __syncthreads\\(\\) at plain_run.cu:20: \\(40,0,0\\)..\\(63,0,0\\)\n  1 thread exited")
  endforeach()
  simt_robustness_test("__activemask() after lanes of its warp ended in a plain run leaves them out, ${how}"
    PROGRAM ${program} ARGS activemask ENV ${checks} STATUS 0
    EXPECT "active mask at thread 40: 0xffffff00\n")
  simt_robustness_test("__activemask() in a plain run after launches of other block sizes sees its later lanes live, ${how}"
    PROGRAM ${program} ARGS activemask-after-launches ENV ${checks} STATUS 0
    EXPECT "active mask at thread 999: 0xffffff80\n")
  simt_robustness_test("A warp's shuffle after a barrier-free first warp gets its neighbours' values, ${how}"
    PROGRAM ${program} ARGS shuffle ENV ${checks} STATUS 0
    EXPECT "shuffle: 0 wrong\nafter the launch: cudaSuccess")
  simt_robustness_test("printf of threadIdx from a barrier-free 3D block prints every thread in order, ${how}"
    PROGRAM ${program} ARGS printf ENV ${checks} STATUS 0
    EXPECT "^thread 0 0 0 of block 0\nthread 1 0 0 of block 0\nthread 2 0 0 of block 0\nthread 0 1 0 of block 0\nthread 1 1 0 of block 0\nthread 2 1 0 of block 0\nthread 0 0 1 of block 0\nthread 1 0 1 of block 0\nthread 2 0 1 of block 0\nthread 0 1 1 of block 0\nthread 1 1 1 of block 0\nthread 2 1 1 of block 0\nafter the launch: cudaSuccess")
  simt_robustness_test("Threads of a 33x3x2 block, rows longer than a warp, see their own coordinates, ${how}"
    PROGRAM ${program} ARGS coordinates ENV ${checks} STATUS 0
    EXPECT "coordinates: 0 wrong\nafter the launch: cudaSuccess")
endforeach()

# Faults. Under AddressSanitizer (SIMT_SANITIZE) a fiber cannot leave a faulting frame and the
# program ends with the message instead (tests/faults/tests.cmake), so these run elsewhere only.
if(SIMT_SANITIZE)
  return()
endif()
foreach(build IN ITEMS "fastloop_plain_run;built UNCHECKED;SIMT_CHECK=none"
                       "fastloop_plain_run_checked;checked;SIMT_CHECK=all")
  list(GET build 0 program)
  list(GET build 1 how)
  list(GET build 2 checks)
  simt_robustness_test("__trap() in a thread in the middle of a plain run names that thread and line, ${how}"
    PROGRAM ${program} ARGS trap ENV ${checks} STATUS 1
    EXPECT "simt: __trap\\(\\) in thread \\(37,0,0\\) block \\(0,0,0\\) at plain_run.cu:26")
endforeach()
# A bad pointer: the checked build names the exact thread; built UNCHECKED, the plain run need not
# record which thread runs: the message says that the one named may not be it, and which 32 it was in.
simt_robustness_test("A null write in a plain run of an UNCHECKED build says the thread named may not be the one"
  PROGRAM fastloop_plain_run ARGS null ENV SIMT_CHECK=none STATUS 1
  EXPECT "simt: illegal address in thread \\([0-9]+,0,0\\) block \\(0,0,0\\) at plain_run.cu:31: a write to a null pointer[^\n]*\n[^\n]*\n?  the thread named may not be the one that faulted: [^\n]*it was one of threads \\(1,0,0\\)..\\(32,0,0\\)")
simt_robustness_test("A null write in a checked build names its thread exactly"
  PROGRAM fastloop_plain_run_checked ARGS null STATUS 1
  EXPECT "simt: illegal address in thread \\(5,0,0\\) block \\(0,0,0\\) at plain_run.cu:31: a write to a null pointer")
