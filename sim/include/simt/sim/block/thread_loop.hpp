// The loop that runs a block's threads one after another, instantiated with each kernel's call.
//
// A thread that never meets a barrier or a warp intrinsic needs nothing of the simulator but its
// coordinates, so the loop is a template: the compiler sees the kernel's body (when the launch
// knows it, as a <<<>>> launch does) and the few stores a thread costs, with no call in between.
// A thread that blocks switches fibers inside the kernel; the thread after it is started by the
// same loop on another fiber (sim/src/block/executor.cpp), so the loop keeps its position in the
// block (LazyThreads), never in locals.
//
// The plain run: when a block's first thread ends without blocking, the others run in a plain
// nested loop over (z, y, x), as HIP-CPU runs a block, with the bookkeeping of a thread that
// ends (its status, the block's live count) deferred to the end of each piece of up to 32
// threads. Its coordinates are the loop's values: with the kernel inlined the compiler forwards
// the store to threadIdx.x into the body's reads, so a thread costs no load of it (GCC 12 keeps
// the store itself, and the one to tls::thread, in the loop; it may also sink them). A thread of
// the run that does reach a barrier or a warp intrinsic (or throws, or faults) first settles the
// deferred bookkeeping (settle_plain_run) and stops the run after itself; the threads after it
// start the usual way. Vectorising the loop is the compiler's choice: it cannot where the kernel
// indexes with `blockIdx.x * blockDim.x + threadIdx.x` in 32 bits (the sum may wrap) or stores
// under a bounds test, which is every kernel of bench/ (docs/simulator.md).
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include <cstdint>

#include "simt/sim/block/leave.hpp"
#include "simt/sim/check/access.hpp"
#include "simt/sim/location.hpp"
#include "simt/sim/thread/context.hpp"
#include "simt/sim/vector_types.hpp"

