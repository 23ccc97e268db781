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
class coalesced_group : public details::lane_group<details::coalesced_names> {
    using names = details::coalesced_names;
    friend coalesced_group coalesced_threads(details::Loc loc);
    friend coalesced_group tiled_partition(const coalesced_group& parent, unsigned tilesz,
                                           details::Loc loc);
    explicit coalesced_group(unsigned mask, unsigned meta_rank = 0, unsigned meta_size = 1)
        : lane_group(details::coalesced_group_id, mask, meta_rank, meta_size) {}

    static coalesced_group partition(const coalesced_group& parent, unsigned tilesz,
                                     details::Loc loc) {
        thread_group t = tiled_partition(static_cast<const thread_group&>(parent), tilesz, loc);
        return coalesced_group(t.mask_, t.meta_rank_, t.meta_size_);
    }
    /// The lane of rank `rank`, or the caller's own when there is no such rank.
    unsigned lane_or_own(unsigned long long rank) const {
        return rank < size() ? details::lane_of_rank(mask_, static_cast<unsigned>(rank))
                             : details::lane();
    }
    template <class T>
    details::value_t<T> from_rank(const T& var, unsigned long long rank, details::Loc loc,
                                  const char* what) const {
        return shuffle(details::WarpOp::shfl, var, static_cast<int>(lane_or_own(rank)), 32, loc,
                       what);
    }

public:
    unsigned size() const { return static_cast<unsigned>(std::popcount(mask_)); }
    unsigned num_threads() const { return size(); }
    unsigned thread_rank() const { return details::rank_in(mask_); }

    /// The value of `var` held by rank `src_rank`.
    template <class T>
    details::value_t<T> shfl(const T& var, unsigned src_rank,
                             details::Loc loc = details::Loc::current()) const {
        return from_rank(var, src_rank, loc, names::shfl);
    }
    /// The value of `var` held by rank + delta; the top ranks keep their own.
    template <class T>
    details::value_t<T> shfl_down(const T& var, unsigned delta,
                                  details::Loc loc = details::Loc::current()) const {
        return from_rank(var, thread_rank() + static_cast<unsigned long long>(delta), loc,
                         names::shfl_down);
    }
    /// The value of `var` held by rank - delta; ranks below delta keep their own.
    template <class T>
    details::value_t<T> shfl_up(const T& var, unsigned delta,
                                details::Loc loc = details::Loc::current()) const {
        unsigned r = thread_rank();
        return from_rank(var, r >= delta ? r - delta : r, loc, names::shfl_up);
    }
    /// Bit r set iff rank r passes a nonzero predicate.
    unsigned ballot(int predicate, details::Loc loc = details::Loc::current()) const {
        return details::pack_by_rank(mask_, ballot_lanes(predicate, loc));
    }
    /// Bit r set iff rank r holds the same `value` as the caller.
    template <class T>
    unsigned match_any(const T& value, details::Loc loc = details::Loc::current()) const {
        return details::pack_by_rank(mask_, match_any_lanes(value, loc));
    }
    /// Every rank's bit when all hold the same `value` (pred = 1), else 0 (pred = 0).
    template <class T>
    unsigned match_all(const T& value, int& pred,
                       details::Loc loc = details::Loc::current()) const {
        return details::pack_by_rank(mask_, match_all_lanes(value, pred, loc));
    }
};

/// The lanes of the caller's warp that reach this call together.
inline coalesced_group coalesced_threads(details::Loc loc = details::Loc::current()) {
    return coalesced_group(simt::sim::detail::coalesced_lanes(loc));
}

/// The ranks k*tilesz .. k*tilesz+tilesz-1 of `parent` that hold the caller's rank, as a
/// coalesced_group of their own.
inline coalesced_group tiled_partition(const coalesced_group& parent, unsigned tilesz,
                                       details::Loc loc = details::Loc::current()) {
    return coalesced_group::partition(parent, tilesz, loc);
}

}  // namespace cooperative_groups
