// The table of GPU models (model.hpp).
#include "model.hpp"

#include <iterator>
#include <string_view>


namespace simt::sim::detail {

namespace {

constexpr std::size_t KiB = 1024, GiB = std::size_t(1) << 30;

// Per compute capability (the programming guide's "Technical Specifications per Compute
// Capability"): threads, blocks and shared memory per SM, the opt-in and reserved bytes per block;
// per card (deviceQuery): SMs, clocks, memory, L2, copy engines. All four have 65536 registers per
// SM and per block, 255 per thread, allocated per warp in units of 256 over 4 sub-partitions.
// Shared memory is allocated in 128-byte units from cc 8.0 and 256-byte units before.
// The persisting-L2 maximum is 3/4 of L2 (cudaDevAttrMaxPersistingL2CacheSize; 0 before cc 8.0).
//
// Speeds, for the time model (docs/profiling.md, "Predicted time"): DRAM bandwidth from each
// card's datasheet (A100 80GB SXM 2,039 GB/s; T4 320 GB/s; RTX 4090 1,008 GB/s; H100 SXM 3,350
// GB/s). Arithmetic per SM and clock from the architecture whitepapers (GA100, TU102/T4, AD102,
// GH100): FP32 lanes (64, 64, 128, 128), FP64 (32, 2, 2, 64), FP16 outside the tensor cores
// (256, 128, 128, 256) and dense FP16 tensor multiply-adds (1024, 512, 256, 2048). L2 bandwidth:
// 5,120 bytes a clock is the GA100 whitepaper's figure for A100; NVIDIA publishes none for the
// others, so T4 takes half of it (TU104's 32 slices of half the width) and RTX 4090 and H100 take
// A100's: these three are estimates until a GPU measures them. Latencies are microbenchmark
// figures (pointer chasing, as in "Dissecting the Ampere GPU architecture through
// microbenchmarking" and Chips and Cheese's measurements), rounded; launch cost is what
// back-to-back cudaEvent timing of an empty kernel shows on these cards, about 3 us. The host
// link is what bandwidthTest reports for pinned memory on each card's PCIe generation, x16
// (A100 and RTX 4090 PCIe 4.0, about 25 GB/s; T4 PCIe 3.0, about 12; H100 SXM PCIe 5.0, about
// 50): estimates until a GPU measures them (docs/gpu-verification.md).
// clang-format off
constexpr GpuModel models[] = {
    // key    name                       cc    SMs  thr/SM blk/SM regs/SM regs/blk r/thr unit parts
    {"A100", "NVIDIA A100-SXM4-80GB", 8, 0, 108, 2048, 32, 65536, 65536, 255, 256, 4,
     // shared/SM  per block  opt-in      reserved unit global
     164 * KiB, 48 * KiB, 163 * KiB, 1 * KiB, 128, 80 * GiB,
     // clock   mem clock  bus   L2              persisting L2   copy engines  PCI id  FP32:FP64
     1410000, 1593000, 5120, 40 * 1024 * 1024, 30 * 1024 * 1024, 3, 0x20B2, 2,
     // DRAM GB/s  L2 B/clk  FP32  FP64  FP16  tensor FP16  DRAM ns  L2 ns  L1 ns  launch us  link GB/s
     {2039,        5120,     64,   32,   256,  1024,        480,     200,   25,    3,         25}},
    {"T4", "Tesla T4", 7, 5, 40, 1024, 16, 65536, 65536, 255, 256, 4,
     64 * KiB, 48 * KiB, 64 * KiB, 0, 256, 15843721216ull,
     1590000, 5001000, 256, 4 * 1024 * 1024, 0, 3, 0x1EB8, 32,
     {320, 2560, 64, 2, 128, 512, 560, 250, 30, 3, 12}},
    {"RTX4090", "NVIDIA GeForce RTX 4090", 8, 9, 128, 1536, 24, 65536, 65536, 255, 256, 4,
     100 * KiB, 48 * KiB, 99 * KiB, 1 * KiB, 128, 24 * GiB,
     2520000, 10501000, 384, 72 * 1024 * 1024, 54 * 1024 * 1024, 2, 0x2684, 64,
     {1008, 5120, 128, 2, 128, 256, 500, 180, 15, 3, 25}},
    {"H100", "NVIDIA H100 80GB HBM3", 9, 0, 132, 2048, 32, 65536, 65536, 255, 256, 4,
     228 * KiB, 48 * KiB, 227 * KiB, 1 * KiB, 128, 80 * GiB,
     1980000, 2619000, 5120, 50 * 1024 * 1024, 75 * 512 * 1024, 3, 0x2330, 2,
     {3350, 5120, 128, 64, 256, 2048, 480, 190, 20, 3, 50}},
};
// clang-format on

/// The table's keys joined as gpu_model_names writes them: "a, b, c or d".
constexpr bool names_match(std::string_view names) {
    constexpr std::size_t n = std::size(models);
    for (std::size_t i = 0; i < n; ++i) {
        std::string_view key = models[i].key;
        if (names.substr(0, key.size()) != key) return false;
        names.remove_prefix(key.size());
        std::string_view sep = i + 2 < n ? ", " : i + 2 == n ? " or " : "";
        if (names.substr(0, sep.size()) != sep) return false;
        names.remove_prefix(sep.size());
    }
    return names.empty();
}
static_assert(names_match(gpu_model_names), "gpu_model_names must list the table's keys in order");

}  // namespace

std::span<const GpuModel> gpu_models() { return models; }

const GpuModel* find_gpu_model(std::string_view key) {
    for (const GpuModel& m : models)
        if (key == m.key) return &m;
    return nullptr;
}

const GpuModel& gpu_model() {
    const GpuModel* m = find_gpu_model(config().device);
    return m ? *m : models[0];  // the settings parser refuses unknown names
}

DeviceProperties properties_of(const GpuModel& m) {
    DeviceProperties p;
    p.name = std::string(m.name) + " (simt CPU simulator)";
    p.major = m.major;
    p.minor = m.minor;
    p.multi_processor_count = m.multiprocessors;
    p.total_global_mem = m.global_memory;
    p.shared_mem_per_block = m.shared_per_block;
    p.shared_mem_per_block_optin = m.shared_per_block_optin;
    p.shared_mem_per_multiprocessor = m.shared_per_multiprocessor;
    p.reserved_shared_mem_per_block = m.reserved_shared_per_block;
    p.total_const_mem = 64 * KiB;
    p.regs_per_block = m.regs_per_block;
    p.regs_per_multiprocessor = m.regs_per_multiprocessor;
    p.max_threads_per_multiprocessor = m.max_threads_per_multiprocessor;
    p.max_blocks_per_multiprocessor = m.max_blocks_per_multiprocessor;
    p.clock_rate_khz = m.clock_khz;
    p.memory_clock_rate_khz = m.memory_clock_khz;
    p.memory_bus_width = m.memory_bus_width;
    p.l2_cache_size = m.l2_bytes;
    p.persisting_l2_cache_max_size = m.persisting_l2_max_bytes;
    p.async_engine_count = m.copy_engines;
    p.max_registers_per_thread = m.max_registers_per_thread;
    p.register_allocation_unit = m.register_allocation_unit;
    p.register_sub_partitions = m.register_sub_partitions;
    p.shared_allocation_unit = m.shared_allocation_unit;
    p.pci_device_id = m.pci_device_id;
    p.simulator = true;
    return p;
}

void check_shared_optin(std::size_t shared_bytes, Loc site) {
    const GpuModel& m = gpu_model();
    if (shared_bytes <= m.shared_per_block_optin) return;
    const std::string name =
        std::string(m.name) + " (simt CPU simulator, SIMT_DEVICE=" + m.key + ")";
    simt::detail::validate_launch(1, 1, 1, 1, 1, 1, shared_bytes, true, site.file_name(),
                                  site.line(), m.shared_per_block_optin, name.c_str());
}

}  // namespace simt::sim::detail
