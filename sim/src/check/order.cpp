// Happens-before between launches: a vector clock per stream, advanced as work is queued.
//
// A clock maps each stream to the serial of its latest launch known to happen before. A launch
// inherits its stream's clock joined with the host's (everything the host waited for before
// queuing it); events carry a stream's clock to another stream or to the host. Copies wait for
// every stream (like cudaMemcpy on the legacy default stream), so they need no clock of their own.
#include <algorithm>

#include "shadow.hpp"

namespace simt::sim::detail {

namespace {

using Clock = std::vector<std::uint32_t>;

void join(Clock& into, const Clock& from) {
    if (into.size() < from.size()) into.resize(from.size(), 0);
    for (std::size_t i = 0; i < from.size(); ++i) into[i] = std::max(into[i], from[i]);
}

struct Run {
    std::uint32_t exec_base, nblocks, stream;
    LaunchInfo info;
};

struct Order {
    std::mutex m;
    std::vector<Clock> tail;  ///< per stream: what its next launch will be ordered after
    Clock host;               ///< what the host has waited for
    std::uint32_t next_serial = 1;

    // Checked launches that have run, by exec_base (guarded by check_mutex, not m).
    std::vector<Run> runs;
    std::uint32_t next_exec = exec_host + 1;
    Clock current;            ///< the running checked launch's clock
    std::uint32_t current_base = 0;
    std::uint32_t cache_lo = 0, cache_hi = 0;  ///< exec range of the last lookup
    bool cache_ordered = false;
};

Order& order() {
    static Order* o = new Order;  // used by streams that outlive function-local statics
    return *o;
}

}  // namespace

std::mutex& check_mutex() {
    static std::mutex* m = new std::mutex;
    return *m;
}

unsigned new_stream_id() {
    Order& o = order();
    std::lock_guard lock(o.m);
    o.tail.emplace_back();
    return static_cast<unsigned>(o.tail.size() - 1);
}

std::uint32_t order_launch(unsigned stream, std::vector<std::uint32_t>& hb) {
    Order& o = order();
    std::lock_guard lock(o.m);
    Clock& t = o.tail[stream];
    join(t, o.host);
    hb = t;
    std::uint32_t serial = o.next_serial++;
    if (t.size() <= stream) t.resize(stream + 1, 0);
    t[stream] = serial;
    return serial;
}

void order_host_waits(unsigned stream) {
    Order& o = order();
    std::lock_guard lock(o.m);
    join(o.host, o.tail[stream]);
}

void order_host_waits_all() {
    Order& o = order();
    std::lock_guard lock(o.m);
    for (const Clock& t : o.tail) join(o.host, t);
}

std::vector<std::uint32_t> order_event_record(unsigned stream) {
    Order& o = order();
    std::lock_guard lock(o.m);
    join(o.tail[stream], o.host);
    return o.tail[stream];
}

void order_stream_waits(unsigned stream, const std::vector<std::uint32_t>& event_clock) {
    Order& o = order();
    std::lock_guard lock(o.m);
    join(o.tail[stream], event_clock);
}

void order_host_waits_event(const std::vector<std::uint32_t>& event_clock) {
    Order& o = order();
    std::lock_guard lock(o.m);
    join(o.host, event_clock);
}

LaunchInfo begin_checked_launch(const KernelLaunch& k) {
    Order& o = order();
    std::uint64_t nblocks = std::uint64_t(k.grid.x) * k.grid.y * k.grid.z;
    if (nblocks > 0xFFFFFFFFull - o.next_exec)
        throw simt::KernelError(
            "simt: the race and init checkers have run out of block ids (4 billion checked "
            "blocks in this process) at the launch at " + where(k.site) +
            "; run long programs with SIMT_CHECK=mem,sync");
    LaunchInfo info{k.serial, o.next_exec, k.grid, k.block, k.site};
    o.runs.push_back({o.next_exec, static_cast<std::uint32_t>(nblocks), k.stream, info});
    o.next_exec += static_cast<std::uint32_t>(nblocks);
    o.current = k.hb;
    o.current_base = info.exec_base;
    o.cache_lo = o.cache_hi = 0;
    return info;
}

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
    if (exec >= o.cache_lo && exec < o.cache_hi) return o.cache_ordered;
    const Run& r = run_of(exec);
    o.cache_lo = r.exec_base;
    o.cache_hi = r.exec_base + r.nblocks;
    o.cache_ordered = r.exec_base < o.current_base && r.stream < o.current.size() &&
                      o.current[r.stream] >= r.info.serial;
    return o.cache_ordered;
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
