# The same report at any core count (issue "Checks on every core"): checked programs with each
# kind of finding, and correct programs whose blocks meet or share only inputs, run at
# SIMT_WORKERS=1, 2, 4 and 8 and print byte-identical output and JSON. A checked launch is tried
# on every worker first (docs/parallel-checking.md): these are what it must not change.
# Raw accesses are checked through the compiler's instrumentation, which AddressSanitizer builds
# go without.
if(SIMT_SANITIZE)
  return()
endif()
function(simt_same_report_test what program)
  cmake_parse_arguments(PARSE_ARGV 2 ARG "" "FINDING" "ARGS")
  string(MAKE_C_IDENTIFIER "${program}_${ARG_ARGS}" dir)
  add_test(NAME "${what} is reported byte for byte the same at 1, 2, 4 and 8 workers"
    COMMAND ${CMAKE_COMMAND} "-DPROGRAM=$<TARGET_FILE:${program}>" "-DARGS=${ARG_ARGS}"
            "-DFINDING=${ARG_FINDING}" -DOUT=${CMAKE_CURRENT_BINARY_DIR}/determinism/${dir}
            -P ${CMAKE_CURRENT_SOURCE_DIR}/determinism/same_report.cmake)
endfunction()
simt_same_report_test("A race between blocks on a struct member" broken_struct_member
  FINDING "simt: data race")
simt_same_report_test("A race on a shared tile missing its barrier" broken_matmul_missing_barrier
  FINDING "simt: data race \\(read after write\\) on shared memory")
simt_same_report_test("A race between two blocks of one launch" checked_same_access ARGS two-blocks
  FINDING "simt: data race")
simt_same_report_test("An uninitialized read" broken_uninitialised_input
  FINDING "simt: uninitialized read")
simt_same_report_test("An out-of-bounds read" broken_off_by_one FINDING "simt: out-of-bounds read")
simt_same_report_test("An out-of-bounds memcpy" broken_memcpy_past_end FINDING "simt: out-of-bounds write")
simt_same_report_test("A write of constant memory" broken_constant_write
  FINDING "simt: write of constant memory")
simt_same_report_test("A divergent tile sync" broken_tile_sync_divergent FINDING "simt: ")
simt_same_report_test("A shuffle outside its mask" broken_shfl_outside_mask FINDING "simt: ")
simt_same_report_test("A deadlock at a barrier" bad_input ARGS deadlock FINDING "deadlock")
simt_same_report_test("An exception thrown in a kernel" bad_input ARGS kernel-throws FINDING "simt: ")
simt_same_report_test("A racy counter" bad_input ARGS racy FINDING "simt: data race")
simt_same_report_test("A lock without a fence" sync_idioms ARGS lock-no-fence FINDING "simt: data race")
simt_same_report_test("A last-block reduction without a fence" sync_idioms ARGS last-block-no-fence
  FINDING "simt: data race")
simt_same_report_test("A kernel writing through a wild pointer" kernel_faults ARGS wild
  FINDING "simt: illegal address in thread")
simt_same_report_test("A failed assert in a kernel" kernel_faults ARGS assert FINDING "Assertion")
simt_same_report_test("A stack overflow in a kernel" kernel_faults ARGS stack-overflow
  FINDING "simt: stack overflow in thread")
# Correct programs: the attempt on every worker is kept (blocks that share only inputs) or undone
# for the run one block at a time (a lock, a last-block reduction: blocks meet).
simt_add_executable(determinism_shared_inputs SOURCES determinism/shared_inputs.cu SIMULATOR_ONLY)
simt_same_report_test("A matrix multiply, a stencil and block sums" determinism_shared_inputs
  FINDING "multiply 48x48: 0 wrong.stencil over 2560: 0 wrong.block sums of 40 blocks: 0 wrong.OK")
simt_same_report_test("A spin lock with fences across four blocks" sync_idioms ARGS lock
  FINDING "lock: 16 \\(expected 16\\)")
simt_same_report_test("The last-block reduction with its fence" sync_idioms ARGS last-block
  FINDING "last-block: [0-9]+ \\(expected [0-9]+\\)")
