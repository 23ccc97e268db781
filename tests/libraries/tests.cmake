# The CUDA libraries courses use, in the simulator: cuRAND (device and host API), cuBLAS's common
# subset and Thrust. Written as plain CUDA; each builds for the GPU too (<name>_cuda, skipped
# without one) unless it is about the simulator's findings.

# cuRAND: Philox's published known answers, skip-ahead against stepping, the distributions'
# ranges and moments, Monte Carlo pi.
simt_add_executable(curand_checks SOURCES ${CMAKE_CURRENT_LIST_DIR}/curand_checks.cu)
add_test(NAME "cuRAND's Philox matches its known answers, skips equal steps and curand_uniform estimates pi"
         COMMAND curand_checks)
set_tests_properties("cuRAND's Philox matches its known answers, skips equal steps and curand_uniform estimates pi"
  PROPERTIES PASS_REGULAR_EXPRESSION "PASS" FAIL_REGULAR_EXPRESSION "${simt_said}|FAILED")
if(TARGET curand_checks_cuda)
  add_test(NAME "cuRAND's device API passes the same checks on the GPU" COMMAND curand_checks_cuda)
  set_tests_properties("cuRAND's device API passes the same checks on the GPU" PROPERTIES
    PASS_REGULAR_EXPRESSION "PASS" SKIP_RETURN_CODE 77)
endif()

# cuRAND's host API: generators filling device and host memory (Monte Carlo pi, normals, seeds).
simt_add_executable(curand_host_api SOURCES ${CMAKE_CURRENT_LIST_DIR}/curand_host_api.cu)
add_test(NAME "cuRAND's host API fills device and host arrays with uniforms and normals, reproducibly per seed"
         COMMAND curand_host_api)
set_tests_properties("cuRAND's host API fills device and host arrays with uniforms and normals, reproducibly per seed"
  PROPERTIES PASS_REGULAR_EXPRESSION "PASS" FAIL_REGULAR_EXPRESSION "${simt_said}|FAILED")
if(TARGET curand_host_api_cuda)
  find_package(CUDAToolkit REQUIRED)
  target_link_libraries(curand_host_api_cuda PRIVATE CUDA::curand)
  add_test(NAME "NVIDIA's cuRAND host API passes the same checks on the GPU" COMMAND curand_host_api_cuda)
  set_tests_properties("NVIDIA's cuRAND host API passes the same checks on the GPU" PROPERTIES
    PASS_REGULAR_EXPRESSION "PASS" SKIP_RETURN_CODE 77)
endif()

# cuRAND's first values, bit for bit: the table in curand_first_values.cu is what NVIDIA's cuRAND
# gives. The simulator must give it; the GPU build compares the device's cuRAND with it; and where
# nvcc is found, the toolkit's own header run on the host (no GPU needed) must give it too.
simt_add_executable(curand_first_values SOURCES ${CMAKE_CURRENT_LIST_DIR}/curand_first_values.cu)
add_test(NAME "cuRAND's XORWOW and Philox give NVIDIA's first values for each seed, subsequence and offset"
         COMMAND curand_first_values)
set_tests_properties("cuRAND's XORWOW and Philox give NVIDIA's first values for each seed, subsequence and offset"
  PROPERTIES PASS_REGULAR_EXPRESSION "PASS" FAIL_REGULAR_EXPRESSION "${simt_said}|FAILED")
if(TARGET curand_first_values_cuda)
  add_test(NAME "The GPU's cuRAND gives the same first values" COMMAND curand_first_values_cuda)
  set_tests_properties("The GPU's cuRAND gives the same first values" PROPERTIES
    PASS_REGULAR_EXPRESSION "PASS" SKIP_RETURN_CODE 77)
endif()
if(CMAKE_CUDA_COMPILER AND SIMT_CUDA_FOUND)
  add_executable(curand_reference_on_host ${CMAKE_CURRENT_LIST_DIR}/curand_first_values.cu)
  target_compile_definitions(curand_reference_on_host PRIVATE CURAND_HOST_ONLY)
  set_target_properties(curand_reference_on_host PROPERTIES CUDA_ARCHITECTURES 90
    CUDA_STANDARD 20 CUDA_STANDARD_REQUIRED ON CUDA_EXTENSIONS OFF)
  add_test(NAME "The toolkit's cuRAND run on the host gives the first values the simulator is held to"
           COMMAND curand_reference_on_host)
  set_tests_properties("The toolkit's cuRAND run on the host gives the first values the simulator is held to"
    PROPERTIES PASS_REGULAR_EXPRESSION "PASS" FAIL_REGULAR_EXPRESSION "FAILED")
