// synccheck: barriers that part of a block skips, divergent barriers, bad warp masks, deadlocks.
// The executor enforces the barrier itself (block/barrier.cpp); this file only reports.
#include "shadow.hpp"

namespace simt::sim::detail {

void sync_finding(const char* kind, const std::string& text, const Loc& site) {
    BlockState& b = tls_worker->block;
    if (!b.sync_on) return;
    Finding f;
    f.kind = kind;
    f.sites.push_back(site_here(site, "barrier"));
    f.sites.back().block = b.idx;  // also when the last thread to arrive has just exited
    f.text = text;
    add_finding(std::string(kind) + "@" + where(site) + ":" + std::to_string(site.column()),
                std::move(f));
}

void checks_barrier_release(BlockState& b, const Loc& site) {
    checks_barrier_generation(b);
    unsigned exited = b.nthreads - b.live;
    if (!b.sync_on || exited <= b.exited_seen) return;
    b.exited_seen = exited;
    std::vector<unsigned> ids;
    for (unsigned t = 0; t < b.nthreads; ++t)
        if (b.threads[t].status == Status::done) ids.push_back(t);
    std::string text = "simt: " + std::to_string(exited) + " thread" + (exited > 1 ? "s" : "") +
                       " of block " + coord(b.idx) + " exited before the __syncthreads() at " +
                       where(site) + " that the other threads waited at\n  exited: " +
                       thread_ranges(b, ids) +
                       "\n  a barrier must be reached by every thread of the block; guard the work "
                       "(if (i < n) { ... }) instead of returning early";
    sync_finding("barrier-exit", text, site);
}

}  // namespace simt::sim::detail
