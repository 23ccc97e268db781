// Runs a grid: blocks spread over the TBB arena, one worker per block, errors in block order.
#include <algorithm>
#include <chrono>
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "../check/attempt.hpp"
#include "../check/checker.hpp"
#include "../check/host_pointers.hpp"
#include "grid.hpp"
#include "cooperative.hpp"
#include "turns.hpp"
#include "watchdog.hpp"

namespace simt::sim::detail {

namespace {

/// The TBB arenas blocks run in, by the number of workers asked for.
struct Arenas {
    std::mutex m;
    std::map<int, std::unique_ptr<tbb::task_arena>> by_workers;
    /// Lets TBB run as many threads as the most workers asked for (SIMT_WORKERS=8 on two cores
    /// is eight OS threads, as the setting says): by default it caps them at the core count, and
    /// says so on stderr, in a run whose output must not depend on the core count.
    std::unique_ptr<tbb::global_control> allow;
};

/// The arena for a number of workers (0: every core), made on first use and kept: a grid may be
/// running in one while another launch asks for a different count.
tbb::task_arena& arena_for(int workers) {
    static Arenas& a = *new Arenas;  // never destroyed: workers stay parked in them
    std::lock_guard lock(a.m);
    auto& arena = a.by_workers[workers];
    if (!arena) {
        int n = workers > 0 ? workers
                            : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
        using tbb::global_control;
        const auto allowed = static_cast<int>(
            global_control::active_value(global_control::max_allowed_parallelism));
        if (n > allowed)
            a.allow = std::make_unique<global_control>(global_control::max_allowed_parallelism,
                                                       static_cast<std::size_t>(n));
        arena = std::make_unique<tbb::task_arena>(n);
    }
    return *arena;
}

}  // namespace

void collect_block(GridRun& g, BlockState& b, std::uint64_t i) {
    // An aborted block without an error was abandoned because another block failed.
    bool failed = b.aborted && !b.error.empty();
    g.blocks_done.fetch_add(1, std::memory_order_relaxed);
    if (!failed && b.findings.empty()) return;
    std::lock_guard lock(g.m);
    for (auto& f : b.findings) g.findings.push_back(std::move(f));
    if (failed) {
        g.errors.push_back({i, std::move(b.error), b.error_code, std::move(b.error_finding)});
        std::uint64_t prev = g.first_failed.load();
        while (i < prev && !g.first_failed.compare_exchange_weak(prev, i)) {
        }
    }
}

namespace {

/// Runs `g`'s blocks on every worker of the arena. `attempt`: a checked launch's parallel
/// attempt, which a failed block ends.
void run_on_every_worker(GridRun& g, ParallelAttempt* attempt = nullptr) {
    auto body = [&g, attempt](const tbb::blocked_range<std::uint64_t>& r) {
        // Isolated: a worker must never pick up another block while one is on its fibers.
        tbb::this_task_arena::isolate([&] {
            Worker& w = worker();
            for (std::uint64_t i = r.begin(); i != r.end(); ++i) {
                // Blocks after a failed one may be skipped; earlier ones always run, so the
                // error reported (the lowest failing block) does not depend on the core count.
                if (i > g.first_failed.load(std::memory_order_relaxed)) break;
                if (attempt && attempt->failed()) break;
                w.run_block(g, i);
                if (attempt && w.block.aborted) attempt->fail();
                collect_block(g, w.block, i);
            }
        });
    };
    arena_for(ThreadSchedule::workers(g.cfg)).execute([&] {
        tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, g.nblocks), body);
    });
}

/// A checked launch's blocks tried on every worker (check/attempt.hpp): true when the attempt
/// holds, with the launch done; false with everything it did undone.
bool try_in_parallel(GridRun& g) {
    const auto start = std::chrono::steady_clock::now();
    // Owning first, where the site has not shown that its blocks share granules: each block's
    // cells are then its own, checked without locks. An attempt that ends at a shared granule
    // is tried owning again with that array in one-element granules, then with locks, where
    // blocks may share what they read (a matrix multiply's inputs).
    for (bool owning = worth_owning(g);;) {
        ParallelAttempt attempt(g, owning);
        g.turns = &attempt;  // a block that spins on another's memory ends the attempt
        run_on_every_worker(g, &attempt);
        g.turns = nullptr;
        if (!attempt.failed() && g.errors.empty() && g.findings.empty()) {
            const auto took = std::chrono::steady_clock::now() - start;
            attempt.keep(std::chrono::duration<double>(took).count());
            return true;
        }
        attempt.undo();
        if (!owning || !attempt.ended_shared()) return false;
        owning = attempt.again_owning();
    }
}

}  // namespace

void run_grid(const KernelLaunch& k) {
    HostMemoryArgs host_memory(k);
    GridRun g(k, config());
    if (LaunchChecks::one_at_a_time(g.cfg)) wait_for_launches_before(k.serial);
    LaunchChecks checks(g);
    {
        WatchedGrid watched(g);
        if (k.cooperative) {
            // Every block live at once, each on a thread of its own (launch/cooperative.hpp says
            // why).
            CoopGrid coop(g);
            g.coop = &coop;
            coop.run();
        } else if (checks.serial()) {
            // Tried on every worker first, where that can make the same report; otherwise one
            // block at a time, in order, unless one waits on another (launch/turns.hpp).
            const bool tried = may_try_in_parallel(g);
            if (!tried || !try_in_parallel(g)) {
                const auto start = std::chrono::steady_clock::now();
                BlockTurns turns(g);
                g.turns = &turns;
                turns.run();
                if (!tried)
                    ran_in_order(g, std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                                                  start).count());
            }
        } else {
            run_on_every_worker(g);
        }
    }
    std::uint64_t failed = g.first_failed.load();
    launches_ended.fetch_add(1, std::memory_order_relaxed);
    checks.findings_ready();
    publish(g.findings, failed);
    if (failed != ~std::uint64_t(0)) {
        auto e = std::find_if(g.errors.begin(), g.errors.end(),
                              [&](auto& p) { return p.block == failed; });
        throw KernelFault(e->message, e->code, e->finding);
    }
}

cudaError_t kernel_error_code(const std::exception& e) {
    auto* f = dynamic_cast<const KernelFault*>(&e);
    return f ? f->code : cudaErrorLaunchFailure;
}

}  // namespace simt::sim::detail
