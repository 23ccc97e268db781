# Kernel faults, the watchdog and Ctrl-C: each ends with CUDA's error, the thread, block and line.
# The programs are plain CUDA; their raw accesses and faults are the simulator's business only.
# AddressSanitizer builds instrument no raw access, and their fibers (Boost's) cannot leave a
# faulting frame: there a fault ends the program with its message, untested here.
if(SIMT_SANITIZE)
  return()
endif()
simt_add_executable(kernel_faults SOURCES faults/kernel_faults.cu SIMULATOR_ONLY)
simt_add_executable(watchdog_kernels SOURCES faults/watchdog.cu SIMULATOR_ONLY)
simt_add_executable(watchdog_kernels_unchecked SOURCES faults/watchdog.cu SIMULATOR_ONLY UNCHECKED)

# A fault is the launch's error, sticky as on a GPU, and the program goes on to report it.
function(simt_fault_test name mode error says)
  simt_robustness_test("${name}" PROGRAM kernel_faults ARGS ${mode} STATUS 1 SECONDS 15
    EXPECT "^after the launch: ${error} [^\n]*\nthe next call: ${error}\n.*${says}")
endfunction()
simt_fault_test("A kernel writing through a null pointer fails with cudaErrorIllegalAddress at its thread, block and line"
  null cudaErrorIllegalAddress
  "simt: illegal address in thread \\(5,0,0\\) block \\(0,0,0\\) at kernel_faults.cu:11: a write to a null pointer \\(address 0x14\\)")
simt_fault_test("A kernel writing through a wild pointer fails with cudaErrorIllegalAddress at its thread, block and line"
  wild cudaErrorIllegalAddress
  "simt: illegal address in thread \\(2,0,0\\) block \\(1,0,0\\) at kernel_faults.cu:17: a write to address 0x7000deadbee0, where nothing is mapped")
simt_fault_test("Deep recursion in a plain CUDA kernel is a stack overflow at its line, not a crash"
  stack-overflow cudaErrorLaunchFailure
  "simt: stack overflow in thread \\(0,0,0\\) of block \\(0,0,0\\) at kernel_faults.cu:2[1-8]: .*SIMT_STACK_SIZE=256K")
simt_fault_test("__trap() in a kernel fails the launch with cudaErrorLaunchFailure at its thread, block and line"
  trap cudaErrorLaunchFailure
  "simt: __trap\\(\\) in thread \\(7,0,0\\) block \\(0,0,0\\) at kernel_faults.cu:36")
simt_fault_test("A failed assert in a kernel prints CUDA's message and fails the launch with cudaErrorAssert"
  assert cudaErrorAssert
  "kernel_faults.cu:41: void assert_positive\\(const int\\*, int\\*\\): block: \\[0,0,0\\], thread: \\[7,0,0\\] Assertion `in\\[threadIdx.x\\] >= 0` failed.")
simt_fault_test("abort() in a kernel fails the launch at its thread, block and line instead of killing the program"
  abort cudaErrorLaunchFailure
  "simt: abort\\(\\) called in thread \\(7,0,0\\) block \\(0,0,0\\) at kernel_faults.cu:46")
simt_fault_test("exit() in a kernel fails the launch at its line instead of hanging"
  exit cudaErrorLaunchFailure
  "simt: exit\\(3\\) called in thread \\(7,0,0\\) block \\(0,0,0\\) at kernel_faults.cu:51: a GPU has no exit\\(\\)")
foreach(memory IN ITEMS "heap;host's heap;from calloc" "new;host's heap;from new[]"
                        "stack;host's stack;on the host's stack")
  list(GET memory 0 mode)
  list(GET memory 1 says)
  list(GET memory 2 array)
  simt_robustness_test("A kernel reading a host array ${array} fails with cudaErrorIllegalAddress at its line, naming the argument"
    PROGRAM kernel_faults ARGS host-${mode} STATUS 1 SECONDS 15
    EXPECT "^after the launch: cudaErrorIllegalAddress, [^\n]*\n.*simt: illegal address in thread \\(0,0,0\\) block \\(0,0,0\\) at kernel_faults.cu:63: a read of 4 bytes at 0x[0-9a-f]+, 0 bytes into the memory passed as the kernel's argument 1 at kernel_faults.cu:[0-9]+, which is the ${says}.*HMM or ATS")
endforeach()
simt_robustness_test("A kernel reads pinned host memory from cudaMallocHost as a GPU does"
  PROGRAM kernel_faults ARGS pinned STATUS 0 SECONDS 15
  EXPECT "^after the launch: cudaSuccess, out\\[31\\] = 62\n${simt_clean}")
