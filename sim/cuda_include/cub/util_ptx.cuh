// <cub/util_ptx.cuh> in a simulator build: the thread and warp queries CUB's PTX wrappers give,
// over simt's thread state (CUB's own are inline PTX, which a host compiler cannot assemble).
#pragma once
#include <cub/detail/simt_collective.cuh>

namespace cub {

/// The calling thread's lane in its warp.
__forceinline__ unsigned LaneId() {
    return (threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y) % 32;
}
/// The calling thread's warp in its block.
__forceinline__ unsigned WarpId() {
    return (threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y) / 32;
}
__forceinline__ unsigned LaneMaskLt() { return (1u << LaneId()) - 1; }
__forceinline__ unsigned LaneMaskLe() {
    return LaneId() == 31 ? 0xffffffffu : (2u << LaneId()) - 1;
}
__forceinline__ unsigned LaneMaskGt() { return ~LaneMaskLe(); }
__forceinline__ unsigned LaneMaskGe() { return ~LaneMaskLt(); }
__forceinline__ void CTA_SYNC(detail::Loc loc = detail::Loc::current()) { __syncthreads(loc); }
__forceinline__ void WARP_SYNC(unsigned member_mask, detail::Loc loc = detail::Loc::current()) {
    __syncwarp(member_mask, loc);
}

/// `input` of the lane `src_offset` below this one in its logical warp of LOGICAL_WARP_THREADS
/// lanes; a lane with none at or above `first_thread` keeps its own.
template <int LOGICAL_WARP_THREADS, typename T>
__forceinline__ T ShuffleUp(T input, int src_offset, int first_thread, unsigned member_mask,
                            detail::Loc loc = detail::Loc::current()) {
    const int lane = static_cast<int>(LaneId()) % LOGICAL_WARP_THREADS;
    const int src = lane - src_offset >= first_thread ? lane - src_offset : lane;
    return detail::shuffle(member_mask, input, src, LOGICAL_WARP_THREADS, loc);
}
/// `input` of the lane `src_offset` above this one; a lane with none up to `last_thread` keeps
/// its own.
template <int LOGICAL_WARP_THREADS, typename T>
__forceinline__ T ShuffleDown(T input, int src_offset, int last_thread, unsigned member_mask,
                              detail::Loc loc = detail::Loc::current()) {
    const int lane = static_cast<int>(LaneId()) % LOGICAL_WARP_THREADS;
    const int src = lane + src_offset <= last_thread ? lane + src_offset : lane;
    return detail::shuffle(member_mask, input, src, LOGICAL_WARP_THREADS, loc);
}
/// `input` of lane `src_lane` of this logical warp.
template <int LOGICAL_WARP_THREADS, typename T>
__forceinline__ T ShuffleIndex(T input, int src_lane, unsigned member_mask,
                               detail::Loc loc = detail::Loc::current()) {
    return detail::shuffle(member_mask, input, src_lane, LOGICAL_WARP_THREADS, loc);
}

/// A thread's rank in a block of the given shape, x fastest.
__forceinline__ int RowMajorTid(int block_dim_x, int block_dim_y, int block_dim_z) {
    return static_cast<int>((block_dim_z == 1 ? 0 : threadIdx.z * block_dim_x * block_dim_y) +
                            (block_dim_y == 1 ? 0 : threadIdx.y * block_dim_x) + threadIdx.x);
}

}  // namespace cub
