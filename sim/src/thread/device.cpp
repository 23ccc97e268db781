// The simulator describes itself as a device with the limits it enforces.
#include <cstdio>
#include <thread>

#include "../runtime.hpp"

namespace simt {

DeviceProperties device_properties() {
    DeviceProperties p;
    p.name = "simt CPU simulator";
    p.major = 8;
    p.minor = 0;
    int workers = sim::config().workers;
    p.multi_processor_count =
        workers > 0 ? workers : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    p.total_global_mem = 0;
    p.simulator = true;
    return p;
}

bool detect() {
    DeviceProperties p = device_properties();
    std::printf("Found 1 simt device\n");
    std::printf("id 0  %s  [SUPPORTED]\n", p.name.c_str());
    std::printf("        compute capability: %d.%d (the limits it enforces)\n", p.major, p.minor);
    std::printf("        cores running blocks: %d\n", p.multi_processor_count);
    std::printf("        max threads per block: %d, block dims (%d, %d, %d), grid dims (%lld, %lld, %lld)\n",
                p.max_threads_per_block, p.max_threads_dim[0], p.max_threads_dim[1],
                p.max_threads_dim[2], p.max_grid_size[0], p.max_grid_size[1], p.max_grid_size[2]);
    std::printf("        shared memory per block: %zu bytes (%zu with opt-in), warp size %d\n",
                p.shared_mem_per_block, p.shared_mem_per_block_optin, p.warp_size);
    std::printf("Summary:\n        1/1 devices are supported\n");
    return true;
}

}  // namespace simt