endif()

# cuBLAS: each operation against a CPU loop, then the statuses of bad arguments. The GPU build
# links NVIDIA's cuBLAS; the simulator's is header-only.
simt_add_executable(cublas_checks SOURCES ${CMAKE_CURRENT_LIST_DIR}/cublas_checks.cu)
add_test(NAME "cuBLAS axpy, dot, nrm2, scal, gemv and gemm with transposes match CPU loops, and bad arguments get cuBLAS's statuses"
         COMMAND cublas_checks)
# The one message expected is the simulator's reason for setMatrix's CUBLAS_STATUS_MAPPING_ERROR
# (cuBLAS copies with cudaMemcpy2D, whose pitch is then below the width); any finding fails.
set_tests_properties("cuBLAS axpy, dot, nrm2, scal, gemv and gemm with transposes match CPU loops, and bad arguments get cuBLAS's statuses"
  PROPERTIES
  PASS_REGULAR_EXPRESSION "simt: cudaMemcpy2D at cublas_checks.cu:[0-9]+: the width is larger than a pitch.*PASS"
  FAIL_REGULAR_EXPRESSION "FAILED|simt: ([^cn]|n[^o]|no[^ ])")
if(TARGET cublas_checks_cuda)
  find_package(CUDAToolkit REQUIRED)
  target_link_libraries(cublas_checks_cuda PRIVATE CUDA::cublas)
  add_test(NAME "NVIDIA's cuBLAS passes the same checks on the GPU" COMMAND cublas_checks_cuda)
  set_tests_properties("NVIDIA's cuBLAS passes the same checks on the GPU" PROPERTIES
    PASS_REGULAR_EXPRESSION "PASS" SKIP_RETURN_CODE 77)
endif()

# cuBLAS beyond the course subset: gemm over a batch (pointer arrays and strided), the batched LU
# factorisation and inverse, trsm, syrk and geam, each against a CPU loop or the identity its
# result must satisfy, then the statuses NVIDIA documents for bad arguments.
simt_add_executable(cublas_batched SOURCES ${CMAKE_CURRENT_LIST_DIR}/cublas_batched.cu)
add_test(NAME "cuBLAS batched gemm, getrf and getri, trsm, syrk and geam match CPU loops, and bad arguments get cuBLAS's statuses"
         COMMAND cublas_batched)
set_tests_properties("cuBLAS batched gemm, getrf and getri, trsm, syrk and geam match CPU loops, and bad arguments get cuBLAS's statuses"
  PROPERTIES PASS_REGULAR_EXPRESSION "PASS" FAIL_REGULAR_EXPRESSION "${simt_said}|FAILED")
if(TARGET cublas_batched_cuda)
  find_package(CUDAToolkit REQUIRED)
  target_link_libraries(cublas_batched_cuda PRIVATE CUDA::cublas)
  add_test(NAME "NVIDIA's cuBLAS passes the same batched, LU, trsm, syrk and geam checks on the GPU"
           COMMAND cublas_batched_cuda)
  set_tests_properties("NVIDIA's cuBLAS passes the same batched, LU, trsm, syrk and geam checks on the GPU"
    PROPERTIES PASS_REGULAR_EXPRESSION "PASS" SKIP_RETURN_CODE 77)
endif()