simt_robustness_test("A host pointer a kernel is given but never reads is no fault"
  PROGRAM kernel_faults ARGS host-unread STATUS 0 SECONDS 15
  EXPECT "^after the launch: cudaSuccess, out\\[31\\] = 62\n${simt_clean}")
simt_robustness_test("After a stack overflow and a null pointer, a reset program runs kernels again"
  PROGRAM kernel_faults ARGS recover STATUS 0 SECONDS 15
  EXPECT "the faulting launches: cudaErrorLaunchFailure\nafter a reset: cudaSuccess, out\\[31\\] = 62\n")
# (`cmake -E env`, which runs each program, says "Subprocess aborted" and returns 1 for an abort.)
simt_robustness_test("assert() on the host is glibc's own: its message, then abort"
  PROGRAM kernel_faults ARGS host-assert STATUS 1 SECONDS 15
  EXPECT "kernel_faults: [^\n]*kernel_faults.cu:[0-9]+: int main\\(int, char\\*\\*\\): Assertion `argc > 5' failed.\nSubprocess aborted")
simt_robustness_test("exit() on the host is glibc's own: the program ends with its status after simt's end"
  PROGRAM kernel_faults ARGS host-exit STATUS 5 SECONDS 15
  EXPECT "simt: note: 2 allocations \\(384 bytes\\) were never freed")

# A fatal raw access in a kernel without barriers ends the launch at once, its finding reported.
add_test(NAME "A read far past every allocation in a barrier-free kernel ends the launch at once with its finding in the JSON report"
  COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:kernel_faults> -DARGS=far-read -DSTATUS=1
          -DSECONDS=10 -DREPORT_FILE=${CMAKE_CURRENT_BINARY_DIR}/faults_far_read.json
          "-DEXPECT=after the launch: cudaError.*read by thread \\(0,0,0\\) block \\(0,0,0\\) at kernel_faults.cu:58\n.*the thread cannot continue"
          "-DREPORT=\"threads\":\\[\\[0,0,0\\]\\],\"blocks\":\\[\\[0,0,0\\]\\],\"file\":\"[^\"]*kernel_faults.cu\",\"line\":58"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/faults/expect_report.cmake)

# Runs WRAPPER (a program that runs another: timeout, script) with ARGS, as simt_robustness_test
# runs a target.
function(simt_wrapped_test name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "WRAPPER;STATUS;EXPECT;SECONDS" "ARGS;ENV")
  add_test(NAME "${name}"
    COMMAND ${CMAKE_COMMAND} "-DPROGRAM=${ARG_WRAPPER}" "-DARGS=${ARG_ARGS}" "-DENV=${ARG_ENV}"
            "-DSTATUS=${ARG_STATUS}" "-DEXPECT=${ARG_EXPECT}" "-DSECONDS=${ARG_SECONDS}"
            -P ${CMAKE_CURRENT_SOURCE_DIR}/robustness/expect_exit.cmake)
endfunction()

# The watchdog stops what makes no progress, with its line, and leaves alone what does.
# Checked, a thread that spins on a flag nothing can set is a deadlock at once (block/spin.cpp);
# with the race checker off, blocks run on every core and the watchdog judges the spin.
simt_robustness_test("A barrier-free kernel spinning on a flag that nothing sets is a deadlock at the spin's line, naming what it reads"
  PROGRAM watchdog_kernels ARGS spin STATUS 1 SECONDS 15
  EXPECT "after the launch: cudaErrorLaunchFailure\n.*simt: deadlock in block \\(0,0,0\\) of the kernel launched at watchdog.cu:[0-9]+: no thread of the block can continue\n  32 threads wait at a spin loop at watchdog.cu:8: \\(0,0,0\\)..\\(31,0,0\\)\n  it reads global memory 'd_flag'\\[0\\], which keeps the value 0: no thread that can still run changes it\n")
simt_robustness_test("A barrier-free kernel spinning on a flag is stopped by the watchdog at its line"
  PROGRAM watchdog_kernels ARGS spin ENV SIMT_TIMEOUT=2 SIMT_CHECK=none STATUS 1 SECONDS 15
  EXPECT "after the launch: cudaErrorLaunchFailure\n.*made no progress for 2 s and was stopped[^\n]*\n  block \\(0,0,0\\): thread \\(0,0,0\\) spins at watchdog.cu:8 reading global memory '[^']+'\\[0\\]\n    31 threads had not started yet")
simt_robustness_test("A kernel looping without touching memory is stopped by the watchdog at its line"
  PROGRAM watchdog_kernels ARGS compute-forever ENV SIMT_TIMEOUT=2 STATUS 1 SECONDS 20
  EXPECT "made no progress for 2 s and was stopped[^\n]*\n  block \\(0,0,0\\): a thread was at watchdog.cu:16\n  no thread of it made a memory access that simt sees")
