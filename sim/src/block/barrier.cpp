// __syncthreads: arrival, completion when every live thread has arrived, and the vote results.
#include <bit>

#include "../check/checker.hpp"

namespace simt::sim::detail {

namespace {

const char* barrier_name(BarrierOp op) {
    static constexpr const char* names[] = {"__syncthreads()", "__syncthreads_count()",
                                            "__syncthreads_and()", "__syncthreads_or()"};
    return names[static_cast<unsigned>(op)];
}

// Every thread of every block passes here at each barrier, so the usual arrival (not the last,
// same site as the others) is kept to a few loads and stores: the error text is built out of
// line, and the site compare is a pointer compare (same_site).
inline void arrive(Worker& w, ThreadState& ts, int pred, Loc loc, const char* what) {
    BlockState& b = w.block;
    if (b.arrived == 0) {
        b.bar_site = loc;
        b.bar_mismatch = false;
    } else if (!same_site(b.bar_site, loc)) [[unlikely]] {
        b.bar_mismatch = true;  // on the way to a deadlock, reported with both sites
    }
    ++b.arrived;
    b.bar_true += pred != 0;
    start_waiting(b, ts, WaitKind::block, loc, what);
    if (b.arrived == b.live && !b.bar_mismatch) w.release_barrier();
}

}  // namespace

// The usual arrival (neither the first nor the last, at the site of the others) is decided with
// loads and compares and done with a few stores, and saves no registers; every other arrival (on
// the host, the block's first or last, another site, a thread of a plain run) waits here, the
// long way, as sync_block's. Nothing is left to do once the thread resumes but the abort test:
// its switch restores its coordinates (Worker::pop_ready).
FiberLeave arrive_at_syncthreads(Loc loc) {
    ThreadState* ts = tls::thread;
    if (!ts) [[unlikely]] {
        sync_block(BarrierOp::sync, 1, loc);
        return {};
    }
    Worker* w = tls::worker;  // set: a thread runs on a worker
    const BlockState& b = w->block;
    if (b.arrived == 0 || b.arrived + 1 == b.live || b.plain_running ||
        std::bit_cast<const void*>(b.bar_site) != std::bit_cast<const void*>(loc)) [[unlikely]] {
        sync_block(BarrierOp::sync, 1, loc);
        return {};
    }
    // What is left of arrive() once those are known: the count and the thread's wait.
    arrive(*w, *ts, 1, loc, "__syncthreads()");
    return w->block_leave(*ts);
}

int sync_block(BarrierOp op, int pred, Loc loc, const char* what) {
    ThreadState* ts = tls::thread;
    if (!what) what = barrier_name(op);
    if (!ts) [[unlikely]]
        called_on_host(what, loc, "barriers exist only inside kernels");
    Worker& w = *tls::worker;
    arrive(w, *ts, pred, loc, what);
    w.block_current(*ts);
    const BlockState& b = w.block;
    switch (op) {
        case BarrierOp::sync: return 0;
        case BarrierOp::count: return b.result_count;
        case BarrierOp::all: return b.result_count == b.result_participants;
        case BarrierOp::any: return b.result_count != 0;
    }
    return 0;
}

}  // namespace simt::sim::detail
