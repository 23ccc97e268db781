// The loop that runs a block's threads one after another, instantiated with each kernel's call.
//
// A thread that never meets a barrier or a warp intrinsic needs nothing of the simulator but its
// coordinates, so the loop is a template: the compiler sees the kernel's body (when the launch
// knows it, as a <<<>>> launch does) and the few stores a thread costs, with no call in between.
// A thread that blocks switches fibers inside the kernel; the thread after it is started by the
// same loop on another fiber (sim/src/block/executor.cpp), so the loop keeps its position in the
// block (LazyThreads), never in locals.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include <cstdint>

#include "simt/sim/check/access.hpp"
#include "simt/sim/location.hpp"
#include "simt/sim/vector_types.hpp"

namespace simt::sim::detail {

struct FiberSlot;

/// Where a thread is. `live` covers not started, running and released to run: the loop below
/// starts a thread without a store to say so, a released thread resumes without one, and
/// nothing needs to tell them apart (the watchdog counts the unstarted from `next_lazy`).
enum class Status : std::uint8_t { live, waiting, done };
enum class WaitKind : std::uint8_t { none, block, warp, grid };

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
};

/// What ends a thread that threw: the block is abandoned with the exception's text, unless the
/// exception is the simulator's own unwinding (rethrown). Called inside the catch handler.
void thread_threw(ThreadState& ts);
/// A thread exited while others wait at the block barrier: it may be the one they wait for.
void thread_exited_while_others_wait();

/// Starts the block's threads that have not started, one after another on the calling fiber,
/// each running `call` to its end (or until it blocks: then this fiber stays with it).
/// A thread that does not block costs the stores below and nothing else: its status is written
/// only when it exits, and its fiber only when it blocks (executor.cpp). At a few ns per thread each store shows in `./lab bench`
/// (docs/simulator.md, "The thread loop as a template").
/// In programs built with the raw-access instrumentation (cmake/simt.cmake) the loop itself is
/// not instrumented: its bookkeeping is the simulator's, not the kernel's. The kernel is then
/// called, not inlined, and stays instrumented.
template <class Call>
[[gnu::no_sanitize_thread]] void run_threads(const Call& call, LazyThreads& b) {
    while (b.next_lazy < b.nthreads) {
        ThreadState& ts = b.threads[b.order ? b.order[b.next_lazy] : b.next_lazy];
        ++b.next_lazy;
        tls_thread = &ts;
        threadIdx = ts.idx;
#ifdef __SANITIZE_THREAD__
        // An instrumented kernel reads these only through simt's entry points (`__tsan_*`),
        // which GCC takes to read no program memory: without this, it drops the stores as dead
        // when it sees the whole kernel (a <<<>>> launch's call is in the same file). Elsewhere
        // the barrier would cost a quarter of a barrier-free thread: the compiler could no
        // longer keep blockIdx and the kernel's arguments in registers across threads.
        asm volatile("" ::: "memory");
#endif
        try {
            call();
        } catch (...) {
            thread_threw(ts);
        }
        ts.status = Status::done;
        --b.live;
        if (b.arrived != 0) [[unlikely]] {
            tls_thread = nullptr;
            thread_exited_while_others_wait();
        }
    }
    tls_thread = nullptr;
}

}  // namespace simt::sim::detail
