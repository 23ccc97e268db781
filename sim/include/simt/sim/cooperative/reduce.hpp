// cg::reduce: one value from every member of a tile or coalesced group, in every member.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp> and <cooperative_groups/reduce.h>, not the simulator's headers"
#endif
#include "simt/sim/cooperative/collectives.hpp"

namespace cooperative_groups {

/// op applied over `val` of every member of `g` (a thread_block_tile or a coalesced_group);
/// every member gets the result. `op` must be associative and commutative: cg::plus<T>(),
/// cg::less<T>() (minimum), cg::greater<T>() (maximum), cg::bit_and/or/xor<T>(), or a lambda.
/// In the simulator: log2(size) warp meetings of the group's lanes (one meeting of a tile of
/// several warps), reported as cg::reduce().
///
///     auto tile = cg::tiled_partition<32>(cg::this_thread_block());
///     int sum = cg::reduce(tile, int(tile.thread_rank()), cg::plus<int>());  // 496 in every lane
template <class Group, class T, class Op>
auto reduce(const Group& g, T&& val, Op&& op, simt::sim::Loc loc = simt::sim::Loc::current())
    -> std::remove_cvref_t<decltype(op(val, val))> {
    details::require_tile<Group>();
    using R = std::remove_cvref_t<decltype(op(val, val))>;
    constexpr const char* what = "cg::reduce()";
    constexpr unsigned N = details::group_kind<std::remove_cvref_t<Group>>::size;
    if constexpr (N > 32) {
        // Over several warps: one meeting of the tile, then each member folds every value in rank
        // order, so that all get the same result.
        details::tile_values<R> all(N, R(val), false, loc, what);
        R v = all[0];
        for (unsigned r = 1; r < N; ++r) v = op(v, all[r]);
        return v;
    } else if constexpr (N != 0) {
        // A butterfly: after the step with offset k every lane holds its 2k-lane segment's result.
        unsigned mask = details::access::mask(g);
        R v = val;
        for (unsigned k = N / 2; k > 0; k /= 2)
            v = op(v, details::meet(details::WarpOp::shfl_xor, mask, v, static_cast<int>(k), N, loc,
                                    what));
        return v;
    } else {
        // Any number of members: a tree toward rank 0, then rank 0's result to every member.
        unsigned mask = details::access::mask(g);
        R v = val;
        unsigned n = static_cast<unsigned>(std::popcount(mask)), r = details::rank_in(mask);
        for (unsigned k = 1; k < n; k *= 2) {
            R above = details::shift(g, mask, v, k, false, loc, what);
            if (r + k < n) v = op(v, above);
        }
        return details::meet(details::WarpOp::shfl, mask, v,
                             static_cast<int>(details::lane_of_rank(mask, 0)), 32, loc, what);
    }
}

}  // namespace cooperative_groups
