// Theoretical occupancy by CUDA's rule (occupancy.hpp has it in full).
#include "occupancy.hpp"

#include <algorithm>
#include <mutex>

#include "model.hpp"

namespace simt::sim::detail {

namespace {

long long round_up(long long x, long long unit) {
    return unit > 0 ? (x + unit - 1) / unit * unit : x;
}

int warps_limit(const DeviceProperties& d, int warps, int threads) {
    if (threads > d.max_threads_per_block) return 0;
    return d.max_threads_per_multiprocessor / d.warp_size / warps;
}

int registers_limit(const DeviceProperties& d, int warps, int regs) {
    if (regs > d.max_registers_per_thread) return 0;
    const long long per_warp = round_up(1ll * regs * d.warp_size, d.register_allocation_unit);
    const int parts = std::max(1, d.register_sub_partitions);
    // The hardware checks a block's registers as if its warps were spread over every part.
    if (per_warp * round_up(warps, parts) > d.regs_per_block) return 0;
    const long long warps_per_part = d.regs_per_multiprocessor / parts / per_warp;
    return static_cast<int>(warps_per_part * parts / warps);
}

int shared_limit(const DeviceProperties& d, std::size_t shared) {
    const long long allocated =
        round_up(static_cast<long long>(shared + d.reserved_shared_mem_per_block),
                 d.shared_allocation_unit);
    if (allocated > static_cast<long long>(d.shared_mem_per_block_optin +
                                           d.reserved_shared_mem_per_block))
        return 0;
    if (allocated == 0) return d.max_blocks_per_multiprocessor;  // nothing to limit
    return static_cast<int>(static_cast<long long>(d.shared_mem_per_multiprocessor) / allocated);
}

}  // namespace

Occupancy occupancy(const DeviceProperties& device, int threads_per_block,
                    std::size_t shared_bytes_per_block, int registers_per_thread,
                    long long blocks_in_grid) {
    Occupancy o;
    o.registers_assumed = registers_per_thread <= 0;
    o.registers_per_thread =
        o.registers_assumed ? assumed_registers_per_thread : registers_per_thread;
    if (threads_per_block <= 0 || device.warp_size <= 0) return o;
    const int warps = (threads_per_block + device.warp_size - 1) / device.warp_size;
    o.limit_blocks = device.max_blocks_per_multiprocessor;
    o.limit_warps = warps_limit(device, warps, threads_per_block);
    o.limit_registers = registers_limit(device, warps, o.registers_per_thread);
    o.limit_shared_mem = shared_limit(device, shared_bytes_per_block);
    o.active_blocks =
        std::min({o.limit_blocks, o.limit_warps, o.limit_registers, o.limit_shared_mem});
    o.active_warps = o.active_blocks * warps;
    const int max_warps = device.max_threads_per_multiprocessor / device.warp_size;
    if (max_warps > 0) o.theoretical_pct = 100.0 * o.active_warps / max_warps;
    const long long resident = 1ll * o.active_blocks * device.multi_processor_count;
    if (resident > 0) o.waves_per_multiprocessor = static_cast<double>(blocks_in_grid) / resident;
    return o;
}

std::size_t available_dynamic_shared(const DeviceProperties& device, int threads_per_block,
                                     int blocks, std::size_t static_shared_bytes,
                                     int registers_per_thread) {
    if (blocks <= 0) return 0;
    Occupancy o =
        occupancy(device, threads_per_block, static_shared_bytes, registers_per_thread, 0);
    if (o.active_blocks < blocks) return 0;
    // Each block's share of the multiprocessor, in whole allocation units, less what the block
    // has before its dynamic memory: the reserved bytes and its static arrays.
    const long long unit = std::max(1, device.shared_allocation_unit);
    long long share =
        static_cast<long long>(device.shared_mem_per_multiprocessor) / blocks / unit * unit;
    share = std::min(share, static_cast<long long>(device.shared_mem_per_block_optin +
                                                   device.reserved_shared_mem_per_block));
    share -= static_cast<long long>(device.reserved_shared_mem_per_block + static_shared_bytes);
    return share > 0 ? static_cast<std::size_t>(share) : 0;
}

// The runtime API's occupancy queries (cuda/launch_api.hpp) over the rule above.

long long cuda_available_dynamic_shared(int blocks, int block_size) {
    const DeviceProperties d = device_properties();
    if (blocks <= 0 || block_size <= 0 || occupancy(d, block_size, 0, 0, 0).active_blocks < blocks)
        return -1;
    std::size_t kernel_limit = LaunchLimits::max_shared_bytes;
    kernel_limit = std::max(kernel_limit, dynamic_shared_optin());
    return static_cast<long long>(
        std::min(available_dynamic_shared(d, block_size, blocks, 0, 0), kernel_limit));
}

int cuda_multiprocessors() { return gpu_model().multiprocessors; }

namespace {
std::atomic<std::size_t> shared_optin{0};
}  // namespace

std::size_t dynamic_shared_optin() { return shared_optin.load(std::memory_order_acquire); }

void raise_dynamic_shared_optin(std::size_t bytes) {
    std::size_t now = shared_optin.load(std::memory_order_relaxed);
    while (now < bytes && !shared_optin.compare_exchange_weak(now, bytes)) {
    }
}

}  // namespace simt::sim::detail
