# The front end (sim/frontend) on whole programs: declarations and launches as nvcc reads them.

# `__shared__ int a[32], b[32];`: each name is per-block checked storage, reported by its name.
# The read is a raw one: AddressSanitizer builds do not instrument it, and UBSan's bounds check
# stops the program at it first.
if(NOT SIMT_SANITIZE)
  simt_add_executable(frontend_shared_past_second_name SOURCES frontend/shared_past_second_name.cu
                      SIMULATOR_ONLY)
  simt_robustness_test("A read past the second array of a two-name __shared__ declaration is out of bounds of that array at its line"
    PROGRAM frontend_shared_past_second_name STATUS 0
    EXPECT "simt: out-of-bounds read of shared memory 'rotated'\\[32\\] \\(int, 32 elements, declared at shared_past_second_name.cu:6\\)[^\n]*\n  read by thread \\(31,0,0\\) block \\(0,0,0\\) at shared_past_second_name.cu:12\n")
endif()

simt_add_executable(frontend_declarations SOURCES frontend/declarations.cu)
simt_robustness_test("Several names in one __shared__ or __device__ declaration and comments in a launch run as nvcc runs them"
  PROGRAM frontend_declarations STATUS 0 EXPECT "^256 values, 0 wrong; 1 launch, 128 threads\n${simt_clean}")

simt_add_executable(frontend_static_counters
                    SOURCES frontend/static_counter_main.cu frontend/static_counter_other.cu)
simt_robustness_test("Two files each with a commented static __device__ counter link and count apart"
  PROGRAM frontend_static_counters STATUS 0 EXPECT "^here 64, there 16\n${simt_clean}")

simt_add_executable(frontend_extern_total
                    SOURCES frontend/extern_total_main.cu frontend/extern_total_other.cu)
if(TARGET frontend_extern_total_cuda)
  # A device variable used from another file needs relocatable device code under nvcc.
  set_target_properties(frontend_extern_total_cuda PROPERTIES CUDA_SEPARABLE_COMPILATION ON)
endif()
simt_robustness_test("An extern __device__ variable names the one another file defines"
  PROGRAM frontend_extern_total STATUS 0 EXPECT "^total 40\n${simt_clean}")