# cuBLAS's kernels are checked like the program's own: too large an n is out of bounds on the
# program's array, and a cuBLAS call on one stream races with a kernel on another that nothing
# orders it after (and not once an event orders them).
if(NOT SIMT_SANITIZE)
  simt_add_executable(cublas_past_the_end SOURCES ${CMAKE_CURRENT_LIST_DIR}/cublas_past_the_end.cu SIMULATOR_ONLY)
  simt_robustness_test("A cublasSaxpy with n past the end of its vectors is out of bounds on the program's array, named at the program's call"
    PROGRAM cublas_past_the_end STATUS 0
    EXPECT "simt: out-of-bounds read of global memory 'd_x'\\[1000\\] \\(float, 1000 elements, allocated at cublas_past_the_end.cu:13\\)[^\n]*\n  read by thread \\(232,0,0\\) block \\(3,0,0\\) in cublasSaxpy called at cublas_past_the_end.cu:21\n")
  simt_robustness_test("The JSON report of an out-of-bounds in cublasSaxpy gives the program's line and the call"
    PROGRAM cublas_past_the_end ENV SIMT_REPORT=json:/dev/stdout STATUS 0
    EXPECT "\"file\":\"[^\"]*cublas_past_the_end.cu\",\"line\":21,\"sites\":\\[{\"file\":\"[^\"]*cublas_past_the_end.cu\",\"line\":21,\"access\":\"read\",\"thread\":\\[232,0,0\\],\"block\":\\[3,0,0\\],\"call\":\"cublasSaxpy\"}")
  simt_add_executable(curand_past_the_end SOURCES ${CMAKE_CURRENT_LIST_DIR}/curand_past_the_end.cu SIMULATOR_ONLY)
  simt_robustness_test("A curandGenerateUniform of more numbers than its array holds is out of bounds, named at the program's call"
    PROGRAM curand_past_the_end STATUS 0
    EXPECT "simt: out-of-bounds write of global memory 'd_noise'\\[1000\\] \\(float, 1000 elements, allocated at curand_past_the_end.cu:11\\)[^\n]*\n  write by thread \\([0-9]+,0,0\\) block \\([0-9]+,0,0\\) in curandGenerateUniform called at curand_past_the_end.cu:15\n")
  simt_add_executable(cublas_stream_race SOURCES ${CMAKE_CURRENT_LIST_DIR}/cublas_stream_race.cu SIMULATOR_ONLY)
  simt_robustness_test("A cublasSaxpy on one stream races with a kernel on another writing the same array"
    PROGRAM cublas_stream_race STATUS 0
    EXPECT "simt: data race \\([a-z ]+\\) on global memory 'd_y'\\[0\\][^\n]*\n  [a-z]+ by [^\n]* (in cublasSaxpy called at cublas_stream_race.cu:39|at cublas_stream_race.cu:11 \\(in the kernel launched at cublas_stream_race.cu:31\\))\n  [a-z]+ by [^\n]* (in cublasSaxpy called at cublas_stream_race.cu:39|at cublas_stream_race.cu:11 \\(in the kernel launched at cublas_stream_race.cu:31\\))\n  nothing orders these accesses")
  simt_robustness_test("An event between the kernel and the cublasSaxpy on another stream leaves no race"
    PROGRAM cublas_stream_race ARGS fixed STATUS 0 EXPECT "^y\\[n-1\\] = 1.0\n${simt_clean}")
endif()

# Thrust, where Debian's libthrust-dev (Thrust 1.17) is installed: its device system is simt's
# (sim/cuda_include/thrust/): device_vector in simt's device memory, every algorithm and copy a
# checked kernel, and the host kept off device memory as on a GPU.
find_path(SIMT_THRUST_INCLUDE_DIR thrust/version.h PATHS /usr/include NO_DEFAULT_PATH)
if(SIMT_THRUST_INCLUDE_DIR)
  file(STRINGS "${SIMT_THRUST_INCLUDE_DIR}/thrust/version.h" simt_thrust_version REGEX "^#define THRUST_VERSION [0-9]+")
  string(REGEX REPLACE ".* ([0-9]+)$" "\\1" simt_thrust_version "${simt_thrust_version}")
