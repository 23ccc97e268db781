# Plain-CUDA programs of tests/cuda through the routes a learner builds by without CMake:
# simt-nvcc and ./lab run (tests/cuda/route.cmake builds and runs one).
# simt_cuda_route(<what it shows> SOURCE <file.cu> [ARGS a b] EXPECT <regex> [CLEAN])
function(simt_cuda_route what)
  cmake_parse_arguments(R "CLEAN" "SOURCE;EXPECT" "ARGS" ${ARGN})
  get_filename_component(name "${R_SOURCE}" NAME_WE)
  string(MAKE_C_IDENTIFIER "${name}_${R_ARGS}" dir)
  set(common -DSOURCE=${CMAKE_CURRENT_SOURCE_DIR}/${R_SOURCE} "-DARGS=${R_ARGS}"
             "-DEXPECT=${R_EXPECT}" -DCLEAN=${R_CLEAN})
  add_test(NAME "simt-nvcc: ${what}"
    COMMAND ${CMAKE_COMMAND} -DMODE=nvcc -DSIMT_NVCC=${PROJECT_BINARY_DIR}/bin/simt-nvcc ${common}
            -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/route-nvcc-${dir}
            -P ${CMAKE_CURRENT_SOURCE_DIR}/cuda/route.cmake)
  if(PROJECT_BINARY_DIR STREQUAL "${PROJECT_SOURCE_DIR}/build")
    add_test(NAME "./lab run: ${what}"
      COMMAND ${CMAKE_COMMAND} -DMODE=lab -DLAB=${PROJECT_SOURCE_DIR}/lab ${common}
              -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/route-lab-${dir}
              -P ${CMAKE_CURRENT_SOURCE_DIR}/cuda/route.cmake)
    # ./lab run builds in build/, as the header tests do: one at a time.
    set_tests_properties("./lab run: ${what}" PROPERTIES RESOURCE_LOCK simt_build_tree)
  endif()
endfunction()

# simt-nvcc links programs without the sanitizers a SIMT_SANITIZE library was built with.
if(TARGET simt_sim AND NOT SIMT_SANITIZE)
  simt_cuda_route("tiles of 64 and 128 threads reduce, scan, vote and sync as on a GPU, checked clean"
    SOURCE cuda/cg_multi_warp.cu EXPECT "PASS" CLEAN)
  simt_cuda_route("a tile of four warps read across without its sync() is a data race at the read"
    SOURCE cuda/broken/tile_multi_warp.cu ARGS nosync
    EXPECT "simt: data race \\(write after read\\) on shared memory 'vals'\\[64\\][^\n]*\n  write by thread \\(64,0,0\\) block \\(0,0,0\\) at tile_multi_warp.cu:19\n  read by thread \\(0,0,0\\) block \\(0,0,0\\) at tile_multi_warp.cu:21")
  simt_cuda_route("a write past a pitched row's width is out of bounds, in the row's padding"
    SOURCE cuda/broken/pitch_padding.cu
    EXPECT "simt: out-of-bounds write of global memory 'd_img'\\[100\\][^\n]*\n  write by thread \\(100,0,0\\) block \\(0,0,0\\) at pitch_padding.cu:11\n  done in the padding of row 0")
  simt_cuda_route("the host reading managed memory before waiting for the kernel is a data race"
    SOURCE cuda/broken/managed_no_sync.cu
    EXPECT "simt: data race \\(host read of managed memory a kernel may still use\\)[^\n]*\n  read by the host at managed_no_sync.cu:16\n  the kernel launched at managed_no_sync.cu:15")
  simt_cuda_route("wmma fragments load, multiply-accumulate and store a half GEMM as a GPU's tensor cores would"
    SOURCE cuda/wmma_gemm.cu EXPECT "PASS" CLEAN)
  simt_cuda_route("pitched and 3-D memory copies and kernels agree with the CPU"
    SOURCE cuda/memory_3d.cu EXPECT "PASS" CLEAN)
  simt_cuda_route("__nv_bfloat16 converts, rounds and computes as CUDA defines it"
    SOURCE cuda/bf16.cu EXPECT "PASS" CLEAN)
  simt_cuda_route("cuBLAS's batched, strided-batched, LU, inverse, trsm, syrk and geam agree with the CPU and return NVIDIA's statuses"
    SOURCE libraries/cublas_batched.cu EXPECT "PASS" CLEAN)
  simt_cuda_route("CUB's device-wide reduce, scan, select, radix sort and histogram agree with the CPU"
    SOURCE libraries/cub_device.cu EXPECT "PASS" CLEAN)
  simt_cuda_route("two BlockReduce Sums on one TempStorage without __syncthreads are a data race at both lines"
    SOURCE libraries/cub_temp_storage_race.cu
    EXPECT "simt: data race \\(write after read\\) on shared memory 'temp'[^\n]*\n  write by thread \\([0-9]+,0,0\\) block \\(0,0,0\\) at cub_temp_storage_race.cu:19\n  read by thread \\(0,0,0\\) block \\(0,0,0\\) at cub_temp_storage_race.cu:17")
endif()
