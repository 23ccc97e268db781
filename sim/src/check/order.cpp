// Happens-before between launches: a vector clock per stream, advanced as work is queued.
//
// A clock maps each stream to the serial of its latest launch known to happen before. A launch
// inherits its stream's clock joined with the host's (everything the host waited for before
// queuing it); events carry a stream's clock to another stream or to the host. Copies wait for
// every stream (like cudaMemcpy on the legacy default stream), so they need no clock of their own.
#include <algorithm>
#include <bit>
#include <string>

#include "shadow.hpp"

namespace simt::sim::detail {

namespace {

using Clock = OrderClock;

void join(Clock& into, const Clock& from) {
    if (into.size() < from.size()) into.resize(from.size(), 0);
    for (std::size_t i = 0; i < from.size(); ++i) into[i] = std::max(into[i], from[i]);
}

Order& order() { return race_state().order; }

/// Forgets the unwaited launches the host's clock now covers. Under o.m.
void forget_waited(Order& o) {
    std::erase_if(o.unwaited, [&](const Order::Unwaited& u) {
        return u.stream < o.host.size() && o.host[u.stream] >= u.serial;
    });
    o.any_unwaited.store(!o.unwaited.empty(), std::memory_order_relaxed);
}

}  // namespace

namespace {
Clock& tail_of(Order& o, unsigned stream) {
    if (o.tail.size() <= stream) o.tail.resize(stream + 1);
    return o.tail[stream];
}
}  // namespace

namespace launch_order {

void queued(const KernelLaunch& k) {
    Order& o = order();
    std::lock_guard lock(o.m);
    if (o.missed) {
        // Waits made while race checking was off were not seen: count everything queued before
        // as finished. That may hide a race across the gap, never invent one.
        for (const Clock& t : o.tail) join(o.host, t);
        o.missed = false;
    }
    Clock& t = tail_of(o, k.stream);
    join(t, o.host);
    o.queued_before[k.serial] = t;
    if (t.size() <= k.stream) t.resize(k.stream + 1, 0);
    t[k.stream] = k.serial;
    if (k.pointers.count) {
        o.unwaited.push_back({k.serial, k.stream, k.site, k.pointers});
        o.any_unwaited.store(true, std::memory_order_relaxed);
    }
}

void missed() {
    Order& o = order();
    std::lock_guard lock(o.m);
    o.missed = true;
}

void host_waits(unsigned stream) {
    Order& o = order();
    std::lock_guard lock(o.m);
    join(o.host, tail_of(o, stream));
    forget_waited(o);
}

void host_waits_all() {
    Order& o = order();
    std::lock_guard lock(o.m);
    for (const Clock& t : o.tail) join(o.host, t);
    o.unwaited.clear();
    o.any_unwaited.store(false, std::memory_order_relaxed);
}

void event_recorded(unsigned stream, std::vector<std::uint32_t>& clock) {
    Order& o = order();
    std::lock_guard lock(o.m);
    Clock& t = tail_of(o, stream);
    join(t, o.host);
    clock = t;
}

void stream_waits(unsigned stream, const std::vector<std::uint32_t>& event_clock) {
    Order& o = order();
    std::lock_guard lock(o.m);
    join(tail_of(o, stream), event_clock);
}

void host_waits_event(const std::vector<std::uint32_t>& event_clock) {
    Order& o = order();
    std::lock_guard lock(o.m);
    join(o.host, event_clock);
    forget_waited(o);
}

const Loc* unwaited_launch_given(const Allocation& a) {
    Order& o = order();
    // The host queues the launches it then touches memory after: it sees its own store.
    if (!o.any_unwaited.load(std::memory_order_relaxed)) return nullptr;
    std::lock_guard lock(o.m);
    for (const Order::Unwaited& u : o.unwaited)
        for (unsigned i = 0; i < u.pointers.count; ++i) {
            auto q = static_cast<const std::byte*>(u.pointers.value[i]);
            if (q >= a.base && q < a.base + std::max<std::size_t>(a.size, 1)) return &u.site;
        }
    return nullptr;
}

}  // namespace launch_order

namespace {
/// Intervals per block for a launch from `k`'s site: enough for the barriers its blocks passed
/// last time (16 the first time; one for a cooperative launch, whose later phases start past
/// barrier 0), fewer when that would take more than 2^26 for the launch. A block that passes
/// more only escapes (shadow.hpp): this sizes the encoding, never what the rule decides.
std::uint32_t interval_shift(const Order& o, const KernelLaunch& k, std::uint64_t nblocks) {
    if (k.cooperative) return 0;
    auto it = o.barriers_by_site.find(std::bit_cast<const void*>(k.site));
    std::uint32_t shift = it == o.barriers_by_site.end() ? 4 : std::bit_width(it->second);
    while (shift > 0 && (nblocks << shift) > (std::uint64_t(1) << 26)) --shift;
    return shift;
}

[[noreturn]] void out_of_ids(const KernelLaunch& k, std::uint64_t nblocks, std::uint32_t left) {
    throw simt::KernelError(
        "simt: the race and init checkers cannot number the " + std::to_string(nblocks) +
        " blocks of the launch at " + where(k.site) + ": they number at most " +
        std::to_string(interval_mask - (exec_aside + 1)) +
        " blocks and barrier intervals in one process, and " + std::to_string(left) +
        " are left; run it with SIMT_CHECK=sync (the race and init checkers off), or launch "
        "fewer blocks");
}

/// Exec ids and intervals for every block of `k`, recorded as a run of launch `k`.
LaunchInfo new_run(const KernelLaunch& k, std::uint32_t shift) {
    Order& o = order();
    std::uint64_t nblocks = std::uint64_t(k.grid.x) * k.grid.y * k.grid.z;
    // Exec ids never pass intervals (a block takes one of each at least).
    while (shift > 0 && (nblocks << shift) > interval_mask - o.next_interval) --shift;
    if ((nblocks << shift) > interval_mask - o.next_interval)
        out_of_ids(k, nblocks, interval_mask - o.next_interval);
    LaunchInfo info{k.serial, o.next_exec, {}, k.grid, k.block, k.site, k.graph_launch};
    info.intervals = {o.next_exec, static_cast<std::uint32_t>(nblocks), o.next_interval, shift};
    o.runs.push_back({o.next_exec, static_cast<std::uint32_t>(nblocks), k.stream, info});
    o.next_exec += static_cast<std::uint32_t>(nblocks);
    o.next_interval += static_cast<std::uint32_t>(nblocks << shift);
    return info;
}
}  // namespace

LaunchInfo begin_grid_phase(const KernelLaunch& k) {
    return new_run(k, order().runs.back().info.intervals.shift);
}

void barriers_passed(const KernelLaunch& k, std::uint16_t most) {
    order().barriers_by_site[std::bit_cast<const void*>(k.site)] = most;
}

LaunchInfo begin_checked_launch(const KernelLaunch& k) {
    Order& o = order();
    std::uint64_t nblocks = std::uint64_t(k.grid.x) * k.grid.y * k.grid.z;
    LaunchInfo info = new_run(k, interval_shift(o, k, nblocks));
    {
        std::lock_guard lock(o.m);
        auto before = o.queued_before.find(k.serial);
        o.current_unordered = before == o.queued_before.end();
        if (o.current_unordered) o.current.clear();
        else {
            o.current = std::move(before->second);
            o.queued_before.erase(before);
        }
    }
    o.current_base = info.exec_base;
    o.cache_lo = o.cache_hi = 0;
    // exec_ordered_before_current for every earlier run at once: serials grow along a stream, so
    // it is enough that each stream's latest run is ordered before this one.
    o.current_after_all = true;
    if (!o.current_unordered)
        for (std::size_t s = 0; s < o.latest_run.size(); ++s)
            if (o.latest_run[s] != 0 &&
                (s >= o.current.size() || std::uint64_t(o.current[s]) + 1 < o.latest_run[s]))
                o.current_after_all = false;
    if (o.latest_run.size() <= k.stream) o.latest_run.resize(k.stream + 1, 0);
    o.latest_run[k.stream] = std::max<std::uint64_t>(o.latest_run[k.stream], k.serial + 1ull);
    return info;
}

bool earlier_launches_ordered() { return order().current_after_all; }

namespace {
const Run& run_of(std::uint32_t exec) {
    Order& o = order();
    auto it = std::upper_bound(o.runs.begin(), o.runs.end(), exec,
                               [](std::uint32_t e, const Run& r) { return e < r.exec_base; });
    return *(it - 1);  // exec ids are only ever handed out by begin_checked_launch
}
}  // namespace

bool exec_ordered_before_current(std::uint32_t exec) {
    Order& o = order();
    if (o.current_unordered) return exec < o.current_base;
    if (exec >= o.cache_lo && exec < o.cache_hi) return o.cache_ordered;
    const Run& r = run_of(exec);
    o.cache_lo = r.exec_base;
    o.cache_hi = r.exec_base + r.nblocks;
    o.cache_ordered = r.exec_base < o.current_base && r.stream < o.current.size() &&
                      o.current[r.stream] >= r.info.serial;
    return o.cache_ordered;
}

const Intervals& intervals_of_exec(std::uint32_t exec) { return run_of(exec).info.intervals; }

const Intervals& intervals_of_interval(std::uint32_t iv) {
    Order& o = order();
    auto it = std::upper_bound(o.runs.begin(), o.runs.end(), iv, [](std::uint32_t v, const Run& r) {
        return v < r.info.intervals.ibase;
    });
    return (it - 1)->info.intervals;  // intervals are only ever handed out with exec ids
}

const LaunchInfo& launch_of(std::uint32_t exec, uint3& block) {
    const Run& r = run_of(exec);
    std::uint64_t b = exec - r.exec_base;
    block = {static_cast<unsigned>(b % r.info.grid.x),
             static_cast<unsigned>(b / r.info.grid.x % r.info.grid.y),
             static_cast<unsigned>(b / (std::uint64_t(r.info.grid.x) * r.info.grid.y))};
    return r.info;
}

}  // namespace simt::sim::detail
