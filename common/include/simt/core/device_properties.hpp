// The description of a device, as simt::device_properties() returns it in both backends.
#pragma once
#include <cstddef>
#include <string>

namespace simt {

/// The properties of one device (a subset of cudaDeviceProp with the same meanings).
struct DeviceProperties {
    std::string name;
    int major = 0, minor = 0;           ///< compute capability
    int multi_processor_count = 0;      ///< SMs (the simulator's: its GPU model's, not host cores)
    int max_threads_per_block = 1024;
    int max_threads_dim[3] = {1024, 1024, 64};
    long long max_grid_size[3] = {2147483647, 65535, 65535};
    std::size_t shared_mem_per_block = 48 * 1024;
    std::size_t shared_mem_per_block_optin = 227 * 1024;
    int warp_size = 32;
    std::size_t total_global_mem = 0;
    bool simulator = false;             ///< true for simt's CPU simulator
    // What the simulator's GPU model adds for cudaDeviceProp and cudaDeviceGetAttribute (the
    // published values of that GPU); 0 where a backend does not say.
    std::size_t shared_mem_per_multiprocessor = 0;
    std::size_t reserved_shared_mem_per_block = 0;
    std::size_t total_const_mem = 0;
    int regs_per_block = 0, regs_per_multiprocessor = 0;
    int max_threads_per_multiprocessor = 0, max_blocks_per_multiprocessor = 0;
    int clock_rate_khz = 0, memory_clock_rate_khz = 0, memory_bus_width = 0;
    int l2_cache_size = 0, persisting_l2_cache_max_size = 0, async_engine_count = 0;
    // How a multiprocessor hands out registers and shared memory, for the occupancy rule
    // (sim/src/device/occupancy.hpp); 0 where a backend does not say.
    int max_registers_per_thread = 0;
    int register_allocation_unit = 0;     ///< a warp's registers are rounded up to this
    int register_sub_partitions = 0;      ///< the register file's parts, each holding whole warps
    int shared_allocation_unit = 0;       ///< a block's shared bytes are rounded up to this
    unsigned pci_device_id = 0;           ///< the GPU's PCI device id (vendor 0x10DE)
};

}  // namespace simt
