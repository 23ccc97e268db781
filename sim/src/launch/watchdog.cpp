// The watchdog thread, the Ctrl-C handler, the progress line, a long launch's estimate, and the
// report of a stopped launch.
#include "watchdog.hpp"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <thread>
#include <ucontext.h>
#include <unistd.h>

#include "../check/checker.hpp"
#include "../device/model.hpp"
#include "../report/page.hpp"
#include "../thread/fault.hpp"

namespace simt::sim::detail {

namespace {

using Clock = WatchState::Clock;
using Running = WatchState::Running;
using std::chrono::milliseconds;
using std::chrono::seconds;

constexpr auto tick = milliseconds(50);
/// How long the accesses of a launch without progress are looked at before it is stopped.
constexpr auto probe_time = seconds(1);
/// How long a stop may take before the watchdog gives up on the threads noticing it; after a
/// Ctrl-C the user is waiting, so not long.
constexpr auto grace = seconds(3);
constexpr auto interrupt_grace = milliseconds(500);
/// A launch running longer than this shows a progress line: rewritten every half second on a
/// terminal, printed every 30 s into a log.
constexpr auto line_after = seconds(2);
constexpr auto line_every_tty = milliseconds(500);
constexpr auto line_every_log = seconds(30);
/// A checked launch that has run this long and, at its rate so far, will take longer than
/// `long_launch` in all says what waiting costs (estimate).
constexpr auto estimate_after = milliseconds(1000);
constexpr auto long_launch = seconds(10);
/// The signal that asks a worker where its thread is (nothing else in a program uses it).
constexpr int sample_signal = SIGURG;

/// Never destroyed: the watchdog thread runs until the process ends.
WatchState& state() {
    static WatchState* s = new WatchState;
    return *s;
}

/// What the watchdog does with `target`: nothing yet, looks at its accesses, or stops it.
enum Mode : int { watching, probing, stopping };
std::atomic<int> mode{watching};
std::atomic<const KernelLaunch*> target{nullptr};
std::atomic<std::uint64_t> probe_number{0};
Clock::time_point probe_since;  // the watchdog thread's own

std::atomic<bool> interrupted{false};
std::atomic<long long> first_interrupt_ns{0};

/// A program the watchdog or Ctrl-C ends still leaves its report page, with what it saw.
void leave_page(const char* how, int status, const std::string& said) {
    page_ended(how, status, said);
    write_report_page();
}

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

/// Async-signal-safe: records the interrupted instruction for the watchdog thread.
void on_sample(int, siginfo_t*, void* context) {
    Worker* w = tls::worker;
    if (!w) return;
    auto* uc = static_cast<ucontext_t*>(context);
    w->watch.sampled_pc.store(reinterpret_cast<const void*>(uc->uc_mcontext.gregs[REG_RIP] + 1));
    w->watch.sampled.fetch_add(1);
}

/// A field another thread writes without atomics, read for progress only: a torn or stale value
/// at worst delays a decision by a tick.
template <class T>
T racy(T& v) {
    return std::atomic_ref<T>(v).load(std::memory_order_relaxed);
}

template <class F>
void each_worker(F f) {
    AllWorkers& all = all_workers();
    std::lock_guard lock(all.m);
    for (Worker* w : all.list) f(*w);
}

void divert_accesses() {
    each_worker([](Worker& w) { w.watch.out_of_line->store(true, std::memory_order_relaxed); });
}

/// The sum of a launch's progress counters: any change is progress.
std::uint64_t progress_of(const Running& r) {
    if (!r.grid) return 0;
    std::uint64_t sum = r.grid->blocks_done.load(std::memory_order_relaxed);
    each_worker([&](Worker& w) {
        if (racy(w.block.grid) != r.grid) return;
        sum += w.watch.steps.load(std::memory_order_relaxed) + racy(w.block.next_lazy) -
               racy(w.block.live);
    });
    return sum;
}

/// Whether a worker running the probed launch saw its thread move during this probe.
bool any_moving() {
    bool moving = false;
    std::uint64_t n = probe_number.load();
    each_worker([&](Worker& w) {
        moving |= w.watch.probe_seen.load() == n && w.watch.moving.load();
    });
    return moving;
}

/// What the report of a launch the watchdog stopped starts from.
WatchdogDraft stop_draft(const KernelLaunch& k, bool interrupt) {
    WatchdogDraft w;
    w.launch = k.site;
    w.interrupt = interrupt;
    w.timeout = config().timeout_s;
    return w;
}

void clear_line(WatchState& s) {
    if (!s.line_shown) return;
    const char clear[] = "\r\033[K";
    (void)!write(2, clear, sizeof clear - 1);
    s.line_shown = false;
}

/// The progress line of the oldest launch running for a while: on a terminal one line, kept
/// current; into a log one line now and then.
void show_progress(WatchState& s, Clock::time_point now) {
    static const bool tty = isatty(2);
    for (Running& r : s.running) {
        if (!r.grid) continue;
        auto age = now - r.since;
        if (age < (tty ? line_after : line_every_log)) return;
        if (now - r.shown < (tty ? line_every_tty : line_every_log)) return;
        r.shown = now;
        WatchdogDraft w;
        w.launch = r.k->site;
        w.done = r.grid->blocks_done.load();
        w.total = r.grid->nblocks;
        w.per_second = w.done / std::chrono::duration<double>(age).count();
        // Only the shadow checkers slow a launch down enough to say so: memcheck's bounds checks
        // are made in every build, and a program built UNCHECKED has nothing else to turn off.
        w.checks = r.grid->cfg.check_race || r.grid->cfg.check_init;
        if (TimePrediction p; predict_running && predict_running(*r.grid, p)) w.predicted = p;
        std::string line = watchdog_progress(w);
        line = tty ? "\r\033[K" + line : line + "\n";
        (void)!write(2, line.data(), line.size());
        s.line_shown = tty;
        return;
    }
}

/// The estimate line, once the sample of `r`'s blocks has answered or run out of time.
void print_estimate(WatchState& s, Running& r, const BlockSample& sample, Clock::time_point now) {
    const GridRun& g = *r.grid;
    const std::uint64_t done = std::max<std::uint64_t>(g.blocks_done.load(), 1);
    WatchdogEstimate e;
    e.launch = r.k->site;
    e.blocks = g.nblocks;
    e.checked_s =
        std::chrono::duration<double>(now - r.since).count() * double(g.nblocks) / double(done);
    using Unchecked = WatchdogEstimate::Unchecked;
    e.waited_s = sample.waited();
    if (!sample.forked()) {
        e.unchecked = Unchecked::failed;
    } else if (sample.timed() == 0) {
        e.unchecked = Unchecked::slow;
    } else {
        e.unchecked = Unchecked::measured;
        e.sampled = sample.timed();
        e.block_s = sample.block_seconds();
        e.workers = unchecked_workers(g);
        e.unchecked_s = e.block_s * double(g.nblocks) / e.workers;
    }
    e.gpu = gpu_model().key;
    if (sample.predicted()) {
        e.predicted = sample.predicted();
        e.counted = sample.counted();
    } else if (TimePrediction p; predict_running && predict_running(g, p)) {
        e.predicted = p;  // SIMT_PROFILE's own counts, of the blocks done so far
        e.counted = done;
    }
    clear_line(s);
    const std::string line = watchdog_estimate(e) + "\n";
    (void)!write(2, line.data(), line.size());
    r.shown = {};  // on a terminal, the progress line comes back under it at once
}

/// A checked launch that will run long says once, within its first seconds, what waiting costs:
/// how long it takes here checked (from its blocks so far), with SIMT_CHECK=none and on the GPU
/// (from a sample of its own blocks, sample.hpp). A cooperative launch's blocks cannot run one
/// at a time, so it has none.
void estimate(WatchState& s, Clock::time_point now) {
    if (s.sample) {
        if (!s.sample->poll()) return;
        for (Running& r : s.running)
            if (r.grid == &s.sample->grid()) print_estimate(s, r, *s.sample, now);
        s.sample.reset();
        return;
    }
    if (mode.load() != watching) return;
    for (Running& r : s.running) {
        if (!r.grid || r.estimated || r.k->cooperative) continue;
        const GridRun& g = *r.grid;
        if (!g.cfg.check_race && !g.cfg.check_init) continue;
        const auto age = now - r.since;
        const std::uint64_t done = g.blocks_done.load();
        if (age < estimate_after || done == 0 || done >= g.nblocks) continue;
        if (age * (double(g.nblocks) / double(done)) < long_launch) continue;
        r.estimated = true;
        s.sample = std::make_unique<BlockSample>(g);
        return;
    }
}

void begin_probe(const KernelLaunch* k, Clock::time_point now) {
    probe_since = now;
    probe_number.fetch_add(1);
    target.store(k);
    mode.store(probing);
    stop_requested.store(true);
    divert_accesses();
}

void end_probe() {
    mode.store(watching);
    target.store(nullptr);
    stop_requested.store(false);
}

void begin_stop(WatchState& s, const KernelLaunch* k, bool interrupt) {
    s.interrupt = interrupt;
    s.stop_since = Clock::now();
    s.blocks.clear();
    target.store(k);
    mode.store(stopping);
    stop_requested.store(true);
    divert_accesses();
}

/// Where each thread running `k` is, asked with a signal: its line, or nothing where the answer
/// is not the program's own code.
std::vector<WatchdogDraft::Sampled> sample_threads(const KernelLaunch* k) {
    struct Asked {
        Worker* w;
        std::uint64_t before;
    };
    std::vector<Asked> asked;
    each_worker([&](Worker& w) {
        GridRun* g = racy(w.block.grid);
        if (!g || &g->k != k || racy(w.block.live) == 0) return;
        asked.push_back({&w, w.watch.sampled.load()});
        pthread_kill(w.watch.os_thread, sample_signal);
    });
    std::this_thread::sleep_for(tick);
    std::vector<WatchdogDraft::Sampled> out;
    for (const Asked& a : asked) {
        if (a.w->watch.sampled.load() == a.before) continue;
        const void* pc = a.w->watch.sampled_pc.load();
        Loc l = user_site(&pc, 1);
        if (l.line() == 0) continue;
        uint3& b = a.w->block.idx;
        out.push_back({{racy(b.x), racy(b.y), racy(b.z)}, l});
    }
    return out;
}

/// No thread noticed the stop: the kernel loops without an access simt sees. Say what is known.
[[noreturn]] void give_up(WatchState& s) {
    const KernelLaunch* k = target.load();
    WatchdogDraft w = stop_draft(*k, s.interrupt);
    w.sampled = sample_threads(k);
    w.waited =
        static_cast<unsigned>(std::chrono::duration_cast<seconds>(probe_time + grace).count());
    const std::string msg = watchdog_gave_up(w);
    clear_line(s);
    std::fflush(stdout);
    (void)!write(2, msg.data(), msg.size());
    leave_page(s.interrupt ? "interrupted" : "watchdog", s.interrupt ? 130 : 1, msg);
    _exit(s.interrupt ? 130 : 1);
}

void watch() {
    WatchState& s = state();
    for (;;) {
        std::this_thread::sleep_for(tick);
        std::lock_guard lock(s.m);
        Clock::time_point now = Clock::now();
        if (mode.load() == stopping) {
            divert_accesses();
            if (now - s.stop_since > (s.interrupt ? interrupt_grace : milliseconds(grace)))
                give_up(s);
            continue;
        }
        if (interrupted.load()) {
            if (s.running.empty()) {
                clear_line(s);
                std::fflush(stdout);
                const char msg[] = "simt: interrupted (Ctrl-C); no kernel was running\n";
                (void)!write(2, msg, sizeof msg - 1);
                leave_page("interrupted", 130, msg);
                _exit(130);
            }
            begin_stop(s, s.running.front().k, true);
            continue;
        }
        for (Running& r : s.running) {
            std::uint64_t p = progress_of(r);
            if (p != r.progress) {
                r.progress = p;
                r.moved = now;
            }
        }
        estimate(s, now);
        show_progress(s, now);
        if (mode.load() == probing) {
            auto r = std::find_if(s.running.begin(), s.running.end(),
                                  [&](const Running& x) { return x.k == target.load(); });
            if (r == s.running.end()) {
                end_probe();
            } else if (r->moved > probe_since || any_moving()) {
                r->moved = now;
                end_probe();
            } else if (now - probe_since >= probe_time) {
                begin_stop(s, r->k, false);
            } else {
                divert_accesses();
            }
            continue;
        }
        unsigned timeout = config().timeout_s;
        if (timeout == 0) continue;
        for (const Running& r : s.running)
            if (r.grid && now - r.moved > seconds(timeout)) {
                begin_probe(r.k, now);
                break;
            }
    }
}

/// Where the block's other threads are: each waiting place, then those not started or finished.
void waiting_threads(const BlockState& b, StoppedThread& t) {
    for (const WaitGroup& g : waiting_groups(b)) t.waiting.push_back(waiting_of(g));
    t.shape = b.grid->k.block;
    t.unstarted = b.nthreads - b.next_lazy;
    t.finished = b.nthreads - b.live;
}

/// A probe's look at one access: a thread that writes, or reads more addresses than a spin
/// loop does, is moving. Atomics count as reads: a spin lock retries one.
void probe(WorkerWatch& ww, const void* p, Access kind) {
    std::uint64_t n = probe_number.load();
    if (ww.probe_seen.load(std::memory_order_relaxed) != n) {
        ww.moving.store(false);
        ww.thread = tls::thread;
        ww.nreads = 0;
        ww.probe_seen.store(n);
    }
    if (ww.moving.load(std::memory_order_relaxed)) return;
    if (tls::thread != ww.thread || kind == Access::write) return ww.moving.store(true);
    for (unsigned i = 0; i < ww.nreads; ++i)
        if (ww.reads[i] == p) return;
    if (ww.nreads == std::size(ww.reads)) return ww.moving.store(true);
    ww.reads[ww.nreads++] = p;
}

}  // namespace

Watched::Watched(const KernelLaunch& k) : k_(k) {
    WatchState& s = state();
    std::lock_guard lock(s.m);
    Clock::time_point now = Clock::now();
    s.running.push_back({&k, now, nullptr, 0, now, now});
}

Watched::~Watched() {
    WatchState& s = state();
    std::lock_guard lock(s.m);
    std::erase_if(s.running, [&](const Running& r) { return r.k == &k_; });
    if (target.load() == &k_) {
        mode.store(watching);
        target.store(nullptr);
        stop_requested.store(false);
        interrupted.store(false);
        first_interrupt_ns.store(0);
    }
}

bool Watched::stopped() const { return target.load() == &k_ && mode.load() == stopping; }

WatchedGrid::WatchedGrid(GridRun& g) : g_(g) {
    WatchState& s = state();
    std::lock_guard lock(s.m);
    for (Running& r : s.running)
        if (r.k == &g.k) {
            r.grid = &g;
            r.moved = Clock::now();
        }
}

WatchedGrid::~WatchedGrid() {
    WatchState& s = state();
    std::lock_guard lock(s.m);
    for (Running& r : s.running)
        if (r.grid == &g_) r.grid = nullptr;
    if (s.sample && &s.sample->grid() == &g_) s.sample.reset();
    clear_line(s);
}

void Watched::rethrow_stopped(const simt::KernelError& first) {
    WatchState& s = state();
    std::string msg;
    bool interrupt;
    {
        std::lock_guard lock(s.m);
        interrupt = s.interrupt;
        std::sort(s.blocks.begin(), s.blocks.end());
        msg = watchdog_header(stop_draft(k_, interrupt));
        for (auto& [linear, lines] : s.blocks) msg += lines;
        if (s.blocks.empty()) msg += std::string("\n  ") + first.what();
    }
    if (interrupt) {
        std::fflush(stdout);
        std::fprintf(stderr, "%s\n", msg.c_str());
        std::fflush(stderr);
        leave_page("interrupted", 130, msg);
        std::_Exit(130);
    }
    throw simt::KernelError(msg);
}

void watchdog_poll(const Allocation* a, const void* p, Access kind, Loc loc) {
    Worker* w = tls::worker;
    const KernelLaunch* k = target.load();
    if (!w || !tls::thread || !k || &w->block.grid->k != k) return;
    if (mode.load() == probing) return probe(w->watch, p, kind);
    if (mode.load() != stopping) return;
    BlockState& b = w->block;
    const WorkerWatch& ww = w->watch;
    // A thread the probe saw reading the same few addresses spins; after a Ctrl-C it may as
    // well be computing, so only its place is said.
    StoppedThread t;
    t.block = b.idx;
    t.thread = tls::thread->idx;
    t.spins = !state().interrupt && ww.probe_seen.load() == probe_number.load() &&
              !ww.moving.load() && ww.thread == tls::thread;
    t.site = loc;
    if (a && !a->scratch) {
        t.array = a;
        t.access = kind;
        t.element = (static_cast<const std::byte*>(p) - a->base) /
                    static_cast<std::ptrdiff_t>(std::max<std::size_t>(a->elem_size, 1));
    }
    waiting_threads(b, t);
    using Advice = StoppedThread::Advice;
    const bool reads_other_blocks =
        a && a->space == Space::global && kind == Access::read && b.grid->nblocks > 1;
    if (reads_other_blocks && b.grid->k.cooperative) t.advice = Advice::grid_sync;
    else if (reads_other_blocks) t.advice = Advice::other_block;
    else if (b.still_waiting()) t.advice = Advice::barrier;
    else if (t.spins && b.next_lazy < b.nthreads) t.advice = Advice::take_turns;
    t.blocks = b.grid->nblocks;
    std::string lines = stopped_thread_text(t);
    {
        WatchState& s = state();
        std::lock_guard lock(s.m);
        s.blocks.emplace_back(b.linear, lines);
    }
    w->fail_thread("simt: stopped by the watchdog");
}

void start_watchdog() {
    stop_poll = watchdog_poll;
    struct sigaction sa {};
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    struct sigaction sample {};
    sample.sa_sigaction = on_sample;
    sample.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigemptyset(&sample.sa_mask);
    sigaction(sample_signal, &sample, nullptr);
    std::thread(watch).detach();
}

}  // namespace simt::sim::detail
