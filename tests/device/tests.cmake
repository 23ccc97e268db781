# The simulated GPU model (SIMT_DEVICE): its properties, the occupancy rule and the limits that
# follow from them, on every model of the table (sim/src/device/).
if(Catch2_FOUND)
  simt_add_executable(simt_device_tests
    SOURCES main.cpp device/occupancy_test.cpp device/occupancy_registers_test.cpp device/timing_test.cpp
            device/device_test.cu
    LIBRARIES Catch2::Catch2
    SIMULATOR_ONLY)
  # The toolkit's own occupancy calculator, a header of plain C++, is the reference where found.
  find_path(SIMT_CUDA_OCCUPANCY_DIR cuda_occupancy.h
            HINTS ${CUDAToolkit_INCLUDE_DIRS} $ENV{CUDA_PATH}/include /usr/local/cuda/include)
  if(SIMT_CUDA_OCCUPANCY_DIR AND TARGET simt_device_tests)
    set_property(SOURCE device/occupancy_test.cpp TARGET_DIRECTORY simt_device_tests APPEND PROPERTY
                 INCLUDE_DIRECTORIES ${SIMT_CUDA_OCCUPANCY_DIR})
    set_property(SOURCE device/occupancy_test.cpp TARGET_DIRECTORY simt_device_tests APPEND PROPERTY
                 COMPILE_DEFINITIONS SIMT_HAVE_CUDA_OCCUPANCY_H)
  endif()
  catch_discover_tests(simt_device_tests)
endif()

# A cooperative grid the size the occupancy API gives runs however many threads that is: the
# T4's 40 x 1024 threads are more than a guard page per thread allows (vm.max_map_count).
simt_add_executable(device_full_cooperative_grid SOURCES device/full_cooperative_grid.cu SIMULATOR_ONLY)
simt_robustness_test("A T4's full cooperative grid, 40 blocks of 1024 threads alive at once, runs and every thread sees every other"
  PROGRAM device_full_cooperative_grid ENV SIMT_DEVICE=T4 STATUS 0 SECONDS 60
  EXPECT "^40 SMs x 1 blocks of 1024 threads: 40960 threads, 0 saw a partial count\n${simt_clean}")
simt_robustness_test("An unknown SIMT_DEVICE ends the program naming the models it accepts"
  PROGRAM device_full_cooperative_grid ENV SIMT_DEVICE=V100 STATUS 2
  EXPECT "SIMT_DEVICE=V100: expected A100, T4, RTX4090 or H100")
