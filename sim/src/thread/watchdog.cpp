// The watchdog thread, the Ctrl-C handler, and the report of a stopped launch.
#include "watchdog.hpp"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <ctime>
#include <thread>
#include <unistd.h>

#include "../process.hpp"

namespace simt::sim::detail {

namespace {

using Clock = WatchState::Clock;
using Running = WatchState::Running;

/// How long a stop may take before the watchdog gives up on the threads noticing it.
constexpr auto grace = std::chrono::seconds(3);

WatchState& state() { return process().watch; }

std::atomic<const KernelLaunch*> stopping{nullptr};
std::atomic<bool> interrupted{false};

std::atomic<long long> first_interrupt_ns{0};

/// Async-signal-safe: it only stores. A second Ctrl-C a second or more after the first ends the
/// process at once; one that comes sooner is the same keypress delivered twice (to the process
/// and to its group, as `timeout` and some shells do) and is ignored.
void on_interrupt(int) {
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    long long ns = now.tv_sec * 1000000000LL + now.tv_nsec;
    long long first = 0;
    if (first_interrupt_ns.compare_exchange_strong(first, ns)) {
        interrupted.store(true);
        return;
    }
    if (ns - first < 1000000000LL) return;
    const char msg[] = "\nsimt: interrupted again; ending at once\n";
    (void)!write(2, msg, sizeof msg - 1);
    _exit(130);
}

std::string header(const KernelLaunch& k, bool interrupt, unsigned timeout) {
    if (interrupt)
        return "simt: interrupted (Ctrl-C) while the kernel launched at " + where(k.site) +
               " was running";
    return "simt: the kernel launched at " + where(k.site) + " ran for more than " +
           std::to_string(timeout) + " s and was stopped (SIMT_TIMEOUT=" + std::to_string(timeout) +
           "; 0 turns the watchdog off)";
}

void begin_stop(WatchState& s, const KernelLaunch* k, bool interrupt) {
    s.interrupt = interrupt;
    s.stop_since = Clock::now();
    s.blocks.clear();
    stopping.store(k);
    stop_requested.store(true);
}

/// No thread noticed the stop: the kernel loops without an access simt sees. Say what is known.
[[noreturn]] void give_up(WatchState& s) {
    const KernelLaunch* k = stopping.load();
    unsigned timeout = process().config.timeout_s;
    std::string msg = header(*k, s.interrupt, timeout) +
                      "\n  no thread of it made a memory access that simt sees for " +
                      std::to_string(std::chrono::seconds(grace).count()) +
                      " s, so where it loops is not known: look for a loop whose condition "
                      "never changes (it reads no device or shared memory)\n";
    std::fflush(stdout);
    (void)!write(2, msg.data(), msg.size());
    _exit(s.interrupt ? 130 : 1);
}

void watch() {
    WatchState& s = state();
    for (;;) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        std::lock_guard lock(s.m);
        if (stopping.load()) {
            for (auto* f : s.flags) f->store(true, std::memory_order_relaxed);
            if (Clock::now() - s.stop_since > grace) give_up(s);
            continue;
        }
        if (interrupted.load()) {
            if (s.running.empty()) {
                std::fflush(stdout);
                const char msg[] = "simt: interrupted (Ctrl-C); no kernel was running\n";
                (void)!write(2, msg, sizeof msg - 1);
                _exit(130);
            }
            begin_stop(s, s.running.front().k, true);
            continue;
        }
        unsigned timeout = process().config.timeout_s;
        if (timeout == 0) continue;
        for (const Running& r : s.running)
            if (Clock::now() - r.since > std::chrono::seconds(timeout)) {
                begin_stop(s, r.k, false);
                break;
            }
    }
}

/// Where the block's other threads are: each waiting place, then those not started or finished.
std::string waiting_threads(const BlockState& b) {
    unsigned unstarted = b.nthreads - b.next_lazy, done = b.nthreads - b.live;
    auto count = [](unsigned n) { return std::to_string(n) + (n == 1 ? " thread" : " threads"); };
    std::string out;
    for (const WaitGroup& g : waiting_groups(b)) out += "\n    " + waiting_line(b, g);
    if (unstarted) out += "\n    " + count(unstarted) + " had not started yet";
    if (done) out += "\n    " + count(done) + " had finished";
    return out;
}

}  // namespace