simt_robustness_test("A slow kernel whose blocks keep finishing runs past SIMT_TIMEOUT to its end"
  PROGRAM watchdog_kernels ARGS slow ENV SIMT_TIMEOUT=2 STATUS 0 SECONDS 120 EXPECT "^slow: cudaSuccess\n")
simt_robustness_test("A single thread reading a large array for longer than SIMT_TIMEOUT runs to its end"
  PROGRAM watchdog_kernels ARGS one-long-thread ENV SIMT_TIMEOUT=2 STATUS 0 SECONDS 120
  EXPECT "^one long thread: cudaSuccess\n")
find_program(SIMT_SCRIPT_PROGRAM script)
if(SIMT_SCRIPT_PROGRAM)
  # `script` gives the program a terminal, where the progress line shows.
  simt_wrapped_test("A slow kernel on a terminal shows one progress line, cleared at its end"
    WRAPPER ${SIMT_SCRIPT_PROGRAM} ARGS -qec "$<TARGET_FILE:watchdog_kernels> slow" /dev/null
    ENV SIMT_TIMEOUT=2 STATUS 0 SECONDS 120
    EXPECT "\r.\\[Ksimt: the kernel launched at watchdog.cu:[0-9]+: [0-9]+ of 1400 blocks done, [0-9.]+ blocks/s, about [0-9]+ s left \\(checks on: SIMT_CHECK=none runs faster\\)\r.\\[Kslow: cudaSuccess")
  # With SIMT_PROFILE on, the line adds the whole launch's time on the simulated GPU, from the
  # blocks counted so far.
  simt_wrapped_test("A slow kernel profiled on a terminal shows the whole launch's predicted time on its GPU in the progress line"
    WRAPPER ${SIMT_SCRIPT_PROGRAM} ARGS -qec "$<TARGET_FILE:watchdog_kernels> slow" /dev/null
    ENV SIMT_TIMEOUT=2 SIMT_PROFILE=text SIMT_DEVICE=T4 STATUS 0 SECONDS 120
    EXPECT "\r.\\[Ksimt: the kernel launched at watchdog.cu:[0-9]+: [0-9]+ of 1400 blocks done, [0-9.]+ blocks/s, about [0-9]+ s left \\(checks on: SIMT_CHECK=none runs faster\\); on T4 the whole launch would take [0-9.]+ (ns|µs|ms|s) \\((DRAM|L2|shared memory|compute|latency|launch)-bound\\)")
  # Built UNCHECKED, nothing can be turned off: the line says nothing about checks.
  simt_wrapped_test("A long kernel built UNCHECKED shows a progress line that says nothing about checks"
    WRAPPER ${SIMT_SCRIPT_PROGRAM} ARGS -qec "$<TARGET_FILE:watchdog_kernels_unchecked> timed" /dev/null
    ENV SIMT_WORKERS=1 STATUS 0 SECONDS 60
    EXPECT "\r.\\[Ksimt: the kernel launched at watchdog.cu:[0-9]+: [0-9]+ of 1000 blocks done, [0-9.]+ blocks/s, about [0-9]+ s left\r.\\[Ktimed: cudaSuccess")
endif()
find_program(SIMT_TIMEOUT_PROGRAM timeout)
if(SIMT_TIMEOUT_PROGRAM)
  simt_wrapped_test("Ctrl-C during a barrier-free kernel prints where its thread spins and exits 130 at once"
    WRAPPER ${SIMT_TIMEOUT_PROGRAM} ARGS --preserve-status -s INT 2 $<TARGET_FILE:watchdog_kernels> spin
    ENV SIMT_TIMEOUT=0 SIMT_CHECK=none STATUS 130 SECONDS 5
    EXPECT "^simt: interrupted \\(Ctrl-C\\) while the kernel launched at watchdog.cu:[0-9]+ was running\n  block \\(0,0,0\\): thread \\(0,0,0\\) was running at watchdog.cu:8 \\(reading global memory '[^']+'\\[0\\]\\)\n    31 threads had not started yet\n$")
  simt_wrapped_test("Ctrl-C during a kernel that touches no memory prints its line and exits 130 at once"
    WRAPPER ${SIMT_TIMEOUT_PROGRAM} ARGS --preserve-status -s INT 2 $<TARGET_FILE:watchdog_kernels> compute-forever
    ENV SIMT_TIMEOUT=0 STATUS 130 SECONDS 5
    EXPECT "^simt: interrupted \\(Ctrl-C\\) while the kernel launched at watchdog.cu:[0-9]+ was running\n  block \\(0,0,0\\): a thread was at watchdog.cu:16\n$")
endif()
