# The runtime API a course uses, and bad input to it: CUDA's error codes, named.
# Each program here is plain CUDA as a learner writes it; the tests run it and match its output.

# Memory still allocated at exit: one note line, no finding, no effect on the exit status;
# SIMT_CHECK=all,leak makes each a finding, as compute-sanitizer's --leak-check full does.
simt_add_executable(runtime_leaks_at_exit SOURCES runtime/leaks_at_exit.cu SIMULATOR_ONLY)
set(simt_leak_note "simt: note: 3 allocations \\(13 KiB\\) were never freed, the largest 'd_a' allocated at leaks_at_exit.cu:15; cudaFree them, or SIMT_CHECK=all,leak lists each\n")
simt_robustness_test("Memory never freed is one note line at exit, not a finding, and the program exits 0"
  PROGRAM runtime_leaks_at_exit STATUS 0 EXPECT "^last 6142\n${simt_leak_note}${simt_clean}")
simt_robustness_test("Memory never freed leaves the exit status alone even with SIMT_EXITCODE set"
  PROGRAM runtime_leaks_at_exit ENV SIMT_EXITCODE=3 STATUS 0 EXPECT "^last 6142\n${simt_leak_note}${simt_clean}")
simt_robustness_test("With SIMT_CHECK=all,leak each allocation never freed is a finding with its line"
  PROGRAM runtime_leaks_at_exit ENV SIMT_CHECK=all,leak SIMT_EXITCODE=3 STATUS 3
  EXPECT "simt: leak: device memory 'd_a' \\(float, 3072 elements, allocated at leaks_at_exit.cu:15\\) was never freed\n  free it with cudaFree.*'d_b'.*'d_count'.*simt: 3 findings \\(3 leak\\)")
simt_robustness_test("SIMT_CHECK=mem still turns the leak check on, under its old name"
  PROGRAM runtime_leaks_at_exit ENV SIMT_CHECK=mem STATUS 0 EXPECT "simt: 3 findings \\(3 leak\\)")

# SIMT_CHECK's help says what each name gates: bounds are always checked, leaks only when named.
simt_robustness_test("The settings help says all leaves leaks out and bounds are always checked"
  PROGRAM simt_settings STATUS 0
  EXPECT "SIMT_CHECK \\(default all\\)\n  which checkers run: race \\(data races\\), init \\(uninitialized reads\\), sync \\(barriers and warp masks\\), leak \\(each allocation never freed is a finding, not one note at exit\\)\\. all is race,init,sync[^\n]*Bounds, use after free, null and misaligned accesses are checked whatever this says, except in a program built UNCHECKED, which checks nothing[^\n]*\n  accepts all, none, or a comma-separated list of race, init, sync, leak")

# A SIMT_* variable no setting reads is named once at start, with the closest setting.
simt_robustness_test("A misspelt setting SIMT_CHEK is named with the setting it is closest to"
  PROGRAM runtime_leaks_at_exit ENV SIMT_CHEK=none STATUS 0
  EXPECT "^last 6142\nsimt: warning: SIMT_CHEK is not a simt setting and is ignored; did you mean SIMT_CHECK\\? \\(`./lab help settings` lists them\\)\nsimt: note: 3 allocations")

# Bad arguments to the runtime API: CUDA's error code (which the program prints) and simt's line
# saying why, with the call's file:line.
simt_add_executable(runtime_bad_calls SOURCES runtime/bad_calls.cu SIMULATOR_ONLY)
function(simt_bad_call name case)
  simt_robustness_test("${name}" PROGRAM runtime_bad_calls ARGS ${case} STATUS 0 EXPECT "${ARGN}")
endfunction()
simt_bad_call("cudaMalloc of a negative int size is refused with cudaErrorMemoryAllocation and a null pointer" malloc-negative
  "simt: cudaMalloc refused: out of device memory at bad_calls.cu:38: 18446744073709551612 bytes asked for, more than the 80 GiB of memory the simulated NVIDIA A100-SXM4-80GB[^\n]* has in all; a size this large is usually a negative number[^\n]*\ncudaMalloc: cudaErrorMemoryAllocation, d_a null\nthen: cudaErrorMemoryAllocation")
