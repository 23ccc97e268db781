// A checked launch's blocks tried on every worker, with the report it would have made on one.
//
// Racecheck and initcheck keep one shadow cell per element, which every block of a launch may
// touch; run one block at a time, in block order, their reports cannot depend on the core count
// (Checkers::serial, launch/turns.hpp). Most launches need no such care: their blocks share
// nothing but inputs. So a checked launch is first *tried* on every worker (docs/parallel-
// checking.md), and the attempt is kept only when it ends the way the serial run would have:
//  - no two blocks *met* at an element: one wrote it and another read or wrote it (an atomic is a
//    write). Every race between blocks is such a meeting, and so is every correct cross-block
//    protocol (a flag, a lock, a last-block reduction, an atomic counter): both need the order
//    the serial run gives. Reads of one element by many blocks are no meeting; the race rule
//    keeps, for them, what the serial order would have kept (race.cpp, check_cell_in_attempt).
//  - nothing was found, no block failed, no thread spun on another block's memory, no atomic or
//    volatile access needed the order of fences and atomics, and no thread printed.
// Anything else ends the attempt at once: the thread that saw it leaves its block, the blocks not
// yet started are skipped, everything the attempt touched gets its bytes and shadow cells back
// (each copied before its first access), and the launch runs again one block at a time, exactly
// as it would have without the attempt. What a learner sees is the same either way; only the time
// differs.
//
// An attempt first *owns*: each granule of 32 elements of global memory goes to the first block
// that touches it, which copies the granule then and checks its cells as one block at a time
// does, without a lock; a second block touching it ends the attempt (a meeting, or blocks that
// share granules or inputs). The launch is then tried again with locks: every allocation copied
// whole at its first access, each cell checked under a striped lock, and reads shared by many
// blocks kept as the serial run keeps them (a matrix multiply's inputs).
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "../state/grid_run.hpp"

namespace simt::sim::detail {

/// One launch's attempt. While it lives, `running_attempt` points to it and the race rule takes
/// its parallel path.
class ParallelAttempt final : public OtherBlocks {
public:
    /// `owning`: each granule of global memory (granule_elements elements) goes to the first
    /// block that touches it, which copies it then and checks its cells without a lock; a second
    /// block that touches it ends the attempt (fail_shared). Otherwise every allocation is copied
    /// whole at its first access and each cell checked under its lock, and blocks may share cells
    /// that they only read.
    ParallelAttempt(GridRun& g, bool owning);
    ~ParallelAttempt();
    ParallelAttempt(const ParallelAttempt&) = delete;
    ParallelAttempt& operator=(const ParallelAttempt&) = delete;

    bool failed() const { return failed_.load(std::memory_order_relaxed); }
    /// Whether `g` is the launch this attempt runs.
    bool runs(const GridRun& g) const { return &g == &g_; }
    void fail() { failed_.store(true, std::memory_order_relaxed); }
    bool owning() const { return owning_; }
    /// An owning attempt ends because a block touched a granule of `a` another block holds: the
    /// blocks may share only the granule, not an element, or only what they read, which an
    /// attempt with locks can keep.
    void fail_shared(const Allocation& a) {
        if (!failed_.exchange(true, std::memory_order_relaxed)) shared_at_ = &a;
    }
    /// Whether the attempt ended first at a granule two blocks touched (fail_shared).
    bool ended_shared() const { return shared_at_ != nullptr; }
    /// After undo(): whether the launch is tried owning again, with one-element granules for the
    /// array an owning attempt ended at (it had larger ones); otherwise with locks, if it ended
    /// shared.
    bool again_owning() const { return again_owning_; }
    /// Copies granule `g` of `a` (its bytes, its cells and, in use, its Extras), which the running
    /// block has just claimed in an owning attempt, before the block's first access to it. False
    /// when the copies would pass their budget.
    bool copy_granule(Allocation& a, std::size_t g);
    /// A cell's w holds a read set aside (race.cpp): keep() gives w back.
    void note_aside() {
        if (!asides_.load(std::memory_order_relaxed))
            asides_.store(true, std::memory_order_relaxed);
    }
    /// Copies `a`'s bytes and shadow cells the first time the attempt touches it, before the
    /// access (an owning attempt notes only what copy_granule cannot see: its host_init, and
    /// whether its shadow is new); every later call is one load. False when the copies would pass
    /// the memory the attempt may take (the launch then runs one block at a time).
    bool touch(Allocation& a) {
        if (copied(a)) [[likely]]
            return true;
        return save(a);
    }
    /// Whether `a` was copied already (touch's fast test).
    bool copied(const Allocation& a) const {
        return std::atomic_ref(const_cast<Allocation&>(a).attempt_mark)
                   .load(std::memory_order_acquire) == id_;
    }
    /// After an attempt that holds: the cells as the serial run leaves them. `seconds`: how long
    /// the attempt took, weighed against the run in order for later launches from its site.
    void keep(double seconds);
    /// After a failed attempt: every allocation it touched as it was before the launch, and the
    /// launch's results cleared, for the run one block at a time.
    void undo();
    /// A thread of `b` spins on memory only another block can change: the order of blocks
    /// matters, so the attempt ends (its block is abandoned).
    void wait_for_others(const BlockState& b) override;

private:
    struct Saved;
    bool save(Allocation& a);
    void undo_granules();

