// Theoretical occupancy: how many blocks of a launch one multiprocessor of the simulated GPU holds
// at once, computed by the rule cudaOccupancyMaxActiveBlocksPerMultiprocessor uses.
//
// Four limits, each in blocks per multiprocessor; the smallest is the occupancy:
//   warps      max_threads_per_multiprocessor / 32 over the block's warps (rounded up)
//   registers  registers per warp = registers per thread x 32 rounded up to the allocation unit
//              (256); each of the 4 sub-partitions holds regs_per_multiprocessor / 4 of them, so
//              the SM holds 4 x floor(that / per warp) warps; a block whose warps, rounded up to
//              4, need more than regs_per_block cannot launch (0)
//   shared     static + dynamic + the reserved bytes per block (1 KiB from cc 8.0), rounded up to
//              the allocation unit (128 bytes from cc 8.0, 256 before), into the shared memory
//              per multiprocessor (the largest carve-out); a block over the opt-in maximum
//              cannot launch (0). ncu divides by the carve-out the driver chose for the launch
//              instead, which can be smaller (an H100 gave 20 where this gives 45 for 4 KiB
//              blocks, 8 to 32 where this gives 228 for blocks without shared memory): the same
//              occupancy, a smaller limit
//   blocks     max_blocks_per_multiprocessor
// A limit that nothing imposes (no shared memory on a GPU that reserves none) is reported as the
// block limit, not as infinity, so that every number can be printed beside ncu's.
//
// The simulator compiles kernels with the host compiler, so it cannot know how many registers
// nvcc would give a kernel: it assumes assumed_registers_per_thread unless told, and says so.
#pragma once
#include <cstddef>

#include "simt/core/device_properties.hpp"

namespace simt::sim::detail {

/// What a kernel is assumed to use when the simulator cannot know (nvcc's count for a simple
/// kernel; at 32, registers never limit a block of up to 1024 threads on any modelled GPU).
inline constexpr int assumed_registers_per_thread = 32;

/// One launch's theoretical occupancy on one multiprocessor.
struct Occupancy {
    int limit_blocks = 0;      ///< launch__occupancy_limit_blocks
    int limit_registers = 0;   ///< launch__occupancy_limit_registers
    int limit_shared_mem = 0;  ///< launch__occupancy_limit_shared_mem
    int limit_warps = 0;       ///< launch__occupancy_limit_warps
    int active_blocks = 0;  ///< the smallest limit: cudaOccupancyMaxActiveBlocksPerMultiprocessor
    int active_warps = 0;      ///< active_blocks x the block's warps
    double theoretical_pct = 0;           ///< sm__maximum_warps_per_active_cycle_pct
    double waves_per_multiprocessor =
        0;  ///< launch__waves_per_multiprocessor: grid / (active x SMs)
    int registers_per_thread = 0;         ///< the count used
    bool registers_assumed = false;       ///< true when it is assumed_registers_per_thread
};

/// The occupancy of blocks of `threads_per_block` threads using `shared_bytes_per_block` of
/// shared memory (static + dynamic, without the reserved bytes) and `registers_per_thread`
/// (0: assumed) on `device`, for a grid of `blocks_in_grid` blocks (for the waves; 0 gives 0).
/// A block that cannot launch at all gives active_blocks 0, and waves 0.
/// Cost: a few integer divisions.
///
///   occupancy(a100, 256, 0, 32, 216)    -> active_blocks 8, theoretical_pct 100, waves 0.25
///   occupancy(a100, 256, 49152, 0, 1)   -> limit_shared_mem 3 (49 KiB of 164), active_blocks 3
Occupancy occupancy(const DeviceProperties& device, int threads_per_block,
                    std::size_t shared_bytes_per_block, int registers_per_thread,
                    long long blocks_in_grid);

/// The dynamic shared memory a block may have so that `blocks` of `threads_per_block` threads fit
/// on one multiprocessor (cudaOccupancyAvailableDynamicSMemPerBlock); 0 when they never fit.
std::size_t available_dynamic_shared(const DeviceProperties& device, int threads_per_block,
                                     int blocks, std::size_t static_shared_bytes,
                                     int registers_per_thread);

/// The largest cudaFuncAttributeMaxDynamicSharedMemorySize set for any kernel (api/device.cpp's
/// cudaFuncSetAttribute): the simulator cannot tell which kernel a <<<>>> launch names, so it
/// keeps one opt-in for all.
std::size_t dynamic_shared_optin();
/// Raises it to `bytes` (never lowers it).
void raise_dynamic_shared_optin(std::size_t bytes);

}  // namespace simt::sim::detail
