// synccheck: barriers that part of a block skips, divergent barriers, bad warp masks, deadlocks.
// The executor enforces the barrier itself (block/barrier.cpp); this checker only reports.
#include "checker.hpp"
#include "../report/finding.hpp"

namespace simt::sim::detail {

namespace {

/// A synccheck finding at a barrier or warp intrinsic of block `b`.
Draft sync_draft(const BlockState& b, FindingKind kind, const Loc& site) {
    Draft d;
    d.kind = kind;
    d.sites.push_back(draft_site(site, "barrier"));
    d.sites.back().block = b.idx;  // also when the last thread to arrive has just exited
    return d;
}

/// Threads of the running block already reported for exiting before a barrier.
thread_local unsigned tls_exited_seen = 0;

class SyncCheck final : public Checker {
public:
    SyncCheck() : Checker(/*wants_accesses=*/false, /*serial_blocks=*/false) {}
    bool enabled(const Config& c) const override { return c.check_sync; }

    void block_begin(BlockState&) override { tls_exited_seen = 0; }

    void barrier_release(BlockState& b, const Loc& site) override {
        unsigned exited = b.nthreads - b.live;
        if (exited <= tls_exited_seen) return;
        tls_exited_seen = exited;
        Draft d = sync_draft(b, FindingKind::barrier_exit, site);
        for (unsigned t = 0; t < b.nthreads; ++t)
            if (b.threads[t].status == Status::done) d.ranks.push_back(t);
        d.shape = b.grid->k.block;
        d.count = exited;
        add_finding(std::move(d));
    }

    void deadlock(BlockState& b, const Loc& first_site, bool divergent,
                  const Deadlock& what) override {
        Draft d = sync_draft(b, divergent ? FindingKind::barrier_divergence : FindingKind::deadlock,
                             first_site);
        d.deadlock = what;  // the finding gives its own advice instead of the error's
        b.error_finding = key_of(d);
        add_finding(std::move(d));
    }

    void warp_misuse(BlockState& b, FindingKind kind, const WarpMisuseDraft& what,
                     bool ends_block) override {
        Draft d = sync_draft(b, kind, what.site);
        d.misuse = what;
        if (ends_block) b.error_finding = key_of(d);  // its KernelError says "reported above"
        add_finding(std::move(d));
    }
};

}  // namespace

std::unique_ptr<Checker> make_synccheck() { return std::make_unique<SyncCheck>(); }

}  // namespace simt::sim::detail
