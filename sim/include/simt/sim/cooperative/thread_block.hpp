// cooperative_groups::thread_block: the threads of the calling block.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp> and <cooperative_groups.h>, not the simulator's headers"
#endif
#include "simt/sim/cooperative/thread_group.hpp"

namespace cooperative_groups {

/// The calling thread's block. `block.sync()` is `__syncthreads()`.
/// In the simulator: the same barrier, checked the same way (divergence, deadlocks, races).
///
///     cg::thread_block block = cg::this_thread_block();
///     tile[block.thread_rank()] = in[i];  // with a <<<4, dim3(8, 4)>>> launch, ranks 0..31
///     block.sync();
class thread_block : public thread_group {
    friend thread_block this_thread_block();
    thread_block() : thread_group(details::thread_block_id) {}

public:
    static void sync(simt::sim::Loc loc = simt::sim::Loc::current()) {
        simt::sim::detail::sync_block(simt::sim::detail::BarrierOp::sync, 1, loc,
                                      "thread_block::sync()");
    }
    static unsigned size() { return details::block_threads(); }
    static unsigned num_threads() { return details::block_threads(); }
    /// threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)
    static unsigned thread_rank() { return details::block_rank(); }
    static dim3 group_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    static dim3 thread_index() { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
    static dim3 group_dim() { return blockDim; }
    static dim3 dim_threads() { return blockDim; }
};

/// The calling thread's block.
inline thread_block this_thread_block() { return thread_block(); }

/// The shared scratch that CUDA's tiles of more than 32 threads use on GPUs before compute
/// capability 8.0: `__shared__ cg::block_tile_memory<256> scratch;` then
/// `cg::this_thread_block(scratch)`. From 8.0 on (and in the simulator) the hardware's reserved
/// shared memory serves instead, so it holds nothing; `MaxBlockSize` is still checked.
/// In the simulator: tiles of several warps need no scratch either (thread_block_tile.hpp).
template <unsigned MaxBlockSize = 1024>
struct block_tile_memory {
    static_assert(MaxBlockSize >= 1 && MaxBlockSize <= 1024,
                  "block_tile_memory<MaxBlockSize>: a block has at most 1024 threads");
};

/// The calling thread's block, for a block of at most MaxBlockSize threads.
template <unsigned MaxBlockSize>
thread_block this_thread_block(block_tile_memory<MaxBlockSize>& /*scratch*/,
                               simt::sim::Loc loc = simt::sim::Loc::current()) {
    if (details::block_threads() > MaxBlockSize)
        simt::sim::detail::group_misuse(
            "this_thread_block(block_tile_memory<" + std::to_string(MaxBlockSize) + ">): the "
            "block has " + std::to_string(details::block_threads()) + " threads, more than the " +
            std::to_string(MaxBlockSize) + " the scratch was declared for",
            loc);
    return this_thread_block();
}

}  // namespace cooperative_groups
