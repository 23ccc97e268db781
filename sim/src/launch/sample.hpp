// A sample of a long launch's own blocks, run in a forked copy of the process with the checks
// off: what the launch would take with SIMT_CHECK=none, measured, and what the time model
// predicts for the GPU from their counts, whether or not SIMT_PROFILE is set.
//
// The watchdog (watchdog.cpp) takes one when a checked launch shows it will run long. fork()
// copies the process as it is at that moment, from the watchdog thread, the one thread the copy
// has. There the sample
//  1. runs the same launch under SIMT_CHECK=none's Config (memcheck only, no shadow cells),
//     blocks not yet finished, spread over them, one after another on its own thread (the copy
//     has no oneTBB threads), and sends the CPU time each took (its thread's: the launch
//     running on beside it on every core does not count);
//  2. runs a few more with the profiler's counting on, as SIMT_PROFILE has it, and sends the
//     time model's prediction for the whole launch from their counts (check/checker.hpp's
//     predict_running);
//  3. ends with _exit: no atexit handler, no second flush of the stdio buffers it inherited.
// Its stdout and stderr are /dev/null, and what it writes into memory is its own copy
// (copy-on-write): the launch it was copied from, its results and its reports, are unchanged.
// A copy that does not answer in time (blocks that wait on each other, a lock another thread
// held at the fork) is killed; one whose parent ends dies with it. While it lives, the first
// write to each page by either process copies that page: memory the launch rewrites in those
// seconds is held twice, and should memory run out, the copy is what the kernel ends first.
#pragma once
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "../device/timing.hpp"
#include "../state/grid_run.hpp"

namespace simt::sim::detail {

class BlockSample {
public:
    using Clock = std::chrono::steady_clock;
    /// How long the copy is waited for, from the fork.
    static constexpr auto limit = std::chrono::milliseconds(3000);

    /// Forks the copy that samples `g`, whose blocks are running: on the watchdog thread, while
    /// `g` lives. Returns at once; forked() is false where no copy could be made.
    explicit BlockSample(const GridRun& g);
    /// Kills the copy if it still runs, and reaps it.
    ~BlockSample();
    BlockSample(const BlockSample&) = delete;
    BlockSample& operator=(const BlockSample&) = delete;

    /// Reads what the copy has sent; true once it has sent all, ended, or run out of time.
    bool poll();

    bool forked() const { return pid_ > 0; }
    const GridRun& grid() const { return g_; }
    /// Blocks timed with the checks off, and the CPU time each took on average, in seconds.
    unsigned timed() const { return timed_; }
    double block_seconds() const { return timed_ ? seconds_ / timed_ : 0; }
    /// The prediction for the whole launch, and the blocks it was counted on.
    const std::optional<TimePrediction>& predicted() const { return predicted_; }
    unsigned counted() const { return counted_; }
    /// Seconds since the fork.
    double waited() const;

private:
    void read_messages();

    const GridRun& g_;
    Clock::time_point since_;
    pid_t pid_ = -1;
    int fd_ = -1;
    bool done_ = false;
    std::string buffer_;  ///< bytes of a message not yet whole
    unsigned timed_ = 0;
    double seconds_ = 0;
    std::optional<TimePrediction> predicted_;
    unsigned counted_ = 0;
};

/// The workers an unchecked run of `g` would spread its blocks over.
unsigned unchecked_workers(const GridRun& g);

}  // namespace simt::sim::detail
