// cooperative_groups::coalesced_group: the lanes of a warp that reach a call together.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp> and <cooperative_groups.h>, not the simulator's headers"
#endif
#include "simt/sim/cooperative/thread_block_tile.hpp"

namespace cooperative_groups {

/// The lanes of the caller's warp that called coalesced_threads() together, ranked in lane
/// order; the same members as a tile, with ranks in place of lanes.
/// In the simulator: lanes run one after another, so "together" is decided by waiting: the
/// caller waits until no thread of its block can go on, and the lanes then waiting at the same
/// coalesced_threads() call form the group (costs a fiber switch per lane).
///
///     if (in[i] > 0) {                             // lanes 1, 4 and 9 of a warp get here
///         cg::coalesced_group g = cg::coalesced_threads();
///         g.size();                                // 3
///         g.thread_rank();                         // 0, 1, 2 for lanes 1, 4, 9
///         int base = g.thread_rank() == 0 ? atomicAdd(count, g.size()) : 0;
///         base = g.shfl(base, 0);                  // rank 0's value in every lane
///     }
class coalesced_group : public thread_group {
    friend coalesced_group coalesced_threads(simt::sim::Loc loc);
    friend coalesced_group tiled_partition(const coalesced_group& parent, unsigned tilesz,
                                           simt::sim::Loc loc);
    explicit coalesced_group(unsigned mask, unsigned meta_rank = 0, unsigned meta_size = 1)
        : thread_group(details::coalesced_group_id, mask, meta_rank, meta_size) {}

    static coalesced_group partition(const coalesced_group& parent, unsigned tilesz,
                                     simt::sim::Loc loc) {
        thread_group t = tiled_partition(static_cast<const thread_group&>(parent), tilesz, loc);
        return coalesced_group(t.mask_, t.meta_rank_, t.meta_size_);
    }

    /// The lane of rank `rank`, or the caller's own when there is no such rank.
    unsigned lane_or_own(unsigned long long rank) const {
        return rank < size() ? details::lane_of_rank(mask_, static_cast<unsigned>(rank)) : details::lane();
    }

public:
    unsigned size() const { return static_cast<unsigned>(std::popcount(mask_)); }
    unsigned num_threads() const { return size(); }
    unsigned thread_rank() const { return details::rank_in(mask_); }
    unsigned meta_group_rank() const { return meta_rank_; }
    unsigned meta_group_size() const { return meta_size_; }

    void sync(simt::sim::Loc loc = simt::sim::Loc::current()) const {
        details::warp_sync(mask_, loc, "coalesced_group::sync()");
    }
    /// The value of `var` held by rank `src_rank`.
    template <class T>
    T shfl(T var, unsigned src_rank, simt::sim::Loc loc = simt::sim::Loc::current()) const {
        return details::meet(details::WarpOp::shfl, mask_, var, static_cast<int>(lane_or_own(src_rank)),
                             32, loc, "coalesced_group::shfl()");
    }
    /// The value of `var` held by rank + delta; the top ranks keep their own.
    template <class T>
    T shfl_down(T var, unsigned delta, simt::sim::Loc loc = simt::sim::Loc::current()) const {
        return details::meet(details::WarpOp::shfl, mask_, var,
                             static_cast<int>(lane_or_own(thread_rank() + static_cast<unsigned long long>(delta))),
                             32, loc, "coalesced_group::shfl_down()");
    }
    /// The value of `var` held by rank - delta; ranks below delta keep their own.
    template <class T>
    T shfl_up(T var, unsigned delta, simt::sim::Loc loc = simt::sim::Loc::current()) const {
        unsigned r = thread_rank();
        return details::meet(details::WarpOp::shfl, mask_, var,
                             static_cast<int>(r >= delta ? details::lane_of_rank(mask_, r - delta) : details::lane()),
                             32, loc, "coalesced_group::shfl_up()");
    }
    int any(int predicate, simt::sim::Loc loc = simt::sim::Loc::current()) const {
        return details::vote(details::WarpOp::any, mask_, predicate, loc, "coalesced_group::any()") != 0;
    }
    int all(int predicate, simt::sim::Loc loc = simt::sim::Loc::current()) const {
        return details::vote(details::WarpOp::all, mask_, predicate, loc, "coalesced_group::all()") != 0;
    }
    /// Bit r set iff rank r passes a nonzero predicate.
    unsigned ballot(int predicate, simt::sim::Loc loc = simt::sim::Loc::current()) const {
        return details::pack_by_rank(
            mask_, details::vote(details::WarpOp::ballot, mask_, predicate, loc, "coalesced_group::ballot()"));
    }
    /// Bit r set iff rank r holds the same `value` as the caller.
    template <class T>
    unsigned match_any(T value, simt::sim::Loc loc = simt::sim::Loc::current()) const {
        return details::pack_by_rank(
            mask_, static_cast<unsigned>(details::meet(details::WarpOp::match_any, mask_,
                                                       simt::sim::detail::to_bits(value), 0, 32, loc,
                                                       "coalesced_group::match_any()")));
    }
    /// Every rank's bit when all hold the same `value` (pred = 1), else 0 (pred = 0).
    template <class T>
    unsigned match_all(T value, int& pred, simt::sim::Loc loc = simt::sim::Loc::current()) const {
        auto r = static_cast<unsigned>(details::meet(details::WarpOp::match_all, mask_,
                                                     simt::sim::detail::to_bits(value), 0, 32, loc,
                                                     "coalesced_group::match_all()"));
        pred = r != 0;
        return details::pack_by_rank(mask_, r);
    }
};

/// The lanes of the caller's warp that reach this call together.
inline coalesced_group coalesced_threads(simt::sim::Loc loc = simt::sim::Loc::current()) {
    return coalesced_group(simt::sim::detail::coalesced_lanes(loc));
}

/// The ranks k*tilesz .. k*tilesz+tilesz-1 of `parent` that hold the caller's rank, as a
/// coalesced_group of their own.
inline coalesced_group tiled_partition(const coalesced_group& parent, unsigned tilesz,
                                       simt::sim::Loc loc = simt::sim::Loc::current()) {
    return coalesced_group::partition(parent, tilesz, loc);
}

}  // namespace cooperative_groups
