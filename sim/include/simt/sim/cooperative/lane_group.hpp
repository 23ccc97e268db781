// What a thread_block_tile and a coalesced_group share: lanes of one warp in a mask, and the
// warp meetings over it.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp> and <cooperative_groups.h>, not the simulator's headers"
#endif
#include "simt/sim/cooperative/thread_group.hpp"

namespace cooperative_groups::details {

/// A group of lanes of the caller's warp (mask_): its barrier, votes, shuffles and matches, each
/// one warp meeting over the mask, named in reports by `Names` ("thread_block_tile::sync()").
/// Ballots and matches come back in lane order; the groups renumber them by rank.
template <class Names>
class lane_group : public thread_group {
public:
    /// Which group of its parent this is, and how many there are.
    unsigned meta_group_rank() const { return meta_rank_; }
    unsigned meta_group_size() const { return meta_size_; }

    void sync(Loc loc = Loc::current()) const { warp_sync(mask_, loc, Names::sync); }
    int any(int predicate, Loc loc = Loc::current()) const {
        return vote(WarpOp::any, mask_, predicate, loc, Names::any) != 0;
    }
    int all(int predicate, Loc loc = Loc::current()) const {
        return vote(WarpOp::all, mask_, predicate, loc, Names::all) != 0;
    }

protected:
    using thread_group::thread_group;

    template <class T>
    value_t<T> shuffle(WarpOp op, const T& var, int arg, int width, Loc loc,
                       const char* what) const {
        return meet<value_t<T>>(op, mask_, var, arg, width, loc, what);
    }
    unsigned ballot_lanes(int predicate, Loc loc) const {
        return vote(WarpOp::ballot, mask_, predicate, loc, Names::ballot);
    }
    template <class T>
    unsigned match_any_lanes(const T& value, Loc loc) const {
        return static_cast<unsigned>(meet(WarpOp::match_any, mask_,
                                          simt::sim::detail::to_bits(value_t<T>(value)), 0, 32, loc,
                                          Names::match_any));
    }
    template <class T>
    unsigned match_all_lanes(const T& value, int& pred, Loc loc) const {
        auto lanes = static_cast<unsigned>(meet(WarpOp::match_all, mask_,
                                                simt::sim::detail::to_bits(value_t<T>(value)), 0,
                                                32, loc, Names::match_all));
        pred = lanes != 0;
        return lanes;
    }
};

#define SIMT_CG_NAMES(group)                                                                  \
    static constexpr const char *sync = group "::sync()", *any = group "::any()",             \
                                *all = group "::all()", *ballot = group "::ballot()",         \
                                *match_any = group "::match_any()",                           \
                                *match_all = group "::match_all()", *shfl = group "::shfl()", \
                                *shfl_down = group "::shfl_down()",                           \
                                *shfl_up = group "::shfl_up()", *shfl_xor = group "::shfl_xor()"
struct tile_names {
    SIMT_CG_NAMES("thread_block_tile");
};
struct coalesced_names {
    SIMT_CG_NAMES("coalesced_group");
};
#undef SIMT_CG_NAMES

}  // namespace cooperative_groups::details