    GridRun& g_;
    std::uint32_t id_;
    std::atomic<bool> failed_{false};
    std::atomic<bool> asides_{false};
    std::atomic<const Allocation*> shared_at_{nullptr};
    const bool owning_;
    bool again_owning_ = false;
    std::mutex m_;
    std::vector<std::unique_ptr<Saved>> saved_;
    std::vector<std::byte*> slabs_;  ///< an owning attempt's granule copies (copy_granule)
    bool undone_ = false;
};

/// Elements per granule of an owning attempt (log2), at most: a block of 32, 64 or more threads
/// that each touch their own element holds whole granules. An array gets smaller ones where its
/// blocks' shares are smaller (granule_shift_for).
inline constexpr unsigned max_granule_shift = 5;
/// Elements of `a` per granule (log2) in an owning attempt, set when the attempt first touches it.
inline unsigned granule_shift(const Allocation& a) {
    return __atomic_load_n(&a.attempt_granule, __ATOMIC_RELAXED);
}

/// The attempt running now, or null: set only while a checked launch's blocks run on several
/// workers (Checkers::serial is held, so there is at most one).
inline ParallelAttempt* running_attempt = nullptr;

/// Whether launch `g` (with racecheck or initcheck on) may be tried on every worker: every earlier
/// launch happens before it, it is not cooperative, the profiler is off, there is more than one
/// worker and more than one block, the arrays its pointer arguments name fit the copies' budget,
/// and an attempt at its launch site has not failed or cost more than it saved before
/// (`worth_trying`). race.cpp knows the launch order.
bool may_try_in_parallel(const GridRun& g);
/// Whether `bytes` of arrays (with their shadow cells) fit what one attempt may copy.
bool fits_attempt_budget(std::size_t bytes);
/// Whether launches from `g`'s site are worth an attempt: none ended at a meeting, and the
/// latest attempt from the site took less time per block than the latest run in order (the
/// first launch from a site tries; the second runs in order, to compare).
bool worth_trying(const GridRun& g);
/// Whether launches from `g`'s site are first tried owning (ParallelAttempt): none of their
/// attempts ended at a granule two blocks touched, where each array had one-element granules.
/// Notes in `g` the arrays that take one-element granules at the site.
bool worth_owning(GridRun& g);
/// Launch `g` with racecheck or initcheck on ran one block at a time, in `seconds`.
void ran_in_order(const GridRun& g, double seconds);

/// Gives the running checked launch's blocks new ids for their stamps (race.cpp), after an
/// attempt: what the attempt left in its blocks' shared memory cells is then another launch's,
/// which check_cell drops, as it drops an earlier block's.
void renumber_checked_blocks(const GridRun& g);

/// Whether an attempt is running and the running CUDA thread is one of its blocks' (not a host
/// thread's call, nor a block end's check, which leaves its finding to the block).
bool in_attempt();

/// Ends the attempt from the running CUDA thread: its block is abandoned, without an error, and
/// the thread leaves it where it is (as Worker::leave_thread does).
[[noreturn]] void leave_attempt();

}  // namespace simt::sim::detail
