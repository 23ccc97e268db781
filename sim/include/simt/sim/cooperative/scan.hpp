// cg::inclusive_scan and cg::exclusive_scan over a tile or coalesced group's ranks.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp> and <cooperative_groups/scan.h>, not the simulator's headers"
#endif
#include "simt/sim/cooperative/collectives.hpp"

namespace cooperative_groups {

/// op (default cg::plus) over `val` of ranks 0..thread_rank() of `g` (a thread_block_tile or a
/// coalesced_group).
/// In the simulator: log2(size) warp meetings, reported as cg::inclusive_scan().
///
///     cg::inclusive_scan(tile, 1);  // thread_rank() + 1
template <class Group, class T, class Op = plus<details::value_t<T>>>
auto inclusive_scan(const Group& g, T&& val, Op&& op = Op(),
                    details::Loc loc = details::Loc::current())
    -> std::remove_cvref_t<decltype(op(val, val))> {
    details::require_tile<Group>();
    using R = std::remove_cvref_t<decltype(op(val, val))>;
    return details::inclusive_prefix(g, R(val), op, loc, "cg::inclusive_scan()");
}

/// op (default cg::plus) over `val` of ranks 0..thread_rank()-1; rank 0 gets T() (0 for
/// cg::plus; CUDA leaves it unspecified for other operators).
/// In the simulator: log2(size) + 1 warp meetings, reported as cg::exclusive_scan().
///
///     cg::exclusive_scan(tile, 1);  // thread_rank()
template <class Group, class T, class Op = plus<details::value_t<T>>>
auto exclusive_scan(const Group& g, T&& val, Op&& op = Op(),
                    details::Loc loc = details::Loc::current())
    -> std::remove_cvref_t<decltype(op(val, val))> {
    details::require_tile<Group>();
    using R = std::remove_cvref_t<decltype(op(val, val))>;
    constexpr const char* what = "cg::exclusive_scan()";
    if constexpr (details::group_kind<std::remove_cvref_t<Group>>::size > 32) {
        // Over several warps: one meeting, each member folding the ranks below its own.
        details::tile_values<R> all(g.size(), R(val), false, loc, what);
        if (g.thread_rank() == 0) return R();
        R sum = all[0];
        for (unsigned r = 1; r < g.thread_rank(); ++r) sum = op(sum, all[r]);
        return sum;
    } else {
        unsigned mask = details::access::mask(g);
        R inclusive = details::inclusive_prefix(g, R(val), op, loc, what);
        R before = details::shift(g, mask, inclusive, 1, true, loc, what);
        return details::rank_in(mask) == 0 ? R() : before;
    }
}

}  // namespace cooperative_groups
