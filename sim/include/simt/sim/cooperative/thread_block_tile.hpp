// cooperative_groups::thread_block_tile<N>: N consecutive threads of a block (N a power of two
// up to 512), with the warp's collectives within a warp, CUDA's fewer over several; tiled_partition
// makes them.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp> and <cooperative_groups.h>, not the simulator's headers"
#endif
#include "simt/sim/cooperative/lane_group.hpp"
#include "simt/sim/cooperative/thread_block.hpp"

namespace cooperative_groups {

namespace details {

/// A tile within one warp: ranks k*Size .. k*Size+Size-1, which lie in one warp. Its sync() is
/// __syncwarp over its lanes; shfl*(), any/all/ballot and match_* work within the tile, ranks
/// counting from 0 in each tile.
/// In the simulator: each collective is a meeting of the tile's lanes; a lane that never comes
/// is a deadlock reported with the lanes still missing, and tile.sync() orders the tile's
/// accesses for racecheck as __syncwarp(mask) does.
template <unsigned Size>
class warp_tile : public lane_group<tile_names> {
    using names = tile_names;
    static constexpr unsigned full = Size == 32 ? ~0u : (1u << Size) - 1;
    static unsigned base() { return lane() & ~(Size - 1); }

protected:
    warp_tile(unsigned meta_rank, unsigned meta_size)
        : lane_group(coalesced_group_id, full << base(), meta_rank, meta_size) {}

public:
    static constexpr unsigned size() { return Size; }
    static constexpr unsigned num_threads() { return Size; }
    static unsigned thread_rank() { return block_rank() & (Size - 1); }

    /// The value of `var` held by rank `src_rank` of the tile.
    template <class T>
    value_t<T> shfl(const T& var, int src_rank, Loc loc = Loc::current()) const {
        return shuffle(WarpOp::shfl, var, src_rank, Size, loc, names::shfl);
    }
    /// The value of `var` held by rank + delta; the top ranks keep their own.
    template <class T>
    value_t<T> shfl_down(const T& var, unsigned delta, Loc loc = Loc::current()) const {
        return shuffle(WarpOp::shfl_down, var, static_cast<int>(delta), Size, loc,
                       names::shfl_down);
    }
    /// The value of `var` held by rank - delta; ranks below delta keep their own.
    template <class T>
    value_t<T> shfl_up(const T& var, unsigned delta, Loc loc = Loc::current()) const {
        return shuffle(WarpOp::shfl_up, var, static_cast<int>(delta), Size, loc, names::shfl_up);
    }
    /// The value of `var` held by rank ^ lane_mask.
    template <class T>
    value_t<T> shfl_xor(const T& var, unsigned lane_mask, Loc loc = Loc::current()) const {
        return shuffle(WarpOp::shfl_xor, var, static_cast<int>(lane_mask), Size, loc,
                       names::shfl_xor);
    }
    /// Bit r set iff rank r of the tile passes a nonzero predicate.
    unsigned ballot(int predicate, Loc loc = Loc::current()) const {
        return ballot_lanes(predicate, loc) >> base();
    }
    /// Bit r set iff rank r of the tile holds the same `value` as the caller.
    template <class T>
    unsigned match_any(const T& value, Loc loc = Loc::current()) const {
        return match_any_lanes(value, loc) >> base();
    }
    /// Every rank's bit when all hold the same `value` (pred = 1), else 0 (pred = 0).
    template <class T>
    unsigned match_all(const T& value, int& pred, Loc loc = Loc::current()) const {
        return match_all_lanes(value, pred, loc) >> base();
    }
};

/// Every member's value of one meeting of a tile of several warps, by rank in the tile.
template <class T>
class tile_values {
public:
    tile_values(unsigned size, const T& v, bool orders, Loc loc, const char* what)
        : all_(simt::sim::detail::tile_meet(size, simt::sim::detail::to_bits(v), orders, loc,
                                            what)) {}
    T operator[](unsigned rank) const { return simt::sim::detail::from_bits<T>((*all_)[rank]); }

private:
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8,
                  "the collectives of a tile of more than 32 threads move values of at most 8 "
                  "bytes, trivially copyable (as in CUDA)");
    std::shared_ptr<const std::vector<std::uint64_t>> all_;
};

/// A tile over several warps: ranks k*Size .. k*Size+Size-1 of the block, Size 64 to 512. As in
/// CUDA it has sync(), shfl(), any() and all() (no ballot, match or shfl_up/down), and cg::reduce
/// and the scans take it; the block must be a whole number of tiles.
/// In the simulator: each collective is one meeting of the tile's threads across its warps (a
/// GPU's goes through shared scratch and a barrier of the tile's warps); sync() orders the tile's
/// accesses for racecheck, and a thread that never comes is a deadlock naming it.
template <unsigned Size>
class multi_warp_tile {
    struct names {
        static constexpr const char *sync = "thread_block_tile::sync()",
                                    *shfl = "thread_block_tile::shfl()",
                                    *any = "thread_block_tile::any()",
                                    *all = "thread_block_tile::all()";
    };

protected:
    multi_warp_tile(unsigned meta_rank, unsigned meta_size)
        : meta_rank_(meta_rank), meta_size_(meta_size) {}

public:
    static constexpr unsigned size() { return Size; }
    static constexpr unsigned num_threads() { return Size; }
    static unsigned thread_rank() { return block_rank() & (Size - 1); }
    unsigned meta_group_rank() const { return meta_rank_; }
    unsigned meta_group_size() const { return meta_size_; }

