// cooperative_groups::thread_group, the group any group converts to, and what every group uses.
//
// Ground rules of simt's <cooperative_groups.h> (simulator builds; nvcc uses the toolkit's):
//  - Groups are built on the simulator's own barriers: a thread_block syncs with the block
//    barrier, a tile or coalesced group with a warp meeting over its lanes (__syncwarp(mask)),
//    the grid with the grid barrier of a cooperative launch. So synccheck, deadlock detection and
//    racecheck's happens-before see groups exactly as they see __syncthreads and __syncwarp, and
//    a group op that part of its group never reaches ends the launch with a KernelError.
//  - Collectives (shuffles, votes, matches, reduce, scans) are warp meetings over the group's
//    mask; reports name them by their group's method ("thread_block_tile::shfl_down()").
//  - Every operation takes the caller's source location as a defaulted last parameter, as the
//    warp intrinsics do, so reports name the user's line.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp> and <cooperative_groups.h>, not the simulator's headers"
#endif
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "simt/sim/block/sync.hpp"
#include "simt/sim/launch/grid_sync.hpp"
#include "simt/sim/location.hpp"
#include "simt/sim/memory/ref.hpp"
#include "simt/sim/vector_types.hpp"
#include "simt/sim/warp/intrinsics.hpp"

namespace simt::sim::detail {
/// Ends the calling thread's block with a KernelError: `message`, the thread, its block and `loc`.
[[noreturn]] void group_misuse(const std::string& message, Loc loc);
}  // namespace simt::sim::detail

namespace cooperative_groups {

class thread_group;

namespace details {

using simt::sim::Loc;
using simt::sim::detail::WarpOp;

// The values CUDA's get_type() returns.
inline constexpr unsigned coalesced_group_id = 1, grid_group_id = 2, thread_block_id = 3;

inline unsigned block_threads() { return blockDim.x * blockDim.y * blockDim.z; }
inline unsigned block_rank() {
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
inline unsigned long long grid_blocks() {
    return static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z;
}
inline unsigned long long grid_block_rank() {
    return blockIdx.x +
           static_cast<unsigned long long>(gridDim.x) * (blockIdx.y + gridDim.y * blockIdx.z);
}
/// The caller's lane: threads are numbered x first, 32 to a warp, as on a GPU.
inline unsigned lane() { return block_rank() % 32; }
inline unsigned lanes_below(unsigned l) { return (1u << l) - 1; }
/// The caller's rank among the lanes of `mask`.
inline unsigned rank_in(unsigned mask) {
    return static_cast<unsigned>(std::popcount(mask & lanes_below(lane())));
}
/// The lane of `mask` whose rank is `rank` (32 when there is none).
inline unsigned lane_of_rank(unsigned mask, unsigned rank) {
    for (; mask; mask &= mask - 1)
        if (rank-- == 0) return static_cast<unsigned>(std::countr_zero(mask));
    return 32;
}
/// Bit i set iff the lane of `mask` with rank i is set in `lanes`: lanes renumbered by rank.
inline unsigned pack_by_rank(unsigned mask, unsigned lanes) {
    unsigned packed = 0, rank = 0;
    for (; mask; mask &= mask - 1, ++rank)
        if (lanes >> std::countr_zero(mask) & 1) packed |= 1u << rank;
    return packed;
}

/// The value type of `T`: an element of a simt view (`span[i]` is a ref<U>) is a U.
template <class T>
struct value_of {
    using type = T;
};
template <class U>
struct value_of<simt::sim::detail::ref<U>> {
    using type = U;
};
template <class T>
using value_t = typename value_of<std::remove_cvref_t<T>>::type;

/// One warp meeting of the lanes of `mask` passing a value of any trivially copyable type (8
/// bytes at a time, as a GPU's shuffles move 4 at a time).
template <class T>
T meet(WarpOp op, unsigned mask, const T& value, int arg, int width, Loc loc, const char* what) {
    static_assert(
        std::is_trivially_copyable_v<T>,
        "cooperative groups move values between threads as bytes: T must be trivially copyable");
    T out = value;
    unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    for (std::size_t at = 0; at < sizeof(T); at += 8) {
        std::size_t n = sizeof(T) - at < 8 ? sizeof(T) - at : 8;
        std::uint64_t chunk = 0;
        std::memcpy(&chunk, bytes + at, n);
        chunk = simt::sim::detail::warp_meet(op, mask, chunk, arg, width, loc, what);
        std::memcpy(bytes + at, &chunk, n);
    }
    std::memcpy(static_cast<void*>(&out), bytes, sizeof(T));
    return out;
}

inline unsigned vote(WarpOp op, unsigned mask, int predicate, Loc loc, const char* what) {
    return static_cast<unsigned>(
        simt::sim::detail::warp_meet(op, mask, predicate != 0, 0, 32, loc, what));
}

inline void warp_sync(unsigned mask, Loc loc, const char* what) {
    simt::sim::detail::warp_meet(WarpOp::sync, mask, 0, 0, 32, loc, what);
}

/// A tile's or coalesced group's lanes, for the collectives written outside the group (reduce).
struct access {
    static unsigned mask(const thread_group& g);
};

}  // namespace details

/// Any group: a block, the grid, a tile or a coalesced group, known only at run time.
/// In the simulator: sync() is the group's own barrier (see the ground rules above).
class thread_group {
public:
    unsigned long long size() const {
        switch (type_) {
            case details::grid_group_id:
                return details::grid_blocks() * details::block_threads();
            case details::thread_block_id:
                return details::block_threads();
            default:
                return static_cast<unsigned>(std::popcount(mask_));
        }
    }
    unsigned long long num_threads() const { return size(); }
    unsigned long long thread_rank() const {
        switch (type_) {
            case details::grid_group_id:
                return details::grid_block_rank() * details::block_threads() +
                       details::block_rank();
            case details::thread_block_id:
                return details::block_rank();
            default:
                return details::rank_in(mask_);
        }
    }
    void sync(simt::sim::Loc loc = simt::sim::Loc::current()) const {
        switch (type_) {
            case details::grid_group_id:
                simt::sim::detail::sync_grid(loc, "thread_group::sync()");
                break;
            case details::thread_block_id:
                simt::sim::detail::sync_block(simt::sim::detail::BarrierOp::sync, 1, loc,
                                              "thread_group::sync()");
                break;
            default:
                details::warp_sync(mask_, loc, "thread_group::sync()");
        }
    }
    unsigned get_type() const { return type_; }

protected:
    explicit thread_group(unsigned type, unsigned mask = 0, unsigned meta_rank = 0,
                          unsigned meta_size = 1)
        : type_(type), mask_(mask), meta_rank_(meta_rank), meta_size_(meta_size) {}

    unsigned type_;
    unsigned mask_;  ///< a tile's or coalesced group's lanes in the caller's warp
    unsigned meta_rank_, meta_size_;

    friend thread_group tiled_partition(const thread_group& parent, unsigned tilesz,
                                        simt::sim::Loc loc);
    friend class coalesced_group;
    friend struct details::access;
};

inline unsigned details::access::mask(const thread_group& g) { return g.mask_; }

/// g.sync(): waits for every thread of the group.
template <class Group>
void sync(const Group& g, simt::sim::Loc loc = simt::sim::Loc::current()) {
    g.sync(loc);
}
/// g.thread_rank().
template <class Group>
auto thread_rank(const Group& g) -> decltype(g.thread_rank()) {
    return g.thread_rank();
}
/// g.num_threads().
template <class Group>
auto group_size(const Group& g) -> decltype(g.num_threads()) {
    return g.num_threads();
}

}  // namespace cooperative_groups