simt_bad_call("Allocations larger than the simulated device are refused by cudaMalloc, cudaMallocManaged, cudaMallocPitch and cudaMallocHost" malloc-too-big
  "bad_calls.cu:43: 107374182400 bytes asked for, more than the 80 GiB[^\n]*\ncudaMalloc\\(&d_big, \\(size_t\\)100 << 30\\): cudaErrorMemoryAllocation\nsimt: cudaMallocManaged refused: out of device memory at bad_calls.cu:44: [^\n]*\ncudaMallocManaged\\(&d_big, SIZE_MAX\\): cudaErrorMemoryAllocation\nsimt: cudaMallocPitch refused at bad_calls.cu:46: 4 rows of 9223372036854775807 bytes overflow size_t[^\n]*\ncudaMallocPitch\\(&d_big, &pitch, SIZE_MAX / 2, 4\\): cudaErrorMemoryAllocation\nsimt: cudaMallocHost refused at bad_calls.cu:47: 18446744073709551615 bytes of pinned host memory[^\n]*\ncudaMallocHost\\(&d_big, SIZE_MAX\\): cudaErrorMemoryAllocation\ncudaMalloc\\(&d_ok, 1024\\): cudaSuccess\ncudaFree\\(d_ok\\): cudaSuccess")
simt_bad_call("cudaFree of a host array is cudaErrorInvalidValue, named as not a pointer cudaMalloc returned" free-host
  "simt: cudaFree at bad_calls.cu:53: not a pointer cudaMalloc returned: it points to host memory [^\n]*\\(cudaErrorInvalidValue\\)\ncudaFree\\(on_stack\\): cudaErrorInvalidValue")
simt_bad_call("A second cudaFree of one pointer is cudaErrorInvalidValue, named as a double free" free-twice
  "cudaFree\\(d_x\\): cudaSuccess\nsimt: cudaFree at bad_calls.cu:58: a double free: the memory 'd_x' \\(int, 64 elements, allocated at bad_calls.cu:56\\) was freed already[^\n]*\ncudaFree\\(d_x\\): cudaErrorInvalidValue")
simt_bad_call("cudaFree of a pointer into an array is cudaErrorInvalidValue, saying how far in it points" free-inside
  "simt: cudaFree at bad_calls.cu:62: not a pointer cudaMalloc returned: it points 32 bytes into 'd_x' [^\n]*\ncudaFree\\(d_x \\+ 8\\): cudaErrorInvalidValue\ncudaFree\\(d_x\\): cudaSuccess")
simt_bad_call("cudaFree of pinned memory and cudaFreeHost of device memory are cudaErrorInvalidValue, each naming the right call" free-pinned
  "simt: cudaFree at bad_calls.cu:67: not a pointer cudaMalloc returned: it is pinned host memory[^\n]*cudaFreeHost[^\n]*\ncudaFree\\(h_pinned\\): cudaErrorInvalidValue\ncudaFreeHost\\(h_pinned\\): cudaSuccess\nsimt: cudaFreeHost at bad_calls.cu:71: [^\n]*it is device memory; free it with cudaFree[^\n]*\ncudaFreeHost\\(d_x\\): cudaErrorInvalidValue\ncudaFree\\(d_x\\): cudaSuccess")
