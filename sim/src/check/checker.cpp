// The one list of checkers, and the delivery of each seam event to the checkers that are on.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <type_traits>

#include "attempt.hpp"
#include "checker.hpp"
#include "../memory/arena.hpp"
#include "../report/symbolize.hpp"

namespace simt::sim::detail {

Checkers& checkers() {
    static Checkers* c = new Checkers;
    return *c;
}

namespace {

static_assert(std::tuple_size_v<decltype(Checkers::all)> <=
                  std::extent_v<decltype(GridRun::checkers)>,
              "GridRun::checkers must hold every checker");

auto& all_checkers() { return checkers().all; }

template <class F>
void each_enabled(const Config& cfg, F&& f) {
    for (auto& c : all_checkers())
        if (c->enabled(cfg)) f(*c);
}

/// Host-side ordering events: a checker that is off learns only that it missed one.
template <class F>
void each_ordering(F&& f) {
    const Config& cfg = config();
    for (auto& c : all_checkers()) {
        if (c->enabled(cfg)) f(*c);
        else c->ordering_missed();
    }
}

template <class F>
void each_in_launch(const GridRun& g, F&& f) {
    for (unsigned i = 0; i < g.checkers_on; ++i) f(*g.checkers[i]);
}

}  // namespace

unsigned new_stream_id() {
    static std::atomic<unsigned> next{0};
    return next++;
}

void order_launch(const KernelLaunch& k) {
    each_ordering([&](Checker& c) { c.launch_queued(k.stream, k); });
}
void order_host_waits(unsigned stream) {
    each_ordering([&](Checker& c) { c.host_waits(stream); });
}
void order_host_waits_all() {
    each_ordering([&](Checker& c) { c.host_waits_all(); });
}
OrderClock order_event_record(unsigned stream) {
    OrderClock clock;
    each_ordering([&](Checker& c) { c.event_recorded(stream, clock); });
    return clock;
}
void order_stream_waits(unsigned stream, const OrderClock& event_clock) {
    each_ordering([&](Checker& c) { c.stream_waits(stream, event_clock); });
}
void order_host_waits_event(const OrderClock& event_clock) {
    each_ordering([&](Checker& c) { c.host_waits_event(event_clock); });
}

void checks_allocated(const Allocation& a) {
    each_enabled(config(), [&](Checker& c) { c.allocated(a); });
}
void checks_freed(Allocation& a) {
    // Every checker hears of a free, on or off: one that was on earlier may hold state for it.
    for (auto& c : all_checkers()) c->freed(a);
}
void checks_host_wrote(Allocation& a, std::size_t offset, std::size_t bytes) {
    if (offset == 0 && bytes >= a.size) {
        a.host_init = true;
        return;
    }
    // Shadow cells belong to the one checked launch running; copies wait for launches anyway.
    // Every checker hears of it, on or off: one switched on later must not call it unwritten.
    std::lock_guard lock(checkers().serial);
    for (auto& c : all_checkers()) c->host_wrote(a, offset, bytes);
}

void checks_exit() {
    each_enabled(config(), [](Checker& c) { c.exit(); });
}

bool LaunchChecks::one_at_a_time(const Config& cfg) {
    bool serial = false;
    each_enabled(cfg, [&](Checker& c) { serial |= c.serial_blocks; });
    return serial;
}

LaunchChecks::LaunchChecks(GridRun& g) : g_(g) {
    each_enabled(g.cfg, [&](Checker& c) {
        g.checkers[g.checkers_on++] = &c;
        if (c.wants_accesses) g.accessors[g.accessors_on++] = &c;
    });
    // Shadow cells are shared by every block and launch without atomics, and a race report names
    // the accesses the checker saw first: one checked launch at a time, its blocks in order on
    // this thread, keeps both correct and independent of the core count.
    if (one_at_a_time(g.cfg)) lock_ = std::unique_lock(checkers().serial);
    g.shadow = g.accessors_on != 0;
    each_in_launch(g, [&](Checker& c) { c.launch_begin(g); });
}

void LaunchChecks::findings_ready() {
    each_in_launch(g_, [&](Checker& c) { c.launch_findings(g_); });
}

LaunchChecks::~LaunchChecks() {
    each_in_launch(g_, [&](Checker& c) { c.launch_end(g_); });
}

void checks_block_begin(BlockState& b) {
    tls::race_direct = false;  // RaceCheck::block_begin sets it where it applies
    each_in_launch(*b.grid, [&](Checker& c) { c.block_begin(b); });
}
void checks_block_end(BlockState& b) {
    each_in_launch(*b.grid, [&](Checker& c) { c.block_end(b); });
}
void checks_barrier_release(BlockState& b, const Loc& site) {
    each_in_launch(*b.grid, [&](Checker& c) { c.barrier_release(b, site); });
}
void checks_warp_sync(BlockState& b, unsigned warp, unsigned mask) {
    each_in_launch(*b.grid, [&](Checker& c) { c.warp_sync(b, warp, mask); });
}
void checks_tile_sync(BlockState& b, unsigned first, unsigned count) {
    each_in_launch(*b.grid, [&](Checker& c) { c.tile_sync(b, first, count); });
}
void checks_fence(BlockState& b, Scope s, int order, const void* pc) {
    each_in_launch(*b.grid, [&](Checker& c) { c.fence(b, s, order, pc); });
}

void fence(Scope s, int order) {
    // Blocks of an unchecked launch run on several cores: the host's own fence orders them.
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (tls::thread) {
        spin_forget(tls::worker->block, tls::thread->linear, 1);
        checks_fence(tls::worker->block, s, order, __builtin_return_address(0));
    }
}
void checks_grid_synced(GridRun& g) {
    each_in_launch(g, [&](Checker& c) { c.grid_synced(g); });
}
void checks_grid_sync(BlockState& b, const Loc& site) {
    each_in_launch(*b.grid, [&](Checker& c) { c.grid_sync(b, site); });
}
void checks_deadlock(BlockState& b, const Loc& first_site, bool divergent, const Deadlock& what) {
    each_in_launch(*b.grid, [&](Checker& c) { c.deadlock(b, first_site, divergent, what); });
}
void checks_warp_misuse(FindingKind kind, const WarpMisuseDraft& what, bool ends_block) {
    BlockState& b = tls::worker->block;
    each_in_launch(*b.grid, [&](Checker& c) { c.warp_misuse(b, kind, what, ends_block); });
}

// The access hook's out-of-line paths (simt/sim/check/access.hpp).

namespace {

void deliver_access(const Allocation* a, const void* p, std::size_t size, Access kind, Loc loc,
                    const void* pc) {
    if (stop_requested.load(std::memory_order_relaxed)) [[unlikely]]
        stop_poll(a, p, kind, pc ? loc_of(pc) : loc);
    if (a->scratch) return;  // an access that was not performed, already reported
    const BlockState& b = tls::worker->block;
    if (!b.grid->shadow) [[unlikely]] {  // the watchdog's detour (launch/watchdog.hpp) ends here
        tls::shadow_checks.store(false, std::memory_order_relaxed);
        return;
    }
    AccessEvent e{a, p, size, kind, loc, *tls::thread, b, pc};
    for (unsigned i = 0; i < b.grid->accessors_on; ++i) b.grid->accessors[i]->access(e);
}

}  // namespace

void record_access(const Allocation* a, const void* p, std::size_t size, Access kind, Loc loc) {
    if (tls::race_direct && !stop_requested.load(std::memory_order_relaxed) && !a->scratch)
        [[likely]]
        return race_access(a, p, size, kind, nullptr, loc);
    deliver_access(a, p, size, kind, loc, nullptr);
}

void record_raw_access(const Allocation* a, const void* p, std::size_t size, Access kind,
                       const void* pc) {
    deliver_access(a, p, size, kind, Loc{}, pc);
}

namespace {

alignas(64) thread_local std::byte scratch[4096];
thread_local Allocation scratch_alloc = [] {
    Allocation a;
    a.base = scratch;
    a.bytes = a.size = sizeof scratch;
    a.scratch = true;
    a.name = "(scratch)";
    return a;
}();

/// Delivers an invalid access and returns poisoned scratch memory to perform it on instead.
std::byte* invalid(const InvalidEvent& e) {
    // Before memcheck notes a wild line (note_wild_access), which the serial run must not find.
    if (e.thread && in_attempt()) leave_attempt();
    if (e.size > sizeof scratch) {
        std::fprintf(stderr, "simt: an element of %zu bytes is too large for the simulator's "
                             "poison buffer (4096 bytes)\n", e.size);
        std::abort();
    }
    // Bounds are checked with every checker off too (the access is never performed): memcheck
    // reports it from its own enabled() rule, host accesses throw.
    const Config& cfg = e.thread ? tls::worker->block.grid->cfg : config();
    each_enabled(cfg, [&](Checker& c) { c.invalid_access(e); });
    std::memset(scratch, arena::poison_byte, e.size);
    return scratch;
}

}  // namespace

void report_invalid(const InvalidEvent& e) { invalid(e); }

const Allocation* scratch_allocation() { return &scratch_alloc; }

std::byte* bad_access(const Allocation* a, const void* p, std::size_t size, Access kind, Loc loc) {
    return invalid({invalid_kind(a), a, p, size, kind, loc, tls::thread});
}

std::byte* bad_index(const Allocation* a, const std::ptrdiff_t* idx, const std::size_t* ext,
                     int rank, std::size_t size, Loc loc) {
    return invalid({Invalid::out_of_view, a, nullptr, size, Access::read, loc, tls::thread, idx,
                    ext, rank});
}

std::byte* misaligned_atomic(const Allocation* a, const void* p, std::size_t size, Loc loc) {
    return invalid({Invalid::misaligned, a, p, size, Access::atomic, loc, tls::thread});
}

}  // namespace simt::sim::detail