# Kernel printf ends an attempt before its first line: lines come once, in block order.
simt_same_report_test("Lesson 01's printf from every thread" 01_threads
  FINDING "block 1 of 2, thread 3 of 4 -> global index 7")
# What a launch tried on every worker leaves in the shadow for a later launch to report against,
# and findings in the last blocks of a launch.
simt_add_executable(determinism_after_attempts SOURCES determinism/after_attempts.cu SIMULATOR_ONLY)
simt_same_report_test("A race with a kernel that every block read a weight in, on another stream"
  determinism_after_attempts ARGS race-with-an-earlier-launch
  FINDING "simt: data race \\(write after read\\) on global memory 'weights'\\[3\\][^\n]*\n  write by thread \\(3,0,0\\) block \\(0,0,0\\) at after_attempts.cu:18 \\(in the kernel launched at after_attempts.cu:86\\)\n  read by thread \\(3,0,0\\) block \\(0,0,0\\) at after_attempts.cu:13 ")
simt_same_report_test("An uninitialized read of what a kernel tried on every worker left unwritten"
  determinism_after_attempts ARGS uninitialised-after-a-kept-launch
  FINDING "simt: uninitialized read[^\n]*'ints'\\[1\\][^\n]*\n[^\n]*thread \\(1,0,0\\) block \\(0,0,0\\) at after_attempts.cu:31")
simt_same_report_test("A race between the last two blocks of a launch"
  determinism_after_attempts ARGS race-in-the-last-block
  FINDING "simt: data race \\(read after write\\) on global memory 'ints'\\[2944\\][^\n]*\n[^\n]*block \\(47,0,0\\) at after_attempts.cu:45\n[^\n]*block \\(46,0,0\\) at after_attempts.cu:44")
simt_same_report_test("A shared tile read before it is written in the one block that skips its barrier"
  determinism_after_attempts ARGS shared-race-in-one-block
  FINDING "simt: uninitialized read of shared memory 'tile'\\[1\\][^\n]*\n  read by thread \\(0,0,0\\) block \\(29,0,0\\) at after_attempts.cu:56\n.*simt: data race \\(write after read\\) on shared memory 'tile'\\[1\\][^\n]*\n  write by thread \\(1,0,0\\) block \\(29,0,0\\) at after_attempts.cu:52")
# wmma's mma_sync: its last lane writes every lane's part of D, in the other lanes' frames. That
# used to end a parallel attempt while the lane itself waited in the meeting; left queued as
# ready, it was resumed on a fiber it no longer had: a fault about one run in four on four
# workers. Now the attempt is kept (a write into another fiber of the worker is the block's own),
# so these guard the kept attempt: the serial run's output, every time. They no longer reach the
# waiting leaver that Worker::leave_thread takes off the ready queue: no user code does now.
if(TARGET cuda_wmma_gemm)
  simt_same_report_test("A wmma GEMM whose mma_sync ends each attempt" cuda_wmma_gemm FINDING "PASS")
  add_test(NAME "A wmma GEMM whose mma_sync ends each attempt runs clean 20 times on four workers"
    COMMAND ${CMAKE_COMMAND} "-DPROGRAM=$<TARGET_FILE:cuda_wmma_gemm>" -DTIMES=20 -DWORKERS=4
            -DEXPECT=PASS -P ${CMAKE_CURRENT_SOURCE_DIR}/determinism/repeat.cmake)
endif()
# The address of a host array differs from run to run, so this one is matched, not compared.
foreach(workers IN ITEMS 1 4)
  simt_robustness_test("A host array given to a kernel of many blocks is an illegal address at its line (SIMT_WORKERS=${workers})"
    PROGRAM determinism_after_attempts ARGS host-array ENV SIMT_WORKERS=${workers} STATUS 0
    EXPECT "^host-array: cudaErrorIllegalAddress\nsimt: illegal address in thread \\(0,0,0\\) block \\(0,0,0\\) at after_attempts.cu:64: a read of 4 bytes at 0x[0-9a-f]+, 0 bytes into the memory passed as the kernel's argument 1 at after_attempts.cu:116, which is the host's heap")
endforeach()
