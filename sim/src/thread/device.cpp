// The simulator describes itself as the GPU it models: the limits it enforces, and that GPU's
// published values for everything a program may read from cudaDeviceProp.
#include <algorithm>
#include <thread>

#include "../runtime.hpp"
#include "simt/host/detect.hpp"

namespace simt {

DeviceProperties device_properties() {
    DeviceProperties p;
    // NVIDIA A100-SXM4-80GB, compute capability 8.0 (DESIGN.md, "Warp-level counters").
    p.name = "NVIDIA A100-SXM4-80GB (simt CPU simulator)";
    p.major = 8;
    p.minor = 0;
    p.total_global_mem = std::size_t(80) << 30;
    p.shared_mem_per_block = 48 * 1024;
    p.shared_mem_per_block_optin = 163 * 1024;  // 166912: 164 KiB per SM less 1 KiB reserved
    p.shared_mem_per_multiprocessor = 164 * 1024;
    p.reserved_shared_mem_per_block = 1024;
    p.total_const_mem = 64 * 1024;
    p.regs_per_block = p.regs_per_multiprocessor = 65536;
    p.max_threads_per_multiprocessor = 2048;  // 64 warps
    p.max_blocks_per_multiprocessor = 32;
    p.clock_rate_khz = 1410000;
    p.memory_clock_rate_khz = 1593000;
    p.memory_bus_width = 5120;
    p.l2_cache_size = 40 * 1024 * 1024;
    p.persisting_l2_cache_max_size = 30 * 1024 * 1024;
    p.async_engine_count = 3;
    // The multiprocessors are the cores that run blocks (or SIMT_WORKERS): the cooperative-launch
    // limit and cudaOccupancyMaxActiveBlocksPerMultiprocessor are counted in them
    // (grid/cooperative.hpp), and the two must agree with this count.
    int workers = sim::config().workers;
    p.multi_processor_count =
        workers > 0 ? workers : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    p.simulator = true;
    return p;
}

bool detect() {
    return detail::print_devices("simt", {device_properties()}) > 0;
}

}  // namespace simt
