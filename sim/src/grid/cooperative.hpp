// Cooperative launches: every block of the grid live at once, each on an OS thread of its own,
// taking turns between grid.sync() calls, so that grid.sync() is a real barrier.
//
// Why a thread per block, not every block's fibers on one worker: a block's state lives per OS
// thread in more places than the executor's BlockState. Static __shared__ arrays are
// thread_local storage made fresh per block (memory/shared.hpp), dynamic shared memory is the
// worker's, and blockIdx, racecheck's block stamp and synccheck's counters are thread_local.
// Two live blocks on one worker would share their shared memory. On threads of their own, each
// block still runs on one worker from start to end, and all of that holds unchanged.
//
// Why turns: one block runs at a time, in block order, from its start or a grid.sync() to its
// next grid.sync() or its end; the last block to arrive releases the barrier and block 0 goes on.
// The shadow cells stay single-threaded as racecheck requires, a grid that deadlocks is seen (every
// block has ended or waits, and not all wait), and reports do not depend on the core count. The
// cost is no parallelism inside a cooperative grid, which is small (one block per core, see
// cooperative_grid_limit) and used to learn grid-wide synchronisation, not for speed.
//
// The OS threads are a pool kept for the life of the process (CoopThreads): a Worker is never
// destroyed, so threads made per launch would leak one each.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "../runtime.hpp"

namespace simt::sim::detail {

/// The threads cooperative blocks run on (process state): each job gets a thread of its own at
/// once, and a thread serves job after job.
struct CoopThreads {
    std::mutex m;
    std::condition_variable cv;
    std::deque<std::function<void()>> jobs;
    std::size_t idle = 0;  ///< threads waiting for a job; never fewer than jobs queued
};

/// The blocks of one cooperative launch and the grid barrier between them.
class CoopGrid {
public:
    explicit CoopGrid(GridRun& g);
    /// Runs every block on a pool thread of its own; returns when all have ended.
    void run();
    /// On block b's worker, once every live thread of it waits at grid.sync(): lets the next
    /// block run and waits for the barrier to complete. False when the launch is abandoned
    /// instead: `error` then says why (a block ended without reaching the barrier), or is empty
    /// when another block's error is the launch's.
    bool arrive(BlockState& b, std::string& error);

private:
    enum class State : std::uint8_t { unstarted, running, at_barrier, released, ended };
    void run_block(std::uint64_t i);
    bool pending(std::uint64_t i) const;
    void pass_turn(std::uint64_t from);
    void abandon(std::string message);
    std::string ended_early() const;

    GridRun& g_;
    std::mutex m_;
    std::condition_variable cv_;
    std::vector<State> state_;
    std::uint64_t turn_ = 0;     ///< the one block that may run; nblocks when none
    std::uint64_t arrived_ = 0;  ///< blocks at the barrier
    std::uint64_t ended_ = 0;    ///< blocks that have ended
    std::uint64_t jobs_left_ = 0;
    bool abandoned_ = false;
    std::string why_;             ///< what abandoned blocks at the barrier end with
    std::uint64_t reporter_ = 0;  ///< the block that reports a grid deadlock as a finding
    Loc site_;                    ///< the grid.sync() the first block of this phase reached
};

/// The blocks of `block_threads` threads and `shared_bytes` of dynamic shared memory one
/// multiprocessor of the simulated device holds at once: 1 (a core runs one block at a time, as
/// cudaGetDeviceProperties' maxBlocksPerMultiProcessor says), or 0 when such a block cannot
/// launch at all. cudaOccupancyMaxActiveBlocksPerMultiprocessor answers it.
unsigned blocks_per_multiprocessor(unsigned block_threads, std::size_t shared_bytes);
/// The most blocks a cooperative launch may have: the multiprocessors (the cores, or
/// SIMT_WORKERS) times blocks_per_multiprocessor, as a GPU's limit is its SMs times its occupancy.
std::uint64_t cooperative_grid_limit(unsigned block_threads, std::size_t shared_bytes);

}  // namespace simt::sim::detail
