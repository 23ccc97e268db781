// Where a checker's draft meets the running block: the site's thread, block and library call
// are read from the running thread here, and the draft waits in its block's findings until the
// launch publishes them in block order (report/report.cpp).
#include "attempt.hpp"
#include "checker.hpp"
#include "../report/finding.hpp"

namespace simt::sim::detail {

DraftSite draft_site(const Loc& loc, const char* access) {
    DraftSite d;
    d.loc = loc;
    d.access = access;
    if (tls::thread) {
        d.thread = tls::thread->idx;
        d.block = tls::worker->block.idx;
        if (const Loc& launch = tls::worker->block.grid->k.site; is_library_call(launch))
            d.call = launch;
    }
    return d;
}

void add_finding(Draft d) {
    if (in_attempt()) {  // the run one block at a time will find it again, and report it
        running_attempt->fail();
        return;
    }
    BlockState& b = tls::worker->block;
    FindingKey key = key_of(d);
    const unsigned t = tls::thread ? tls::thread->linear : 0;
    for (PendingFinding& p : b.findings)
        if (p.key == key && p.draft.unless_flag == d.unless_flag) {
            p.threads.set(t % 1024);
            ++p.accesses;
            return;
        }
    if (was_published(key)) return;
    PendingFinding& p = b.findings.emplace_back(PendingFinding{b.linear, t, std::move(key), std::move(d), {}, 1});
    p.threads.set(t % 1024);
}

}  // namespace simt::sim::detail
