// The GPU's time between two events on a GPU build: the card's own measurement, with the same
// names as the simulator's (sim/include/simt/sim/api/gpu_time.hpp), so that a lesson prints one
// column that means the GPU's time on both.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the CUDA backend's headers"
#endif
#include <cmath>
#include <string>

#include <cuda_runtime.h>

namespace simt {

/// cudaEventElapsedTime itself: the card measured it.
inline cudaError_t gpu_elapsed_time(float* ms, cudaEvent_t start, cudaEvent_t end) {
    return cudaEventElapsedTime(ms, start, end);
}

/// "NVIDIA H100 80GB HBM3, measured": the current device's name.
inline std::string gpu_time_label() {
    int device = 0;
    cudaDeviceProp p{};
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaGetDeviceProperties(&p, device) != cudaSuccess)
        return "GPU, measured";
    return std::string(p.name) + ", measured";
}

/// No simulator ran: NaN, so that a program prints the simulator's column only where it has one.
inline cudaError_t simulator_elapsed_time(float* ms, cudaEvent_t, cudaEvent_t) {
    if (ms) *ms = std::nanf("");
    return cudaSuccess;
}

}  // namespace simt
