// synccheck: barriers that part of a block skips, divergent barriers, bad warp masks, deadlocks.
// The executor enforces the barrier itself (block/barrier.cpp); this checker only reports.
#include "checker.hpp"

namespace simt::sim::detail {

namespace {

void sync_finding(BlockState& b, const char* kind, const std::string& text, const Loc& site) {
    Finding f;
    f.kind = kind;
    f.sites.push_back(site_here(site, "barrier"));
    f.sites.back().block = b.idx;  // also when the last thread to arrive has just exited
    f.text = text;
    add_finding(std::string(kind) + "@" + where(site) + ":" + std::to_string(site.column()),
                std::move(f));
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
        std::vector<unsigned> ids;
        for (unsigned t = 0; t < b.nthreads; ++t)
            if (b.threads[t].status == Status::done) ids.push_back(t);
        std::string text = "simt: " + std::to_string(exited) + " thread" + (exited > 1 ? "s" : "") +
                           " of block " + coord(b.idx) + " exited before the __syncthreads() at " +
                           where(site) + " that the other threads waited at\n  exited: " +
                           thread_ranges(b, ids) +
                           "\n  a barrier must be reached by every thread of the block; guard the "
                           "work (if (i < n) { ... }) instead of returning early";
        sync_finding(b, "barrier-exit", text, site);
    }

    void deadlock(BlockState& b, const Loc& first_site, bool divergent,
                  const std::string& message) override {
        sync_finding(b, divergent ? "barrier-divergence" : "deadlock",
                     message.substr(0, message.rfind('\n')) +
                         (divergent ? "\n  threads of one block wait at different barriers: a "
                                      "barrier must not sit in code that only part of the block runs"
                                    : "\n  the launch ends with a KernelError"),
                     first_site);
    }

    void warp_misuse(BlockState& b, const char* kind, const std::string& message,
                     const Loc& site) override {
        sync_finding(b, kind, message, site);
    }
};

}  // namespace

Checker& synccheck() {
    static SyncCheck* c = new SyncCheck;  // ordering events may come from static destructors
    return *c;
}

}  // namespace simt::sim::detail