simt_bad_call("Managed-memory hints check the pointer, the range and the device as CUDA does, in both of their forms" hints
  "cudaMemPrefetchAsync\\(managed, bytes, 0\\): cudaSuccess\ncudaMemPrefetchAsync\\(managed, bytes, cudaCpuDeviceId\\): cudaSuccess\nsimt: cudaMemPrefetchAsync at bad_calls.cu:103: device 7 does not exist[^\n]*\ncudaMemPrefetchAsync\\(managed, bytes, 7\\): cudaErrorInvalidDevice\nsimt: cudaMemPrefetchAsync at bad_calls.cu:104: the pointer is not managed memory \\(from cudaMallocManaged\\): 'device_only'[^\n]*\ncudaMemPrefetchAsync\\(device_only, bytes, 0\\): cudaErrorInvalidValue\nsimt: cudaMemPrefetchAsync at bad_calls.cu:105: 8192 bytes from byte 0 run past the end of 'managed'[^\n]*\ncudaMemPrefetchAsync\\(managed, 2 \\* bytes, 0\\): cudaErrorInvalidValue\ncudaMemPrefetchAsync\\(managed, bytes, gpu, 0\\): cudaSuccess\ncudaMemPrefetchAsync\\(managed, bytes, host, 0, 0\\): cudaSuccess\ncudaMemAdvise\\(managed, bytes, cudaMemAdviseSetReadMostly, 0\\): cudaSuccess\ncudaMemAdvise\\(managed, bytes, cudaMemAdviseSetPreferredLocation, cudaCpuDeviceId\\): cudaSuccess\nsimt: cudaMemAdvise at bad_calls.cu:111: device 30 does not exist[^\n]*\ncudaMemAdvise\\(managed, bytes, cudaMemAdviseSetAccessedBy, 30\\): cudaErrorInvalidDevice\ncudaMemAdvise\\(managed, bytes, cudaMemAdviseSetAccessedBy, gpu\\): cudaSuccess\nsimt: cudaMemAdvise at bad_calls.cu:113: the pointer is not managed memory[^\n]*\ncudaMemAdvise\\(device_only, bytes, cudaMemAdviseSetReadMostly, 0\\): cudaErrorInvalidValue\nsimt: cudaMemAdvise at bad_calls.cu:114: advice 9 is not a cudaMemoryAdvise[^\n]*\ncudaMemAdvise\\(managed, bytes, \\(cudaMemoryAdvise\\)9, 0\\): cudaErrorInvalidValue")

# Misaligned accesses, reported as a GPU faults on them: the kind, the array, the offset in
# elements and bytes, the line. Raw accesses are seen through the compiler's instrumentation,
# which AddressSanitizer builds go without.
if(NOT SIMT_SANITIZE)
  simt_bad_call("An int load 2 bytes into an int array is a misaligned address, with the array, the offset and the line" misaligned-load
    "simt: misaligned address: 4-byte read of global memory 'd_in'\\[0\\] \\+ 2 bytes \\(int, 64 elements, allocated at bad_calls.cu:75\\)[^\n]*\n  read by thread \\(0,0,0\\) block \\(0,0,0\\) at bad_calls.cu:13\n  byte offset 2, 0.5 in 4-byte units, is not a multiple of 4: a GPU stops the kernel here with cudaErrorMisalignedAddress.*simt: 1 finding \\(1 misaligned-address\\)")
  simt_bad_call("A double stored at byte 12 of a char buffer is a misaligned address, and one at byte 16 is not" misaligned-store
    "simt: misaligned address: 8-byte write of global memory 'd_bytes'\\[12\\] \\(char, 64 elements, allocated at bad_calls.cu:84\\)[^\n]*\n  write by thread \\(0,0,0\\) block \\(0,0,0\\) at bad_calls.cu:21\n  byte offset 12, 1.5 in 8-byte units, is not a multiple of 8.*simt: 1 finding \\(1 misaligned-address\\)")
  simt_bad_call("A struct of two doubles copied from an 8-byte boundary is not a misaligned access" aligned-pairs
    "^cudaDeviceSynchronize\\(\\): cudaSuccess\n${simt_clean}")
  simt_bad_call("A misaligned atomicAdd names its array and offset, not a bare address" misaligned-atomic
    "simt: misaligned address: 4-byte atomic of global memory 'd_counter'\\[1\\] \\+ 2 bytes \\(int, 4 elements, allocated at bad_calls.cu:91\\)[^\n]*\n  atomic by thread \\(0,0,0\\) block \\(0,0,0\\) at bad_calls.cu:17\n  byte offset 6, 1.5 in 4-byte units.*simt: 1 finding \\(1 misaligned-atomic\\)")
endif()

# The runtime API as courses use it (typed allocation overloads, managed-memory hints, pitched
# memory, block_tile_memory), built unchanged for the simulator and for the GPU.
simt_add_executable(runtime_course_api SOURCES runtime/course_api.cu)
add_test(NAME "The allocation templates, managed-memory hints and block_tile_memory of CUDA courses build and run"
         COMMAND runtime_course_api)
set_tests_properties("The allocation templates, managed-memory hints and block_tile_memory of CUDA courses build and run"
  PROPERTIES PASS_REGULAR_EXPRESSION "PASS" FAIL_REGULAR_EXPRESSION "${simt_said}|FAILED")