Watched::Watched(const KernelLaunch& k) : k_(k) {
    WatchState& s = state();
    std::lock_guard lock(s.m);
    s.running.push_back({&k, Clock::now()});
}

Watched::~Watched() {
    WatchState& s = state();
    std::lock_guard lock(s.m);
    std::erase_if(s.running, [&](const Running& r) { return r.k == &k_; });
    if (stopping.load() == &k_) {
        stopping.store(nullptr);
        stop_requested.store(false);
        interrupted.store(false);
        first_interrupt_ns.store(0);
    }
}

bool Watched::stopped() const { return stopping.load() == &k_; }

void Watched::rethrow_stopped(const simt::KernelError& first) {
    WatchState& s = state();
    std::string msg;
    bool interrupt;
    {
        std::lock_guard lock(s.m);
        interrupt = s.interrupt;
        std::sort(s.blocks.begin(), s.blocks.end());
        msg = header(k_, interrupt, process().config.timeout_s);
        for (auto& [linear, lines] : s.blocks) msg += lines;
        if (s.blocks.empty()) msg += std::string("\n  ") + first.what();
    }
    if (interrupt) {
        std::fflush(stdout);
        std::fprintf(stderr, "%s\n", msg.c_str());
        std::fflush(stderr);
        std::_Exit(130);
    }
    throw simt::KernelError(msg);
}

void watchdog_register(std::atomic<bool>* out_of_line) {
    WatchState& s = state();
    std::lock_guard lock(s.m);
    s.flags.push_back(out_of_line);
}

void watchdog_poll(const Allocation* a, const void* p, Access kind, Loc loc) {
    Worker* w = tls_worker;
    const KernelLaunch* k = stopping.load();
    if (!w || !tls_thread || !k || &w->block.grid->k != k) return;
    BlockState& b = w->block;
    std::string lines = "\n  block " + coord(b.idx) + ": thread " + coord(tls_thread->idx) +
                        " was running at " + where(loc);
    if (a && !a->scratch) {
        auto index = (static_cast<const std::byte*>(p) - a->base) /
                     static_cast<std::ptrdiff_t>(std::max<std::size_t>(a->elem_size, 1));
        lines += std::string(" (") + (kind == Access::read ? "reading " : "writing ") +
                 space_name(a->space) + " memory " + describe(a) + "[" + std::to_string(index) + "])";
    }
    lines += waiting_threads(b);
    if (a && a->space == Space::global && kind == Access::read && b.grid->nblocks > 1 &&
        b.grid->k.cooperative)
        lines += "\n  a block that waits for a value another block writes waits forever here: the "
                 "blocks of a cooperative launch take turns between grid.sync() calls in the "
                 "simulator, so order the write and the read with "
                 "grid.sync() instead of a flag";
    else if (a && a->space == Space::global && kind == Access::read && b.grid->nblocks > 1)
        lines += "\n  a block that waits for a value another block of the same launch writes may "
                 "wait forever: blocks are not guaranteed to run at the same time (here " +
                 std::to_string(b.grid->nblocks) +
                 " blocks share the cores), so one must never wait for another; split the work "
                 "into two launches";
    else if (b.waiting)
        lines += "\n  a thread that loops until another thread of its block acts waits forever "
                 "if that thread waits at a barrier for it: order them with __syncthreads() "
                 "instead";
    {
        WatchState& s = state();
        std::lock_guard lock(s.m);
        s.blocks.emplace_back(b.linear, lines);
    }
    w->fail_thread("simt: stopped by the watchdog");
}

void start_watchdog() {
    struct sigaction sa {};
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    std::thread(watch).detach();
}

}  // namespace simt::sim::detail
