// The watchdog: a launch that runs past SIMT_TIMEOUT, or a Ctrl-C, stops with where every thread is.
//
// How a running kernel is stopped without a cost on the hot path: the access hook already tests
// one thread-local flag per access (shadow checks on or off) before its out-of-line path. The
// watchdog thread sets that flag on every worker, so the next access of a spinning thread goes
// out of line, where `watchdog_poll` ends the thread's block with a report made on the worker
// itself (its block's state is only safe to read there). A thread that makes no access simt
// sees cannot be stopped that way: after a grace period the watchdog reports what it knows and
// ends the process.
#pragma once
#include <atomic>

#include <chrono>
#include <mutex>
#include <utility>
#include <vector>

#include "../runtime.hpp"

namespace simt::sim::detail {

/// True while a launch is being stopped; the out-of-line access path polls it.
inline std::atomic<bool> stop_requested{false};

/// Times a launch while it runs on a stream; the stream thread makes one around run_grid.
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

/// Registers a worker's out-of-line flag, which the watchdog sets to stop a launch.
void watchdog_register(std::atomic<bool>* out_of_line);

/// On a worker, from the out-of-line access path while `stop_requested`: if the running launch
/// is being stopped, records where this thread is and ends its block (does not return).
void watchdog_poll(const Allocation* a, const void* p, Access kind, Loc loc);

/// Starts the watchdog thread and the Ctrl-C handler (once, from start_process).
void start_watchdog();

/// What the watchdog knows (watchdog.cpp), guarded by `m`.
struct WatchState {
    using Clock = std::chrono::steady_clock;
    struct Running {
        const KernelLaunch* k;
        Clock::time_point since;
    };
    std::mutex m;
    std::vector<Running> running;                               ///< launches running, oldest first
    std::vector<std::atomic<bool>*> flags;                      ///< each worker's out-of-line flag
    bool interrupt = false;                                     ///< the stop is a Ctrl-C
    Clock::time_point stop_since;
    std::vector<std::pair<std::uint64_t, std::string>> blocks;  ///< what each stopped block did
};

}  // namespace simt::sim::detail