endif()
if(simt_thrust_version GREATER_EQUAL 101700 AND simt_thrust_version LESS 101800)
  simt_add_executable(thrust_algorithms SOURCES ${CMAKE_CURRENT_LIST_DIR}/thrust_algorithms.cu)
  simt_thrust_under_ubsan(thrust_algorithms)
  add_test(NAME "Thrust's device_vector with transform, reduce, sort, remove, copy_if and scan matches host loops"
           COMMAND thrust_algorithms)
  set_tests_properties("Thrust's device_vector with transform, reduce, sort, remove, copy_if and scan matches host loops"
    PROPERTIES PASS_REGULAR_EXPRESSION "PASS" FAIL_REGULAR_EXPRESSION "${simt_said}|FAILED")
  if(TARGET thrust_algorithms_cuda)
    add_test(NAME "Thrust's algorithms pass the same checks on the GPU" COMMAND thrust_algorithms_cuda)
    set_tests_properties("Thrust's algorithms pass the same checks on the GPU" PROPERTIES
      PASS_REGULAR_EXPRESSION "PASS" SKIP_RETURN_CODE 77)
  endif()
  if(NOT SIMT_SANITIZE)
    simt_add_executable(thrust_past_the_end SOURCES ${CMAKE_CURRENT_LIST_DIR}/thrust_past_the_end.cu SIMULATOR_ONLY)
    simt_robustness_test("A thrust::transform functor reading past a device_vector is out of bounds at its line"
      PROGRAM thrust_past_the_end STATUS 0
      EXPECT "simt: out-of-bounds read of global memory 'thrust_device_memory'\\[512\\], byte offset 2048 \\(2048 bytes, allocated at malloc_and_free.h:[0-9]+\\)[^\n]*\n  read by thread \\(255,0,0\\) block \\(1,0,0\\) at thrust_past_the_end.cu:11")
    simt_add_executable(thrust_host_deref SOURCES ${CMAKE_CURRENT_LIST_DIR}/thrust_host_deref.cu SIMULATOR_ONLY)
    simt_robustness_test("The host reading a device_vector through its raw pointer is stopped at its line, as a GPU would fault"
      PROGRAM thrust_host_deref STATUS 1
      EXPECT "simt: host read of global memory 'thrust_device_memory'[^\n]*\\(64 bytes, allocated at malloc_and_free.h:[0-9]+\\)[^\n]*\n  read by the host at thrust_host_deref.cu:10\n.*simt: 1 finding \\(1 host-access\\)")
  endif()
endif()

# CUB, simt's own (sim/cuda_include/cub/): the warp and block collectives, and the device-wide
# algorithms with their two calls for temporary storage, each against a CPU loop. The GPU build
# uses the toolkit's CUB.
simt_add_executable(cub_block_warp SOURCES ${CMAKE_CURRENT_LIST_DIR}/cub_block_warp.cu)
add_test(NAME "CUB's WarpReduce, WarpScan, BlockReduce, BlockScan, BlockLoad, BlockStore and BlockRadixSort match CPU loops"
         COMMAND cub_block_warp)
set_tests_properties("CUB's WarpReduce, WarpScan, BlockReduce, BlockScan, BlockLoad, BlockStore and BlockRadixSort match CPU loops"
  PROPERTIES PASS_REGULAR_EXPRESSION "PASS" FAIL_REGULAR_EXPRESSION "${simt_said}|FAILED")
if(TARGET cub_block_warp_cuda)
  add_test(NAME "CUB's warp and block collectives pass the same checks on the GPU" COMMAND cub_block_warp_cuda)
  set_tests_properties("CUB's warp and block collectives pass the same checks on the GPU" PROPERTIES
    PASS_REGULAR_EXPRESSION "PASS" SKIP_RETURN_CODE 77)
endif()

simt_add_executable(cub_device SOURCES ${CMAKE_CURRENT_LIST_DIR}/cub_device.cu)
add_test(NAME "CUB's DeviceReduce, DeviceScan, DeviceSelect, DeviceRadixSort and DeviceHistogram match CPU loops, on 0 and 1 items too"
         COMMAND cub_device)
set_tests_properties("CUB's DeviceReduce, DeviceScan, DeviceSelect, DeviceRadixSort and DeviceHistogram match CPU loops, on 0 and 1 items too"
  PROPERTIES PASS_REGULAR_EXPRESSION "PASS" FAIL_REGULAR_EXPRESSION "${simt_said}|FAILED")
if(TARGET cub_device_cuda)
  add_test(NAME "CUB's device-wide algorithms pass the same checks on the GPU" COMMAND cub_device_cuda)
  set_tests_properties("CUB's device-wide algorithms pass the same checks on the GPU" PROPERTIES
    PASS_REGULAR_EXPRESSION "PASS" SKIP_RETURN_CODE 77)
endif()