namespace simt::sim::detail {

struct FiberSlot;

/// Where a thread is. `live` covers not started, running and released to run: the loop below
/// starts a thread without a store to say so, a released thread resumes without one, and
/// nothing needs to tell them apart (the watchdog counts the unstarted from `next_lazy`).
enum class Status : std::uint8_t { live, waiting, done };
/// What a waiting thread waits for: a block barrier, a warp meeting, grid.sync(), or memory it
/// spins on to change (block/spin.cpp).
enum class WaitKind : std::uint8_t { none, block, warp, grid, spin };

/// One CUDA thread of the running block.
struct ThreadState {
    uint3 idx{};               ///< set once per block shape (executor.cpp), with `linear`
    unsigned linear = 0;
    Status status = Status::done;
    WaitKind wait = WaitKind::none;
    FiberSlot* fiber = nullptr;  ///< set when it blocks
    Loc site;                  ///< where it waits
    const char* what = "";     ///< what it waits in, e.g. "__syncthreads()"
    unsigned active = 0;       ///< its warp's live lanes when it left its last warp intrinsic
    unsigned group = 0;        ///< lanes released with it from a warp intrinsic, until one resumes
};

/// The running block as its thread loop sees it (the rest is BlockState, in the runtime).
struct LazyThreads {
    ThreadState* threads = nullptr;
    const unsigned* order = nullptr;  ///< the schedule's start order; null when in order
    unsigned nthreads = 0;
    unsigned next_lazy = 0;           ///< how many threads have started
    unsigned live = 0;                ///< threads not yet exited
    unsigned arrived = 0;             ///< threads waiting at the block barrier
    /// Whether this block may run its threads as a plain run (run_block decides: threads start
    /// in order, and nothing that looks at every access or every thread's status is on).
    bool plain = false;
    /// While a plain run goes: its first thread. Threads from there to the running one have
    /// ended, but only those before `next_lazy` are counted out of `live`, and none is marked
    /// done (settle_plain_run does both).
    unsigned run_first = 0;
    /// While a plain run goes; settle_plain_run clears it, which ends the run after its thread.
    bool plain_running = false;
    /// How many of the block's first threads may have had their status written: all of them,
    /// unless a plain run ended the block, which writes none of its own.
    unsigned statuses_written = 0;
};

/// Makes the block's state exact again when a thread of a plain run (`running`, the thread that
/// called into the simulator) is about to block, leave, or look at other threads: the threads
/// before it are marked done and counted out, it counts as started, and the run ends when it
/// returns. Cheap when no run goes: one load and a branch.
void settle_plain_run_slow(LazyThreads& b, unsigned running);
inline void settle_plain_run(LazyThreads& b, unsigned running) {
    if (b.plain_running) [[unlikely]] settle_plain_run_slow(b, running);
}

/// Runs the block's unstarted threads, each calling the kernel (run_threads, below): a launch's
/// type-erased kernel call (launch/launch.hpp).
using RunThreads = void (*)(const void* closure, LazyThreads& block);

/// A launch's kernel call as a block's thread loop knows it: the closure and its `run`.
struct RunningCall {
    const void* closure;
    RunThreads run;
    bool operator==(const RunningCall&) const = default;
};
/// The running thread's threadIdx, writable, for the thread loop of a file built with the
/// raw-access instrumentation, which sees threadIdx read-only (vector_types.hpp).
uint3& thread_index();
/// Parks the calling fiber, whose block has started every thread, until a block needs it to start
/// threads again; the next thread resumes meanwhile (sim/src/block/executor.cpp). Returns the
/// switch for the caller to make (leave.hpp).
FiberLeave park_after_threads();
/// The kernel call of the block now running, for a fiber taken again after it parked.
RunningCall running_call();

/// What ends a thread that threw: the block is abandoned with the exception's text, unless the
/// exception is the simulator's own unwinding (rethrown). Called inside the catch handler.
void thread_threw(ThreadState& ts);
/// A thread exited while others wait at the block barrier: it may be the one they wait for.
void thread_exited_while_others_wait();

/// The end of a thread started by the loops below, `ts` having returned or thrown.
[[gnu::always_inline]] inline void thread_ended(ThreadState& ts, LazyThreads& b) {
    ts.status = Status::done;
    --b.live;
    if (b.arrived != 0) [[unlikely]] {
        tls::thread = nullptr;
        thread_exited_while_others_wait();
    }
}

#ifndef __SANITIZE_THREAD__
/// Runs threads `b.next_lazy` onwards as a plain run (above), until the block's last thread or
/// until a thread of it settles the run. Not with the raw-access instrumentation: every access of
/// an instrumented kernel asks tls::thread, so its threads cost a call and a store each anyway.
/// Which thread a fault names: in a kernel free of calls the compiler may move or drop the store
/// to tls::thread, so a fault (a bad pointer in an UNCHECKED build) may name another thread; its
/// message adds the piece of 32 threads the fault was in (abort_block in executor.cpp). Every
/// call into the simulator (a barrier, printf, a throw, an assert) has the exact thread.
/// Exactness there would take a store the compiler must keep, which no loop can vectorise.
template <class Call>
struct PlainRun {
    /// Threads `t` (at x) to the one at `end` of the row threadIdx.y and .z name; false when a
    /// thread stopped the run.
    [[gnu::always_inline]] static bool piece(const Call& call, LazyThreads& b, unsigned t,
                                             unsigned x, unsigned end) {
        ThreadState* const threads = b.threads;
        const unsigned from = t;
        for (; x < end; ++x, ++t) {
            tls::thread = &threads[t];
            threadIdx.x = x;  // .y and .z change only between rows (run, below)
            try {
                call();
            } catch (...) {
                thread_threw(threads[t]);
            }
            // Cleared only by a call into the simulator (settle_plain_run): with the kernel
            // inlined and free of calls, the compiler takes this test out of the loop.
            if (!b.plain_running) [[unlikely]] {
                thread_ended(threads[t], b);
                return false;
            }
        }
        // Pieces of up to 32 threads: the watchdog sees the block move between them, and a fault
        // names the piece it was in (abort_block); the barrier keeps the compiler from moving
        // these stores out of the loop of pieces.
        b.live -= t - from;
        b.next_lazy = t;
        asm volatile("" ::: "memory");
        return true;
    }