if(TARGET runtime_course_api_cuda)
  add_test(NAME "The allocation templates, managed-memory hints and block_tile_memory of CUDA courses run on the GPU"
           COMMAND runtime_course_api_cuda)
  set_tests_properties("The allocation templates, managed-memory hints and block_tile_memory of CUDA courses run on the GPU"
    PROPERTIES PASS_REGULAR_EXPRESSION "PASS" SKIP_RETURN_CODE 77)
endif()

# A device query through a helper in the style of NVIDIA's helper_cuda.h: the simulated A100's
# published values, the same from cudaDeviceGetAttribute as from cudaGetDeviceProperties.
simt_add_executable(runtime_device_query SOURCES runtime/device_query.cu)
simt_robustness_test("A helper_cuda.h-style device query sees the simulated A100's attributes and properties"
  PROGRAM runtime_device_query STATUS 0
  EXPECT "device 0: NVIDIA A100-SXM4-80GB[^\n]*, compute capability 8.0\nruntime 13000, driver 13000\ncores per SM 64, clock 1410 MHz, memory clock 1593 MHz, bus 5120 bits, L2 40960 KiB\nglobal memory 81920 MiB, constant 64 KiB, compute mode default\nper SM: 2048 threads, 32 blocks, 65536 registers, 167936 bytes shared\nper block: 1024 threads, 65536 registers, 49152 bytes shared \\(166912 opted in, 1024 reserved\\)\nattribute 9999: cudaErrorInvalidValue\nPASS\nsimt: cudaDeviceGetAttribute: 9999 is not a cudaDeviceAttr \\(cudaErrorInvalidValue\\)")
if(TARGET runtime_device_query_cuda)
  add_test(NAME "A helper_cuda.h-style device query agrees with itself on the GPU" COMMAND runtime_device_query_cuda)
  set_tests_properties("A helper_cuda.h-style device query agrees with itself on the GPU"
    PROPERTIES PASS_REGULAR_EXPRESSION "PASS" SKIP_RETURN_CODE 77)
endif()

# The legacy default stream synchronises with blocking streams, not with non-blocking ones.
simt_add_executable(runtime_legacy_default_stream SOURCES runtime/legacy_default_stream.cu)
simt_robustness_test("A kernel on stream 0 after one on a created stream runs after it and does not race with it"
  PROGRAM runtime_legacy_default_stream STATUS 0 EXPECT "^out\\[4095\\] = 8190\n${simt_clean}")
if(NOT SIMT_SANITIZE)
  simt_robustness_test("A kernel on stream 0 and one on a cudaStreamNonBlocking stream race on what both touch"
    PROGRAM runtime_legacy_default_stream ARGS nonblocking STATUS 0
    EXPECT "simt: data race \\([a-z ]+\\) on global memory 'd_data'\\[0\\][^\n]*\n  [a-z]+ by [^\n]* at legacy_default_stream.cu:(9|14) \\(in the kernel launched at legacy_default_stream.cu:2[56]\\)\n  [a-z]+ by [^\n]* at legacy_default_stream.cu:(9|14) \\(in the kernel launched at legacy_default_stream.cu:2[56]\\)")
endif()
simt_add_executable(runtime_event_waits SOURCES runtime/event_waits.cu)
foreach(form IN ITEMS "record-after-wait|A stream waiting for an event not yet recorded waits for nothing, not for a later record"
                      "re-recorded|A stream waiting for an event recorded again later waits for the record before the wait"
                      "two-host-threads|Two host threads launching on one stream both finish")
  string(REPLACE "|" ";" parts "${form}")
  list(GET parts 0 arg)
  list(GET parts 1 name)
  simt_robustness_test("${name}" PROGRAM runtime_event_waits ARGS ${arg} STATUS 0 SECONDS 60
    EXPECT "^${arg}: cudaSuccess\n")
endforeach()

# The GPU's clock (simt::gpu_elapsed_time): a copy takes its bytes at the link's speed plus the
# fixed cost (A100: 25 GB/s, 3 us; H100: 50 GB/s), half the speed from pageable memory; copies in
# one direction share an engine, opposite directions overlap; a stream's steps add up; an event
# wait and a host wait order the clock as they order the GPU.
simt_add_executable(runtime_gpu_clock SOURCES runtime/gpu_clock.cu SIMULATOR_ONLY)
set(simt_gpu_clock_rules "one stream: kernel longer than 0: yes, in all the sum of its steps: yes\ntwo copies in, two streams: 2.00 copies' time\na copy in and a copy out, two streams: 1.00 copies' time\na kernel that waits for a copy in another stream: after it\nan event after the host waited: at the end of the work\n")
simt_robustness_test("On the GPU's clock copies take the link's time, share an engine per direction, and streams and host waits order them"
  PROGRAM runtime_gpu_clock STATUS 0
  EXPECT "^label: A100, predicted\nnothing: 0.000 ms\ncopy in, pinned: 1.003 ms\ncopy in, pageable: 2.003 ms\ncopy on the device: 0.030 ms\n${simt_gpu_clock_rules}${simt_clean}")