# CUB, simt's own, beyond the first set: DevicePartition, DeviceRunLengthEncode,
# DeviceSegmentedReduce, ReduceByKey, the scans by key, DeviceSegmentedRadixSort and
# DeviceMergeSort with their two calls for temporary storage, and the block collectives
# BlockExchange, BlockHistogram and BlockDiscontinuity, each against a CPU loop. The GPU build
# uses the toolkit's CUB.
simt_add_executable(cub_more_device SOURCES ${CMAKE_CURRENT_LIST_DIR}/cub_more_device.cu)
add_test(NAME "CUB's DevicePartition, DeviceRunLengthEncode, DeviceSegmentedReduce, ReduceByKey, scans by key, DeviceSegmentedRadixSort and DeviceMergeSort match CPU loops, on 0 and 1 items too"
         COMMAND cub_more_device)
set_tests_properties("CUB's DevicePartition, DeviceRunLengthEncode, DeviceSegmentedReduce, ReduceByKey, scans by key, DeviceSegmentedRadixSort and DeviceMergeSort match CPU loops, on 0 and 1 items too"
  PROPERTIES PASS_REGULAR_EXPRESSION "PASS" FAIL_REGULAR_EXPRESSION "${simt_said}|FAILED")
if(TARGET cub_more_device_cuda)
  add_test(NAME "CUB's partition, run-length, segmented, by-key and merge-sort algorithms pass the same checks on the GPU"
           COMMAND cub_more_device_cuda)
  set_tests_properties("CUB's partition, run-length, segmented, by-key and merge-sort algorithms pass the same checks on the GPU"
    PROPERTIES PASS_REGULAR_EXPRESSION "PASS" SKIP_RETURN_CODE 77)
endif()

simt_add_executable(cub_more_block SOURCES ${CMAKE_CURRENT_LIST_DIR}/cub_more_block.cu)
add_test(NAME "CUB's BlockExchange, BlockHistogram and BlockDiscontinuity match CPU loops"
         COMMAND cub_more_block)
set_tests_properties("CUB's BlockExchange, BlockHistogram and BlockDiscontinuity match CPU loops"
  PROPERTIES PASS_REGULAR_EXPRESSION "PASS" FAIL_REGULAR_EXPRESSION "${simt_said}|FAILED")
if(TARGET cub_more_block_cuda)
  add_test(NAME "CUB's BlockExchange, BlockHistogram and BlockDiscontinuity pass the same checks on the GPU"
           COMMAND cub_more_block_cuda)
  set_tests_properties("CUB's BlockExchange, BlockHistogram and BlockDiscontinuity pass the same checks on the GPU"
    PROPERTIES PASS_REGULAR_EXPRESSION "PASS" SKIP_RETURN_CODE 77)
endif()

# CUB's type rules on mixed types: bools summed into an int64_t count, int8_ts add in int, halves
# reduced by a functor returning float add in float, each algorithm's counts and outputs in the
# types its output iterators hold; each against a CPU loop that computes what CUB does. The GPU
# build uses the toolkit's CUB.
simt_add_executable(cub_types SOURCES ${CMAKE_CURRENT_LIST_DIR}/cub_types.cu)
add_test(NAME "CUB's device-wide algorithms use CUB's types on mixed inputs: Sum counts bools into an int64_t, int8_ts add in int, halves in float, as CPU loops do"
         COMMAND cub_types)
set_tests_properties("CUB's device-wide algorithms use CUB's types on mixed inputs: Sum counts bools into an int64_t, int8_ts add in int, halves in float, as CPU loops do"
  PROPERTIES PASS_REGULAR_EXPRESSION "PASS" FAIL_REGULAR_EXPRESSION "${simt_said}|FAILED")
if(TARGET cub_types_cuda)
  add_test(NAME "CUB's type rules pass the same checks on the GPU" COMMAND cub_types_cuda)
  set_tests_properties("CUB's type rules pass the same checks on the GPU" PROPERTIES
    PASS_REGULAR_EXPRESSION "PASS" SKIP_RETURN_CODE 77)
endif()

# CUB as NVIDIA's samples write it (a caching allocator, CubDebugExit, CUB's private shared
# storage); asked to sum past the end of its array, DeviceReduce::Sum's read is out of bounds,
# named at the program's call and after the allocator's variable.
simt_add_executable(cub_sample_style SOURCES ${CMAKE_CURRENT_LIST_DIR}/cub_sample_style.cu)
add_test(NAME "CUB in NVIDIA's sample style sums blocks and arrays through its caching allocator"
         COMMAND cub_sample_style)
