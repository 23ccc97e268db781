// simt::detect() and simt::device_properties() for real GPUs.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the CUDA backend's headers"
#endif
#include <cstdio>
#include <vector>

#include "simt/core/device_properties.hpp"
#include "simt/host/detect.hpp"
#include "simt/cuda/runtime.hpp"

namespace simt {

namespace cuda::detail {
inline DeviceProperties properties_of(int device) {
    cudaDeviceProp c{};
    check(cudaGetDeviceProperties(&c, device), "cudaGetDeviceProperties");
    DeviceProperties p;
    p.name = c.name;
    p.major = c.major;
    p.minor = c.minor;
    p.multi_processor_count = c.multiProcessorCount;
    p.max_threads_per_block = c.maxThreadsPerBlock;
    for (int d = 0; d < 3; ++d) {
        p.max_threads_dim[d] = c.maxThreadsDim[d];
        p.max_grid_size[d] = c.maxGridSize[d];
    }
    p.shared_mem_per_block = c.sharedMemPerBlock;
    p.shared_mem_per_block_optin = c.sharedMemPerBlockOptin;
    p.warp_size = c.warpSize;
    p.total_global_mem = c.totalGlobalMem;
    p.simulator = false;
    return p;
}
}  // namespace cuda::detail

/// Prints the GPUs found, like numba.cuda.detect(); returns true if there is at least one
/// simt supports. Unlike the rest of the API it does not exit when there is none: it says so
/// and returns false.
inline bool detect() {
    cudaError_t why = cudaSuccess;
    int n = cuda::detail::device_count(&why);
    if (n == 0) {
        std::printf("No CUDA devices found (%s)\n",
                    why == cudaSuccess ? "the runtime lists 0 devices" : cudaGetErrorString(why));
        return false;
    }
    std::vector<DeviceProperties> devices;
    for (int id = 0; id < n; ++id) devices.push_back(cuda::detail::properties_of(id));
    return detail::print_devices("CUDA", devices) > 0;
}

/// The properties of the device kernels run on (the current CUDA device).
inline DeviceProperties device_properties() {
    cuda::detail::require_device();
    int device = 0;
    cuda::detail::check(cudaGetDevice(&device), "cudaGetDevice");
    return cuda::detail::properties_of(device);
}

}  // namespace simt