    static void run(const Call& call, LazyThreads& b) {
        b.plain_running = true;
        b.run_first = b.next_lazy;
        const unsigned dx = blockDim.x, dy = blockDim.y, dz = blockDim.z;
        unsigned t = b.next_lazy;
        unsigned x = t % dx, y = t / dx % dy, z = t / dx / dy;
        for (; z < dz; ++z, y = 0)
            for (; y < dy; ++y, x = 0) {
                threadIdx.y = y;
                threadIdx.z = z;
                while (x < dx) {
                    const unsigned end = dx - x < 32 ? dx : x + 32;
                    if (!piece(call, b, t, x, end)) return;
                    t += end - x;
                    x = end;
                }
            }
        b.plain_running = false;
        b.statuses_written = b.run_first;
    }
};
#endif

/// Starts the block's threads that have not started, one after another on the calling fiber,
/// each running `call` to its end (or until it blocks: then this fiber stays with it).
/// A thread that does not block costs the stores below and nothing else: its status is written
/// only when it exits, and its fiber only when it blocks (executor.cpp). At a few ns per thread
/// each store shows in `./lab bench` (docs/simulator.md, "The thread loop as a template"). When the
/// block allows a plain run and its first thread ends without blocking, the others run as one
/// (PlainRun). In programs built with the raw-access instrumentation (cmake/simt.cmake) the loop
/// itself is not instrumented: its bookkeeping is the simulator's, not the kernel's. The kernel is
/// then called, not inlined, and stays instrumented.
///
/// Once every thread has started, the fiber parks here rather than in the caller's frames: in a
/// kernel whose every thread blocks, each thread starts on a fiber of its own, and leaving this
/// frame and entering it again cost about a quarter of a thread at one barrier. `self` is the
/// launch's call (KernelClosure::run's): when the fiber is taken again for a block of the same
/// call, it starts that block's threads from here; for another, it returns, and the fiber's loop
/// runs the other's.
template <class Call>
[[gnu::no_sanitize_thread]] void run_threads(const Call& call, LazyThreads& b, RunningCall self) {
    do {
#ifndef __SANITIZE_THREAD__
        bool first = b.plain && b.next_lazy == 0;
#endif
        while (b.next_lazy < b.nthreads) {
            ThreadState& ts = b.threads[b.order ? b.order[b.next_lazy] : b.next_lazy];
            ++b.next_lazy;
            tls::thread = &ts;
#ifdef __SANITIZE_THREAD__
            thread_index() = ts.idx;  // read-only here (vector_types.hpp)
            // An instrumented kernel reads these only through simt's entry points (`__tsan_*`),
            // which GCC takes to read no program memory: without this, it drops the stores as
            // dead when it sees the whole kernel (a <<<>>> launch's call is in the same file).
            // Elsewhere the barrier would cost a quarter of a barrier-free thread: the compiler
            // could no longer keep blockIdx and the kernel's arguments in registers across
            // threads.
            asm volatile("" ::: "memory");
#else
            threadIdx = ts.idx;
#endif
            try {
                call();
            } catch (...) {
                thread_threw(ts);
            }
            thread_ended(ts, b);
#ifndef __SANITIZE_THREAD__
            // Still 1 only if the first thread never gave up this fiber: had it blocked, every
            // other thread would have started before it resumed.
            if (first && b.next_lazy == 1 && b.next_lazy < b.nthreads) PlainRun<Call>::run(call, b);
            first = false;
#endif
        }
        tls::thread = nullptr;
        if (FiberLeave l = park_after_threads(); l.resume) simt_fiber_switch(l.save, l.resume);
    } while (running_call() == self);
}

}  // namespace simt::sim::detail
