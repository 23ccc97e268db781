// cooperative_groups::thread_block_tile<N>: N consecutive threads of a block (N a power of two
// up to 32), with the warp's collectives; tiled_partition makes them.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp> and <cooperative_groups.h>, not the simulator's headers"
#endif
#include "simt/sim/cooperative/lane_group.hpp"
#include "simt/sim/cooperative/thread_block.hpp"

namespace cooperative_groups {

/// Threads of a block with ranks k*Size .. k*Size+Size-1, which lie in one warp. Its sync() is
/// __syncwarp over its lanes; shfl*(), any/all/ballot and match_* work within the tile, ranks
/// counting from 0 in each tile.
/// In the simulator: each collective is a meeting of the tile's lanes; a lane that never comes
/// is a deadlock reported with the lanes still missing, and tile.sync() orders the tile's
/// accesses for racecheck as __syncwarp(mask) does.
///
///     auto tile = cg::tiled_partition<8>(cg::this_thread_block());  // a block of 32 threads
///     tile.thread_rank();           // 0..7 in each of the 4 tiles
///     tile.meta_group_rank();       // 0..3: which tile
///     tile.shfl_down(v, 1);         // v of the next rank in the tile; rank 7 keeps its own
///     tile.ballot(threadIdx.x % 2); // 0xaa in every tile
template <unsigned Size, class ParentT = void>
class thread_block_tile : public details::lane_group<details::tile_names> {
    static_assert(Size >= 1 && Size <= 32 && (Size & (Size - 1)) == 0,
                  "thread_block_tile<Size>: Size must be 1, 2, 4, 8, 16 or 32 in simt (tiles of "
                  "several warps are not provided)");
    using names = details::tile_names;
    static constexpr unsigned full = Size == 32 ? ~0u : (1u << Size) - 1;
    static unsigned base() { return details::lane() & ~(Size - 1); }

public:
    /// The tile of `parent` (a thread_block or a larger tile) that holds the calling thread.
    template <class P>
    requires std::is_same_v<P, ParentT>
    explicit thread_block_tile(const P& parent)
        : lane_group(details::coalesced_group_id, full << base(),
                     static_cast<unsigned>(parent.thread_rank() / Size),
                     static_cast<unsigned>((parent.size() + Size - 1) / Size)) {}
    /// The same tile without its parent's type: `thread_block_tile<32> t = tiled_partition<32>(b)`.
    template <class OtherParent>
    thread_block_tile(const thread_block_tile<Size, OtherParent>& other) : lane_group(other) {}

    static constexpr unsigned size() { return Size; }
    static constexpr unsigned num_threads() { return Size; }
    static unsigned thread_rank() { return details::block_rank() & (Size - 1); }

    /// The value of `var` held by rank `src_rank` of the tile.
    template <class T>
    details::value_t<T> shfl(const T& var, int src_rank,
                             details::Loc loc = details::Loc::current()) const {
        return shuffle(details::WarpOp::shfl, var, src_rank, Size, loc, names::shfl);
    }
    /// The value of `var` held by rank + delta; the top ranks keep their own.
    template <class T>
    details::value_t<T> shfl_down(const T& var, unsigned delta,
                                  details::Loc loc = details::Loc::current()) const {
        return shuffle(details::WarpOp::shfl_down, var, static_cast<int>(delta), Size, loc,
                       names::shfl_down);
    }
    /// The value of `var` held by rank - delta; ranks below delta keep their own.
    template <class T>
    details::value_t<T> shfl_up(const T& var, unsigned delta,
                                details::Loc loc = details::Loc::current()) const {
        return shuffle(details::WarpOp::shfl_up, var, static_cast<int>(delta), Size, loc,
                       names::shfl_up);
    }
    /// The value of `var` held by rank ^ lane_mask.
    template <class T>
    details::value_t<T> shfl_xor(const T& var, unsigned lane_mask,
                                 details::Loc loc = details::Loc::current()) const {
        return shuffle(details::WarpOp::shfl_xor, var, static_cast<int>(lane_mask), Size, loc,
                       names::shfl_xor);
    }
    /// Bit r set iff rank r of the tile passes a nonzero predicate.
    unsigned ballot(int predicate, details::Loc loc = details::Loc::current()) const {
        return ballot_lanes(predicate, loc) >> base();
    }
    /// Bit r set iff rank r of the tile holds the same `value` as the caller.
    template <class T>
    unsigned match_any(const T& value, details::Loc loc = details::Loc::current()) const {
        return match_any_lanes(value, loc) >> base();
    }
    /// Every rank's bit when all hold the same `value` (pred = 1), else 0 (pred = 0).
    template <class T>
    unsigned match_all(const T& value, int& pred,
                       details::Loc loc = details::Loc::current()) const {
        return match_all_lanes(value, pred, loc) >> base();
    }
};

/// The tile of Size threads of `parent` (a thread_block or a larger thread_block_tile) that
/// holds the calling thread.
template <unsigned Size, class ParentT>
thread_block_tile<Size, ParentT> tiled_partition(const ParentT& parent) {
    return thread_block_tile<Size, ParentT>(parent);
}

/// The calling thread alone, as a tile of one.
inline thread_block_tile<1> this_thread() {
    return thread_block_tile<1, thread_block>(this_thread_block());
}

/// The tile of `tilesz` threads (a power of two up to 32) of `parent` that holds the caller,
/// known only at run time: a thread_group. A coalesced_group's partition is one too.
inline thread_group tiled_partition(const thread_group& parent, unsigned tilesz,
                                    simt::sim::Loc loc = simt::sim::Loc::current()) {
    if (tilesz == 0 || tilesz > 32 || (tilesz & (tilesz - 1)) != 0)
        simt::sim::detail::group_misuse(
            "tiled_partition(group, " + std::to_string(tilesz) +
                "): the tile size must be a power of two up to 32 in simt",
            loc);
    if (parent.get_type() == details::grid_group_id)
        simt::sim::detail::group_misuse(
            "tiled_partition(grid, n): the grid cannot be partitioned; "
            "partition this_thread_block()",
            loc);
    unsigned long long rank = parent.thread_rank();
    unsigned meta_rank = static_cast<unsigned>(rank / tilesz);
    unsigned meta_size = static_cast<unsigned>((parent.size() + tilesz - 1) / tilesz);
    unsigned parent_mask = parent.get_type() == details::thread_block_id ? ~0u : parent.mask_;
    // The lanes of the parent (within the caller's warp) whose parent rank falls in the tile.
    unsigned first = meta_rank * tilesz, mask = 0;
    unsigned long long warp_first =
        parent.get_type() == details::thread_block_id ? details::block_rank() - details::lane() : 0;
    for (unsigned m = parent_mask, l; m; m &= m - 1) {
        l = static_cast<unsigned>(std::countr_zero(m));
        unsigned long long r =
            parent.get_type() == details::thread_block_id
                ? warp_first + l
                : static_cast<unsigned>(std::popcount(parent_mask & details::lanes_below(l)));
        if (r >= first && r < first + tilesz &&
            (parent.get_type() != details::thread_block_id || r < details::block_threads()))
            mask |= 1u << l;
    }
    return thread_group(details::coalesced_group_id, mask, meta_rank, meta_size);
}

}  // namespace cooperative_groups
