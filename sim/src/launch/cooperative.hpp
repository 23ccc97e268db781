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
// cost is no parallelism inside a cooperative grid, which is used to learn grid-wide
// synchronisation, not for speed.
//
// A grid may be as large as the modelled GPU holds (cooperative_grid_limit): 108 SMs x 8 blocks of
// 256 threads on an A100, 864 OS threads and 221,184 CUDA threads alive at once. Each block waits
// on a condition variable of its own for its turn, so a turn wakes one thread, not all. The pool
// threads' fibers take their stacks from slabs (Worker::slab_stacks): a guard page per stack would
// pass the kernel's limit of memory mappings. Measured on 2 cores: a full A100 grid with two
// grid.sync() calls runs in about 2 s and 1-1.6 GB; a full T4 grid (40 x 1024) in 0.5 s.
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

#include "../state/worker.hpp"
#include "../state/grid_run.hpp"

namespace simt::sim::detail {

/// The threads cooperative blocks run on (process state): each job gets a thread of its own at
/// once, and a thread serves job after job.
struct CoopThreads {
    std::mutex m;
    std::condition_variable cv;
    std::deque<std::function<void()>> jobs;
    std::size_t idle = 0;  ///< threads waiting for a job; never fewer than jobs queued
};

/// Runs `job` on a thread of pool `p` that takes it at once (a new one when none is idle). The
/// pool's fibers take their stacks from slabs when `slab_stacks` (Worker::slab_stacks).
void post(CoopThreads& p, bool slab_stacks, std::function<void()> job);

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
    void abandon(Deadlock why);
    Deadlock ended_early() const;

    GridRun& g_;
    std::mutex m_;
    std::condition_variable cv_;  ///< the launching thread waits on it for the last block
    /// Block i waits on turn_cv_[i] alone: waking every block at each turn would cost a grid of
    /// n blocks n^2 wake-ups per grid.sync().
    std::vector<std::condition_variable> turn_cv_;
    std::vector<State> state_;
    std::uint64_t turn_ = 0;     ///< the one block that may run; nblocks when none
    std::uint64_t arrived_ = 0;  ///< blocks at the barrier
    std::uint64_t ended_ = 0;    ///< blocks that have ended
    std::uint64_t jobs_left_ = 0;
    bool abandoned_ = false;
    Deadlock why_;                ///< what abandoned blocks at the barrier end with
    std::uint64_t reporter_ = 0;  ///< the block that reports a grid deadlock as a finding
    Loc site_;                    ///< the grid.sync() the first block of this phase reached
};

/// The blocks of `block_threads` threads and `shared_bytes` of dynamic shared memory one
/// multiprocessor of the simulated GPU holds at once, by CUDA's occupancy rule for that GPU
/// (device/occupancy.hpp, registers assumed): 0 when such a block cannot launch at all, above
/// 48 KiB without cudaFuncAttributeMaxDynamicSharedMemorySize raised included.
/// cudaOccupancyMaxActiveBlocksPerMultiprocessor answers it.
unsigned blocks_per_multiprocessor(unsigned block_threads, std::size_t shared_bytes);
/// The most blocks a cooperative launch may have: the model's multiprocessors times
/// blocks_per_multiprocessor, as on the GPU; host cores play no part.
std::uint64_t cooperative_grid_limit(unsigned block_threads, std::size_t shared_bytes);

}  // namespace simt::sim::detail
