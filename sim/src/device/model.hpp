// The GPUs the simulator can be: one table of published values, and the one SIMT_DEVICE picks.
//
// Every property a program can read (cudaGetDeviceProperties, cudaDeviceGetAttribute,
// simt::device_properties) and every limit and occupancy the simulator computes comes from the
// chosen row, never from the host: the cores that run blocks (SIMT_WORKERS) change nothing a
// program or a report can see. docs/device.md prints the table.
#pragma once
#include <cstddef>
#include <span>
#include <string_view>

#include "simt/core/device_properties.hpp"

namespace simt::sim::detail {

/// One GPU as NVIDIA publishes it (the CUDA programming guide's table for its compute
/// capability, and deviceQuery on the card).
struct GpuModel {
    const char* key;   ///< what SIMT_DEVICE names it
    const char* name;  ///< cudaDeviceProp::name on the card
    int major, minor;
    int multiprocessors;
    int max_threads_per_multiprocessor, max_blocks_per_multiprocessor;
    int regs_per_multiprocessor, regs_per_block, max_registers_per_thread;
    int register_allocation_unit, register_sub_partitions;
    std::size_t shared_per_multiprocessor, shared_per_block, shared_per_block_optin;
    std::size_t reserved_shared_per_block;
    int shared_allocation_unit;
    std::size_t global_memory;
    int clock_khz, memory_clock_khz, memory_bus_width;
    int l2_bytes, persisting_l2_max_bytes, copy_engines;
    unsigned pci_device_id;
    int fp64_ratio;  ///< single- to double-precision throughput (the guide's arithmetic table)
    /// What the time model (device/timing.hpp) needs beyond the properties; model.cpp names the
    /// source of each value.
    struct Speeds {
        double dram_gb_per_s;       ///< peak DRAM bandwidth, 10^9 bytes a second (datasheet)
        int l2_bytes_per_clock;     ///< L2 to SMs, bytes a clock, all slices together
        int fp32_per_clock;         ///< FP32 results a clock per SM (FMA counted once)
        int fp64_per_clock;         ///< FP64 results a clock per SM
        int fp16_per_clock;         ///< FP16 results a clock per SM, outside the tensor cores
        int tensor_fp16_per_clock;  ///< dense FP16 multiply-adds a clock per SM, tensor cores
        double dram_latency_ns;     ///< a load that misses L2, as microbenchmarks measure it
        double l2_latency_ns;       ///< a load that hits L2
        double l1_latency_ns;       ///< a load that hits L1
        double launch_us;           ///< one launch's fixed cost, as cudaEvent timing sees it
        double host_link_gb_per_s;  ///< a copy between the device and pinned host memory
    } speeds;
};

/// The keys of the models, as SIMT_DEVICE's help and its refusal name them; model.cpp checks at
/// compile time that they are the table's, in its order.
inline constexpr const char* gpu_model_names = "A100, T4, RTX4090 or H100";

/// Every model, the default (A100) first.
std::span<const GpuModel> gpu_models();
/// The model SIMT_DEVICE calls `key`, or nullptr.
const GpuModel* find_gpu_model(std::string_view key);
/// The model in force (config().device).
const GpuModel& gpu_model();
/// The model as DeviceProperties.
DeviceProperties properties_of(const GpuModel& m);

}  // namespace simt::sim::detail