set_tests_properties("CUB in NVIDIA's sample style sums blocks and arrays through its caching allocator"
  PROPERTIES PASS_REGULAR_EXPRESSION "PASS" FAIL_REGULAR_EXPRESSION "${simt_said}|FAILED")
if(TARGET cub_sample_style_cuda)
  add_test(NAME "CUB in NVIDIA's sample style passes on the GPU" COMMAND cub_sample_style_cuda)
  set_tests_properties("CUB in NVIDIA's sample style passes on the GPU" PROPERTIES
    PASS_REGULAR_EXPRESSION "PASS" SKIP_RETURN_CODE 77)
endif()
if(NOT SIMT_SANITIZE)
  simt_robustness_test("cub::DeviceReduce::Sum over more items than the array holds reads out of bounds, named at the program's call"
    PROGRAM cub_sample_style ARGS past_the_end STATUS 0
    EXPECT "simt: out-of-bounds read of global memory 'd_in'\\[3072\\][^\n]*allocated at cub_sample_style.cu:27\\)[^\n]*\n  read by thread \\([0-9]+,0,0\\) block \\([0-9]+,0,0\\) in cub::DeviceReduce::Sum called at cub_sample_style.cu:40\n")
endif()

# CUB's lower-level pieces: cache-modified loads and stores, util_ptx's shuffles, and an
# ArgIndexInputIterator through DeviceReduce::Reduce.
simt_add_executable(cub_utilities SOURCES ${CMAKE_CURRENT_LIST_DIR}/cub_utilities.cu)
add_test(NAME "CUB's ThreadLoad, ThreadStore, shuffles and ArgIndexInputIterator give what the CPU computes"
         COMMAND cub_utilities)
set_tests_properties("CUB's ThreadLoad, ThreadStore, shuffles and ArgIndexInputIterator give what the CPU computes"
  PROPERTIES PASS_REGULAR_EXPRESSION "PASS" FAIL_REGULAR_EXPRESSION "${simt_said}|FAILED")
if(TARGET cub_utilities_cuda)
  add_test(NAME "CUB's lower-level pieces pass the same checks on the GPU" COMMAND cub_utilities_cuda)
  set_tests_properties("CUB's lower-level pieces pass the same checks on the GPU" PROPERTIES
    PASS_REGULAR_EXPRESSION "PASS" SKIP_RETURN_CODE 77)
endif()

# A learner's CUB bugs: two BlockReduce calls on one TempStorage with no __syncthreads between
# them race on its shared memory (and not once the barrier is there); a BlockReduce for 256
# threads launched with 128 is stopped at its line. The race is a raw access's, which
# AddressSanitizer builds do not instrument.
if(NOT SIMT_SANITIZE)
  simt_add_executable(cub_temp_storage_race SOURCES ${CMAKE_CURRENT_LIST_DIR}/cub_temp_storage_race.cu SIMULATOR_ONLY)
  simt_robustness_test("Two BlockReduce Sums on one TempStorage without __syncthreads race on its shared memory, named at both lines"
    PROGRAM cub_temp_storage_race STATUS 0
    EXPECT "simt: data race \\(write after read\\) on shared memory 'temp'\\[[1-3]\\][^\n]*declared at cub_temp_storage_race.cu:15\\)[^\n]*\n  write by thread \\([0-9]+,0,0\\) block \\(0,0,0\\) at cub_temp_storage_race.cu:19\n  read by thread \\(0,0,0\\) block \\(0,0,0\\) at cub_temp_storage_race.cu:17\n")
  simt_robustness_test("With __syncthreads between the two BlockReduce Sums there is no finding"
    PROGRAM cub_temp_storage_race ARGS fixed STATUS 0 EXPECT "^sum = 568, sum of squares = 3560\n${simt_clean}")
  simt_robustness_test("A BlockReduce<int, 256> in a block of 128 threads is stopped at its line, naming both shapes"
    PROGRAM cub_temp_storage_race ARGS small_block STATUS 1
    EXPECT "simt: thread \\(0,0,0\\) of block \\(0,0,0\\) at cub_temp_storage_race.cu:29: cub::BlockReduce is declared for blocks of \\(256,1,1\\) threads, but this block is \\(128,1,1\\)")
endif()
