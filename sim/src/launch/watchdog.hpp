// The watchdog: a launch that makes no progress for SIMT_TIMEOUT seconds, or a Ctrl-C, stops
// with where every thread is; a launch that runs long shows how far it got, and a checked one
// says within its first seconds what waiting costs (here, with SIMT_CHECK=none, on the GPU).
//
// Progress is what a kernel that will end does: blocks finish, threads start, end, meet at
// barriers and warp intrinsics (each worker's counters, read by the watchdog thread), or a
// thread reads new addresses or writes. A launch with none of that for SIMT_TIMEOUT seconds is
// probed, then stopped.
//
// How a running kernel is watched and stopped without a cost on the hot path: the access hook
// already tests one thread-local flag per access (shadow checks on or off) before its
// out-of-line path. The watchdog thread sets that flag on every worker, so the next access of a
// running thread goes out of line, where `watchdog_poll` is called on the worker itself (its
// block's state is only safe to read there). A probe looks at those accesses for a second: a
// thread that writes, or reads more than a few addresses, is moving and the launch goes on; one
// that keeps reading the same few spins. A stop ends each block at its next access with a report
// of where its threads are (the thread leaves its frames: Worker::fail_thread). A thread that
// makes no access simt sees cannot be stopped that way: after a grace period the watchdog
// reports what it knows and ends the process.
#pragma once
#include <atomic>

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "../state/worker.hpp"
#include "../state/grid_run.hpp"
#include "sample.hpp"

namespace simt::sim::detail {


/// Watches a launch while it runs on a stream; the stream thread makes one around run_grid.
class Watched {
public:
    explicit Watched(const KernelLaunch& k);
    ~Watched();
    /// The KernelError a stopped launch ends with: every stopped block, then what to do. Ends the
    /// process (status 130) when the stop was a Ctrl-C.
    [[noreturn]] void rethrow_stopped(const simt::KernelError& first);
    bool stopped() const;

private:
    const KernelLaunch& k_;
};

/// run_grid's part, while its blocks run: the watchdog counts the launch's finished blocks.
/// Its end clears the progress line, before the launch's findings are printed.
class WatchedGrid {
public:
    explicit WatchedGrid(GridRun& g);
    ~WatchedGrid();

private:
    GridRun& g_;
};

/// On a worker, from the out-of-line access path while `stop_requested`: during a probe, notes
/// whether this thread moves; during a stop of the running launch, records where this thread is
/// and ends its block (does not return).
void watchdog_poll(const Allocation* a, const void* p, Access kind, Loc loc);

/// Starts the watchdog thread and the Ctrl-C handler (once, from start_process).
void start_watchdog();

/// What the watchdog knows (watchdog.cpp), guarded by `m`.
struct WatchState {
    using Clock = std::chrono::steady_clock;
    struct Running {
        const KernelLaunch* k;
        Clock::time_point since;
        GridRun* grid = nullptr;                  ///< set while its blocks run (WatchedGrid)
        std::uint64_t progress = 0;               ///< the last sum of its progress counters
        Clock::time_point moved;                  ///< when that sum last changed
        Clock::time_point shown;                  ///< when its progress line was last printed
        bool estimated = false;                   ///< its estimate was taken (sample.hpp)
    };
    std::mutex m;
    std::vector<Running> running;                               ///< launches running, oldest first
    bool interrupt = false;                                     ///< the stop is a Ctrl-C
    bool line_shown = false;          ///< a progress line is on the terminal, not yet cleared
    Clock::time_point stop_since;
    std::vector<std::pair<std::uint64_t, std::string>> blocks;  ///< what each stopped block did
    /// The sample of a long launch's blocks whose answer the estimate line waits for: one at a
    /// time, dropped when its launch's blocks end.
    std::unique_ptr<BlockSample> sample;
};

}  // namespace simt::sim::detail
