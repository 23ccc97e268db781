// __syncthreads and its _count/_and/_or forms: the block barrier as kernels call it.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include "simt/sim/block/leave.hpp"
#include "simt/sim/location.hpp"

namespace simt::sim::detail {
enum class BarrierOp : unsigned char { sync, count, all, any };
/// Waits until every live thread of the block arrives; returns the reduction of `pred`. `what`
/// names the call in reports (default: the __syncthreads form; cooperative groups pass theirs).
int sync_block(BarrierOp op, int pred, Loc loc, const char* what = nullptr);
/// The arrival of sync_threads: the switch to make, or none when the wait is over already (done
/// the long way, as sync_block does it).
FiberLeave arrive_at_syncthreads(Loc loc);
/// sync_block(BarrierOp::sync, 1, loc) for __syncthreads(), the barrier nearly every kernel
/// uses: no vote to return, so a shorter path, whose switch is made here, in the kernel
/// (leave.hpp says why).
[[gnu::always_inline]] inline void sync_threads(Loc loc) { wait_by(arrive_at_syncthreads(loc)); }
}  // namespace simt::sim::detail

/// Waits until every thread of the block has reached this barrier.
/// In the simulator: a real barrier; divergent and mismatched barriers are reported.
inline void __syncthreads(simt::sim::Loc loc = simt::sim::Loc::current()) {
    simt::sim::detail::sync_threads(loc);
}
/// __syncthreads, returning how many threads passed a nonzero predicate.
inline int __syncthreads_count(int pred, simt::sim::Loc loc = simt::sim::Loc::current()) {
    return simt::sim::detail::sync_block(simt::sim::detail::BarrierOp::count, pred, loc);
}
/// __syncthreads, returning nonzero iff the predicate is nonzero for all threads.
inline int __syncthreads_and(int pred, simt::sim::Loc loc = simt::sim::Loc::current()) {
    return simt::sim::detail::sync_block(simt::sim::detail::BarrierOp::all, pred, loc);
}
/// __syncthreads, returning nonzero iff the predicate is nonzero for any thread.
inline int __syncthreads_or(int pred, simt::sim::Loc loc = simt::sim::Loc::current()) {
    return simt::sim::detail::sync_block(simt::sim::detail::BarrierOp::any, pred, loc);
}
