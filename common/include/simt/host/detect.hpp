// simt::detect()'s listing of devices, printed the same way by both backends.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not simt's private headers"
#endif
#include <cstdio>
#include <vector>

#include "simt/core/device_properties.hpp"

namespace simt::detail {

/// Prints `devices` as numba.cuda.detect() does; returns how many simt supports (the simulator,
/// and GPUs of compute capability 8.0 and up, which simt's CUDA build targets).
inline int print_devices(const char* kind, const std::vector<DeviceProperties>& devices) {
    std::size_t n = devices.size();
    std::printf("Found %zu %s device%s\n", n, kind, n > 1 ? "s" : "");
    int supported = 0, id = 0;
    for (const DeviceProperties& p : devices) {
        bool ok = p.simulator || p.major >= 8;
        supported += ok;
        std::printf(
            "id %d  %s  [%s]\n", id++, p.name.c_str(),
            ok ? "SUPPORTED" : "NOT SUPPORTED: simt builds for compute capability 8.0 and up");
        std::printf("        compute capability: %d.%d%s\n", p.major, p.minor,
                    p.simulator ? " (the limits it enforces; SIMT_DEVICE picks another GPU)" : "");
        std::printf("        multiprocessors: %d, global memory: %zu MiB\n",
                    p.multi_processor_count, p.total_global_mem >> 20);
        std::printf(
            "        max threads per block: %d, block dims (%d, %d, %d), grid dims (%lld, %lld, "
            "%lld)\n",
            p.max_threads_per_block, p.max_threads_dim[0], p.max_threads_dim[1],
            p.max_threads_dim[2], p.max_grid_size[0], p.max_grid_size[1], p.max_grid_size[2]);
        std::printf("        shared memory per block: %zu bytes (%zu with opt-in), warp size %d\n",
                    p.shared_mem_per_block, p.shared_mem_per_block_optin, p.warp_size);
    }
    std::printf("Summary:\n        %d/%zu devices are supported\n", supported, n);
    return supported;
}

}  // namespace simt::detail