simt_robustness_test("The GPU's clock follows SIMT_DEVICE: a pinned copy on an H100 at its faster link"
  PROGRAM runtime_gpu_clock ENV SIMT_DEVICE=H100 STATUS 0
  EXPECT "^label: H100, predicted\nnothing: 0.000 ms\ncopy in, pinned: 0.503 ms\ncopy in, pageable: 1.003 ms\n")
simt_add_executable(runtime_gpu_clock_unchecked SOURCES runtime/gpu_clock.cu SIMULATOR_ONLY UNCHECKED)
simt_robustness_test("A program built UNCHECKED counts nothing, and its GPU times say they are not predicted"
  PROGRAM runtime_gpu_clock_unchecked STATUS 0
  EXPECT "^label: A100, not predicted: built UNCHECKED, nothing counted\n.*one stream: kernel longer than 0: no")
simt_robustness_test("With the GPU's clock on, a read of what another stream writes with no event between is still a data race at its lines"
  PROGRAM runtime_gpu_clock ARGS race STATUS 0
  EXPECT "^label: A100, predicted\nthe two kernels: timed\n.*simt: data race \\((read after write|write after read)\\) on global memory 'x'\\[0\\][^\n]*\n  (read|write) by thread \\(0,0,0\\) block \\(0,0,0\\) at gpu_clock.cu:(24|29)[^\n]*\n  (read|write) by thread \\(0,0,0\\) block \\(0,0,0\\) at gpu_clock.cu:(24|29)[^\n]*\n")
# The same program through the routes a learner builds by without CMake.
if(TARGET simt_sim)
  add_test(NAME "simt-nvcc builds a program that reads the GPU's clock: its times as predicted, a race still at its lines"
    COMMAND ${CMAKE_COMMAND} -DMODE=nvcc -DSIMT_NVCC=${PROJECT_BINARY_DIR}/bin/simt-nvcc
            -DSOURCE=${CMAKE_CURRENT_SOURCE_DIR}/runtime/gpu_clock.cu
            -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/gpu-clock-nvcc
            -P ${CMAKE_CURRENT_SOURCE_DIR}/runtime/gpu_clock_routes.cmake)
  if(PROJECT_BINARY_DIR STREQUAL "${PROJECT_SOURCE_DIR}/build")
    add_test(NAME "./lab run builds a program that reads the GPU's clock: its times as predicted, a race still at its lines"
      COMMAND ${CMAKE_COMMAND} -DMODE=lab -DLAB=${PROJECT_SOURCE_DIR}/lab
              -DSOURCE=${CMAKE_CURRENT_SOURCE_DIR}/runtime/gpu_clock.cu
              -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/gpu-clock-lab
              -P ${CMAKE_CURRENT_SOURCE_DIR}/runtime/gpu_clock_routes.cmake)
  endif()
endif()

# SIMT_TIMELINE=trace:PATH: the run on the GPU's clock, for chrome://tracing and Perfetto.
if(TARGET 16_overlap)
  add_test(NAME "SIMT_TIMELINE's trace of lesson 16 has a row per stream, and a copy overlapping another stream's kernel on the GPU's clock"
    COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:16_overlap>
            -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/timeline-16
            -P ${CMAKE_CURRENT_SOURCE_DIR}/runtime/timeline.cmake)
endif()
simt_robustness_test("SIMT_TIMELINE with a path that cannot be written stops the program before it runs"
  PROGRAM runtime_gpu_clock ENV SIMT_TIMELINE=trace:/nonexistent/dir/t.json STATUS 2
  EXPECT "^simt: SIMT_TIMELINE=trace:/nonexistent/dir/t.json: cannot open /nonexistent/dir/t.json for writing \\(No such file or directory\\)\n")
