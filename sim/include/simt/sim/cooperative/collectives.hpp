// What cg::reduce and the scans are made of: one shuffle step over a tile or coalesced group.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp> and <cooperative_groups/reduce.h>, not the simulator's headers"
#endif
#include <type_traits>

#include "simt/sim/cooperative/coalesced_group.hpp"
#include "simt/sim/cooperative/functional.hpp"

namespace cooperative_groups::details {

/// The tile size of a thread_block_tile type, 0 for a coalesced_group; false `tile` for others.
template <class Group>
struct group_kind {
    static constexpr bool tile = false;
    static constexpr unsigned size = 0;
};
template <unsigned N, class P>
struct group_kind<thread_block_tile<N, P>> {
    static constexpr bool tile = true;
    static constexpr unsigned size = N;
};
template <>
struct group_kind<coalesced_group> {
    static constexpr bool tile = true;
    static constexpr unsigned size = 0;
};

template <class Group>
constexpr void require_tile() {
    static_assert(group_kind<std::remove_cvref_t<Group>>::tile,
                  "cg::reduce and the scans take a thread_block_tile or a coalesced_group (as in "
                  "CUDA): partition the block with cg::tiled_partition<32>(block) first");
}

/// The value of `v` held by the member `delta` ranks below the caller (up) or above it (down),
/// the caller's own where there is none: the one shuffle the collectives use, for both kinds.
template <class Group, class T>
T shift(const Group&, unsigned mask, const T& v, unsigned delta, bool up, Loc loc,
        const char* what) {
    constexpr unsigned N = group_kind<Group>::size;
    if constexpr (N != 0) {
        return meet(up ? WarpOp::shfl_up : WarpOp::shfl_down, mask, v, static_cast<int>(delta), N,
                    loc, what);
    } else {
        unsigned n = static_cast<unsigned>(std::popcount(mask)), r = rank_in(mask);
        unsigned src = up ? (r >= delta ? lane_of_rank(mask, r - delta) : lane())
                          : (r + delta < n ? lane_of_rank(mask, r + delta) : lane());
        return meet(WarpOp::shfl, mask, v, static_cast<int>(src), 32, loc, what);
    }
}

/// The inclusive prefix of `v` over the group's ranks (Hillis-Steele: log2(size) shuffles).
template <class Group, class T, class Op>
T inclusive_prefix(const Group& g, T v, Op& op, Loc loc, const char* what) {
    if constexpr (group_kind<Group>::size > 32) {
        // Over several warps: one meeting of the tile, then each member folds the ranks up to its own.
        tile_values<T> all(group_kind<Group>::size, v, false, loc, what);
        T sum = all[0];
        for (unsigned r = 1; r <= g.thread_rank(); ++r) sum = op(sum, all[r]);
        return sum;
    } else {
        unsigned mask = access::mask(g);
        unsigned n = static_cast<unsigned>(std::popcount(mask)), r = rank_in(mask);
        for (unsigned d = 1; d < n; d *= 2) {
            T before = shift(g, mask, v, d, true, loc, what);
            if (r >= d) v = op(before, v);
        }
        return v;
    }
}

}  // namespace cooperative_groups::details
