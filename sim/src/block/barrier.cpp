// __syncthreads: arrival, completion when every live thread has arrived, and the vote results.
#include <cstring>

#include "../check/checker.hpp"

namespace simt::sim::detail {

namespace {
const char* barrier_name(BarrierOp op) {
    switch (op) {
        case BarrierOp::sync: return "__syncthreads()";
        case BarrierOp::count: return "__syncthreads_count()";
        case BarrierOp::all: return "__syncthreads_and()";
        case BarrierOp::any: return "__syncthreads_or()";
    }
    return "__syncthreads()";
}
}  // namespace

int sync_block(BarrierOp op, int pred, Loc loc, const char* what) {
    if (!what) what = barrier_name(op);
    if (!tls_thread) throw simt::Error("simt: " + std::string(what) + " called on the host at " + where(loc) + "; barriers exist only inside kernels");
    Worker& w = *tls_worker;
    BlockState& b = w.block;
    ThreadState& ts = *tls_thread;
    if (b.arrived == 0) {
        b.bar_site = loc;
        b.bar_mismatch = false;
    } else if (b.bar_site.line() != loc.line() || b.bar_site.column() != loc.column() ||
               (b.bar_site.file_name() != loc.file_name() &&
                std::strcmp(b.bar_site.file_name(), loc.file_name()) != 0)) {
        b.bar_mismatch = true;  // on the way to a deadlock, reported with both sites
    }
    ++b.arrived;
    b.bar_true += pred != 0;
    ts.status = Status::waiting;
    ts.wait = WaitKind::block;
    ts.site = loc;
    ts.what = what;
    ++b.waiting;
    if (b.arrived == b.live && !b.bar_mismatch) w.release_barrier();
    w.block_current(ts);
    switch (op) {
        case BarrierOp::sync: return 0;
        case BarrierOp::count: return b.result_count;
        case BarrierOp::all: return b.result_count == b.result_participants;
        case BarrierOp::any: return b.result_count != 0;
    }
    return 0;
}

}  // namespace simt::sim::detail