    void sync(Loc loc = Loc::current()) const { tile_values<int>(Size, 0, true, loc, names::sync); }
    /// The value of `var` held by rank `src_rank` (modulo the tile's size) of the tile.
    template <class T>
    value_t<T> shfl(const T& var, unsigned src_rank, Loc loc = Loc::current()) const {
        return tile_values<value_t<T>>(Size, var, false, loc, names::shfl)[src_rank % Size];
    }
    int any(int predicate, Loc loc = Loc::current()) const { return vote(predicate, loc, names::any) != 0; }
    int all(int predicate, Loc loc = Loc::current()) const {
        return vote(predicate, loc, names::all) == Size;
    }

private:
    static unsigned vote(int predicate, Loc loc, const char* what) {
        tile_values<int> votes(Size, predicate != 0, false, loc, what);
        unsigned n = 0;
        for (unsigned r = 0; r < Size; ++r) n += votes[r] != 0;
        return n;
    }
    unsigned meta_rank_, meta_size_;
};

template <unsigned Size>
using tile_base = std::conditional_t<(Size <= 32), warp_tile<Size>, multi_warp_tile<Size>>;

}  // namespace details

/// Size consecutive threads of a block: within one warp (Size 1 to 32), or whole warps (64 to
/// 512); tiled_partition makes them.
///
///     auto tile = cg::tiled_partition<8>(cg::this_thread_block());  // a block of 32 threads
///     tile.thread_rank();           // 0..7 in each of the 4 tiles
///     tile.meta_group_rank();       // 0..3: which tile
///     tile.shfl_down(v, 1);         // v of the next rank in the tile; rank 7 keeps its own
///     tile.ballot(threadIdx.x % 2); // 0xaa in every tile
template <unsigned Size, class ParentT = void>
class thread_block_tile : public details::tile_base<Size> {
    static_assert(Size >= 1 && Size <= 512 && (Size & (Size - 1)) == 0,
                  "thread_block_tile<Size>: Size must be a power of two from 1 to 32 (within a "
                  "warp) or 64 to 512 (whole warps)");
    using base = details::tile_base<Size>;

public:
    /// The tile of `parent` (a thread_block or a larger tile) that holds the calling thread.
    template <class P>
    requires std::is_same_v<P, ParentT>
    explicit thread_block_tile(const P& parent)
        : base(static_cast<unsigned>(parent.thread_rank() / Size),
               static_cast<unsigned>((parent.size() + Size - 1) / Size)) {}
    /// The same tile without its parent's type: `thread_block_tile<32> t = tiled_partition<32>(b)`.
    template <class OtherParent>
    thread_block_tile(const thread_block_tile<Size, OtherParent>& other) : base(other) {}
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

/// CUDA 11's spelling of tiles of several warps, under `#define _CG_ABI_EXPERIMENTAL`, which
/// NVIDIA's reduction sample still uses: the same scratch, block and partition, with the bytes
/// each thread may exchange as block_tile_memory's first parameter (at most 8 in simt, as in
/// CUDA 12's tiles).
namespace experimental {

template <unsigned TileCommunicationSize = 8, unsigned MaxBlockSize = 1024>
struct block_tile_memory : cooperative_groups::block_tile_memory<MaxBlockSize> {
    static_assert(TileCommunicationSize <= 8,
                  "experimental::block_tile_memory: simt's tiles exchange values of at most 8 bytes");
};

template <unsigned TileCommunicationSize, unsigned MaxBlockSize>
thread_block this_thread_block(block_tile_memory<TileCommunicationSize, MaxBlockSize>& scratch,
                               simt::sim::Loc loc = simt::sim::Loc::current()) {
    return cooperative_groups::this_thread_block(
        static_cast<cooperative_groups::block_tile_memory<MaxBlockSize>&>(scratch), loc);
}

using cooperative_groups::thread_block_tile;
using cooperative_groups::tiled_partition;

}  // namespace experimental

}  // namespace cooperative_groups
