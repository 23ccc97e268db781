// The running block: its threads' state (the thread loop's LazyThreads and the rest), its warps'
// meetings, its barrier, and the errors that end it.
//
// Ground rules:
//  - A block runs on one worker (an OS thread inside the TBB arena) from start to end; its CUDA
//    threads are fibers on that worker and never migrate, so block state needs no locks.
//  - Lazy fibers: threads run one after another on a runner fiber; a thread that blocks (barrier,
//    warp intrinsic) keeps the fiber it is on, and the next thread starts on another fiber.
//  - Only the grid level (TBB, findings, errors) and streams share state across OS threads.
#pragma once
#include <simt/simt.hpp>

#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../report/text.hpp"
#include "schedule.hpp"

namespace simt::sim::detail {

/// Lanes of one warp meeting in a warp intrinsic with one mask. A coalesced_threads() meeting
/// (op coalesce) has no mask yet: the lanes that reach its site form it (warp.cpp).
struct WarpMeeting {
    unsigned mask = 0, arrived = 0;
    WarpOp op = WarpOp::sync;
    Loc site;
    const char* what = "";  ///< the call as reports name it, e.g. "__shfl_sync()"
};

/// Threads of one tile of several warps (thread_block_tile<64> .. <512>) meeting in one of its
/// collectives (warp/tile.cpp): each leaves its value, and each gets all of them, by rank in the
/// tile, in `values`, which they hold until they have read it: the next meeting has its own.
struct TileMeeting {
    unsigned first = 0, size = 0, arrived = 0;
    bool orders = false;  ///< a sync(): racecheck takes it as the tile's barrier
    Loc site;
    const char* what = "";
    std::shared_ptr<std::vector<std::uint64_t>> values;
    std::vector<bool> came;  ///< by rank in the tile, for a deadlock's report
};

struct WarpState {
    std::vector<WarpMeeting> open;
    std::uint64_t value[32] = {}, result[32] = {};
    int arg[32] = {}, width[32] = {};
};

/// Thrown into a blocked thread when its block is abandoned (deadlock, another thread's error):
/// unwinds the kernel's frames so the fiber can return to the pool.
struct BlockAborted {};

/// A deadlock as data (report/draft.hpp); report/format.cpp writes its finding and its
/// KernelError (deadlock_message).
using Deadlock = DeadlockDraft;

/// Whether `ts` waits at its block's barrier (and so is what a release wakes).
inline bool waits_at_barrier(const ThreadState& ts) {
    return ts.status == Status::waiting && ts.wait == WaitKind::block;
}

struct GridRun;
class Checker;
class CoopGrid;

/// A thread's last atomic or volatile read (block/spin.cpp): where, of what, and what it found. A
/// read that finds the same again is a spin.
struct SpinWatch {
    const void* pc = nullptr;
    const void* address = nullptr;
    std::uint64_t value = 0;
    std::uint64_t epoch = 0;  ///< the worker's block (tls::block_epoch) it was made in
    unsigned size = 0;
    unsigned grace = 0;       ///< spins to make without waiting (a loop that reads a constant)
    unsigned op = 0;          ///< spin_point's: which operation read
};

struct BlockState;

/// What a block none of whose threads can go on until memory changes asks of its launch: to let
/// the other blocks run, returning when its turn comes back (launch/turns.hpp's BlockTurns, in a
/// checked launch). Declared here so that block/ need not know the launch.
class OtherBlocks {
public:
    virtual void wait_for_others(const BlockState& b) = 0;

protected:
    ~OtherBlocks() = default;
};

/// The block a worker is running. Reused from block to block to keep allocations out of the loop.
/// Its thread loop's part (threads, next_lazy, live, arrived) is LazyThreads (thread_loop.hpp).
struct BlockState : LazyThreads {
    GridRun* grid = nullptr;
    uint3 idx{};
    std::uint64_t linear = 0;
    std::vector<ThreadState> thread_storage;  ///< `threads` points here
    dim3 numbered_for{0, 0, 0};   ///< the block shape thread_storage's idx and linear were set for
    /// Entries of thread_storage from here on have status `live`: a block resets only those
    /// below (a plain run leaves its threads' statuses as they were).
    std::size_t statuses_live_from = 0;
    ThreadSchedule schedule;      ///< who starts and resumes next
    unsigned waiting = 0;

    // The block barrier (`arrived` counts its waiting threads).
    unsigned bar_true = 0;
    bool bar_mismatch = false;
    Loc bar_site;
    int result_count = 0, result_participants = 0;

    // grid.sync() (launch/cooperative.cpp): threads of this block waiting there.
    unsigned grid_arrived = 0;
    bool grid_mismatch = false;
    Loc grid_site;

