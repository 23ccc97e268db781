// cooperative_groups::grid_group: every thread of the launch, and grid.sync().
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp> and <cooperative_groups.h>, not the simulator's headers"
#endif
#include "simt/sim/cooperative/thread_group.hpp"

namespace cooperative_groups {

/// Every thread of the grid. `grid.sync()` waits for all of them, in every block; it needs a
/// launch with cudaLaunchCooperativeKernel, which keeps every block resident at once.
/// In the simulator: blocks take turns between grid.sync() calls; every access before one happens
/// before every access after it (racecheck); grid.sync() under <<<>>>, or a block that ends while
/// others wait there, ends the launch with a KernelError.
///
///     cg::grid_group grid = cg::this_grid();   // 2 blocks of 128 threads
///     grid.size();         // 256
///     grid.thread_rank();  // 130 for thread 2 of block 1
class grid_group : public thread_group {
    friend grid_group this_grid();
    grid_group() : thread_group(details::grid_group_id) {}

public:
    /// True when the kernel was launched with cudaLaunchCooperativeKernel.
    bool is_valid() const { return simt::sim::detail::grid_is_cooperative(); }
    void sync(simt::sim::Loc loc = simt::sim::Loc::current()) const {
        simt::sim::detail::sync_grid(loc, "grid_group::sync()");
    }
    static unsigned long long size() { return details::grid_blocks() * details::block_threads(); }
    static unsigned long long num_threads() { return size(); }
    /// block_rank() * threads per block + the thread's rank in its block
    static unsigned long long thread_rank() {
        return details::grid_block_rank() * details::block_threads() + details::block_rank();
    }
    static unsigned long long num_blocks() { return details::grid_blocks(); }
    static unsigned long long block_rank() { return details::grid_block_rank(); }
    static dim3 block_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    static dim3 dim_blocks() { return gridDim; }
    static dim3 group_dim() { return gridDim; }
    static dim3 dim_threads() {
        return dim3(gridDim.x * blockDim.x, gridDim.y * blockDim.y, gridDim.z * blockDim.z);
    }
    static dim3 thread_index() {
        return dim3(blockIdx.x * blockDim.x + threadIdx.x, blockIdx.y * blockDim.y + threadIdx.y,
                    blockIdx.z * blockDim.z + threadIdx.z);
    }
};

/// Every thread of the launch.
inline grid_group this_grid() { return grid_group(); }

}  // namespace cooperative_groups
