// The blocks of a checked launch, taking turns when one waits on another through memory.
//
// A checked launch runs its blocks one at a time, in block order (Checkers::serial): the shadow
// cells need no atomics and the reports do not depend on the core count. A block that spins on a
// flag or a lock another block will set, the lock held or the flag not yet set by a block that
// has not run, would wait for ever. So a block none of whose threads can go on until memory
// changes (block/spin.cpp) hands its turn on, and waits on an OS thread of its own (its fibers,
// shared memory and blockIdx are that thread's: launch/cooperative.hpp says why a block needs
// one). Still one block runs at a time, and who runs next is decided by a fixed rule, so the run
// and its reports do not depend on timing or on the core count:
//  1. the lowest-numbered waiting block whose spun-on memory has changed;
//  2. else the next block not yet started, on a pool thread (TurnThreads);
//  3. else the waiting blocks in turn, from the one after the block that gave up its turn: each
//     spins a while longer (block/spin.cpp), and declares a deadlock when still nothing changes.
// A launch whose blocks never spin on each other runs exactly as before, on the launch's thread.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <vector>

#include "../state/block.hpp"
#include "../state/grid_run.hpp"

namespace simt::sim::detail {

class BlockTurns final : public OtherBlocks {
public:
    explicit BlockTurns(GridRun& g) : g_(g) {}
    /// Runs every block of the launch; returns when all have ended. On the launch's thread.
    void run();
    /// On the worker of block `b`, none of whose threads can go on until memory changes: lets the
    /// other blocks run, and returns when the turn comes back to `b`.
    void wait_for_others(const BlockState& b) override;

private:
    /// An OS thread waiting for the turn: a block in wait_for_others, or a runner between blocks.
    struct Seat {
        std::condition_variable cv;
        bool go = false;    ///< it holds the turn
        bool quit = false;  ///< a runner with nothing left to start
        const BlockState* block = nullptr;
    };
    /// Starts blocks one after another while it holds the turn; gives it up when none is left.
    void runner(std::unique_lock<std::mutex>& lock);
    /// The turn goes from `from` (a waiting seat, or null for a runner that leaves) to the next.
    void pass_turn(Seat* from);
    bool can_start() const;

    GridRun& g_;
    std::mutex m_;
    std::condition_variable done_;
    std::uint64_t next_ = 0;       ///< the next block to start
    std::vector<Seat*> waiting_;   ///< blocks in wait_for_others, by block number
    std::vector<Seat*> idle_;      ///< runners waiting for the turn to start the next block
    unsigned runners_ = 0;         ///< pool runners not yet finished
};

}  // namespace simt::sim::detail