    bool lanes_grouped = false;   ///< a warp intrinsic set some thread's `active` or `group`
    std::vector<ThreadState*> ready;
    std::size_t ready_head = 0;
    /// Under the in-order schedule a barrier releases its threads as a range rather than as
    /// `ready` entries: the threads from released_next to released_end that still wait at the
    /// block barrier resume first, in order, then `ready` (empty at the release). A release is
    /// then two stores instead of a push per thread, and each thread's status is set as it
    /// resumes. Pointers, not indices: the resume reads the next one with no arithmetic.
    ThreadState *released_next = nullptr, *released_end = nullptr;

    /// True for thread `t` while it is released from the barrier but not yet resumed: no longer
    /// waiting, though its status still says so.
    bool released(unsigned t) const {
        const ThreadState* ts = &threads[t];
        return ts >= released_next && ts < released_end && waits_at_barrier(*ts);
    }
    /// The threads that wait, less those released and not yet resumed.
    unsigned still_waiting() const {
        unsigned n = waiting;
        for (const ThreadState* ts = released_next; ts < released_end; ++ts)
            n -= waits_at_barrier(*ts);
        return n;
    }
    std::vector<WarpState> warps;
    std::vector<TileMeeting> tiles;  ///< open meetings of tiles of several warps

    bool aborted = false;
    std::string error;
    cudaError_t error_code = cudaErrorLaunchFailure;  ///< what a GPU would report for `error`
    std::optional<FindingKey> error_finding;          ///< the finding `error` repeats, if any
    std::vector<PendingFinding> findings;
    std::size_t shared_bytes = 0;  ///< static shared memory used so far by this block

    // Spins (block/spin.cpp): each thread's last atomic or volatile read, by thread; how many
    // times in a row the block found that no thread of it could go on and no spun-on memory had
    // changed.
    std::vector<SpinWatch> spins;
    unsigned still_rounds = 0;
    /// The launch's other blocks, where they take turns (a checked launch); null elsewhere, where
    /// a spin is the watchdog's to judge.
    OtherBlocks* others = nullptr;

    /// Makes this the fresh state of block `linear` of `g`, keeping what may be kept from the
    /// block before it on this worker (the threads' coordinates, for one shape; storage).
    void reset(GridRun& g, std::uint64_t linear);

private:
    /// Sets the threads' coordinates, once per block shape.
    void number_threads();
};

/// The running thread `ts` of `b` starts waiting (at a barrier, a warp meeting, grid.sync()) at
/// `site`, as a deadlock report will name it; the caller then gives up its fiber.
inline void start_waiting(BlockState& b, ThreadState& ts, WaitKind kind, Loc site,
                          const char* what) {
    settle_plain_run(b, ts.linear);
    ts.status = Status::waiting;
    ts.wait = kind;
    ts.site = site;
    ts.what = what;
    ++b.waiting;
}

/// Thread `ts`, waiting in `b`, is released: it runs again once resumed (its status is what
/// the deadlock report and the watchdog read).
inline void stop_waiting(BlockState& b, ThreadState& ts) {
    ts.status = Status::live;
    ts.wait = WaitKind::none;
    --b.waiting;
}

/// Sets the built-in coordinates for a thread about to resume, before the switch to it, so that
/// the thread itself has nothing to restore (run_threads sets them for a thread that starts).
/// Every resume of a blocked thread is a pop from the ready queue (Worker::pop_ready), which
/// calls this. Its status was set when it was released (make_ready).
inline void enter(ThreadState& ts) {
    tls::thread = &ts;
    threadIdx = ts.idx;
}

/// Whether two locations name one place in the source. Asked at every barrier arrival: one call
/// site's location is one object the compiler emitted, so equal pointers settle the usual case.
inline bool same_site(Loc a, Loc b) {
    static_assert(sizeof(Loc) == sizeof(const void*), "std::source_location is one pointer");
    if (std::bit_cast<const void*>(a) == std::bit_cast<const void*>(b)) return true;
    return a.line() == b.line() && a.column() == b.column() &&
           (a.file_name() == b.file_name() || std::strcmp(a.file_name(), b.file_name()) == 0);
}

/// The threads of a block waiting at one place (a barrier or a warp intrinsic at one line).
struct WaitGroup {
    bool block;  ///< a __syncthreads form, not a warp intrinsic
    const char* what;
    Loc site;
    std::vector<unsigned> ids;
};
/// The block's waiting threads, grouped by place, in order of their lowest thread.
std::vector<WaitGroup> waiting_groups(const BlockState& b);
/// A group as a deadlock report names it (report/text.hpp's waiting_text writes it).
DeadlockDraft::Waiting waiting_of(const WaitGroup& g);

}  // namespace simt::sim::detail
