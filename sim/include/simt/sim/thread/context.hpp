// The current thread: what the OS thread is running now, in one place.
//
// A block runs on one OS thread (a worker) from start to end and its fibers never migrate, so
// what is per OS thread is exactly "the running block" and "the running CUDA thread". The
// access hooks, the thread loop and shared memory read it on every access or thread; everything
// else of a block (its threads' statuses, barrier, warps) is the worker's BlockState, reached
// through `worker`. CUDA's own names (threadIdx, blockIdx, blockDim, gridDim) stay variables of
// their own (vector_types.hpp) so that kernels read them as CUDA spells them. What one checker
// keeps per OS thread (racecheck's block stamp, the profiler's counters) is that checker's.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include <atomic>
#include <cstdint>

namespace simt::sim::detail {

struct ThreadState;
struct Worker;

/// Each field is a thread_local of its own, grouped here rather than one thread_local object:
/// GCC reaches a field of a thread_local object through a base register (and an atomic field
/// through an address built with two more instructions), where a variable of its own is one
/// %fs-relative load or store. The access hooks and the thread loop read these for every access
/// and every thread. Read as `tls::thread`, `tls::shadow_checks`, ...
struct ThreadContext {
    ThreadContext() = delete;

    /// The CUDA thread running on this OS thread; null on the host and between threads.
    static inline thread_local ThreadState* thread = nullptr;
    /// The worker that runs blocks on this OS thread (block/worker.hpp); null until it runs one.
    static inline thread_local Worker* worker = nullptr;
    /// The slow-path flag: true while a launch with any shadow checker runs here, or while the
    /// watchdog stops a launch (it sets it from its own thread, so that the next access goes out
    /// of line, where the watchdog is polled).
    static inline thread_local std::atomic<bool> shadow_checks{false};
    /// True while the running launch has racecheck (or initcheck) as its only checker wanting
    /// accesses: the hooks then call the race rule directly (check/checker.hpp, race_access).
    static inline thread_local bool race_direct = false;
    /// True while a launch runs under SIMT_SCHEDULE=interleave (memory/ref.hpp's rmw_point).
    static inline thread_local bool interleave = false;
    /// The devices whose cudaMalloc'd memory the running kernel reaches (bit d: device d): its
    /// own and its peers', set as each block starts.
    static inline thread_local std::uint16_t reachable_devices = 1;
    /// The address of the element a view has just checked, in code built with the raw-access
    /// instrumentation: the instrumented load or store that follows skips its own check of it.
    static inline thread_local const void* view_access = nullptr;
    /// Counts blocks started on this OS thread; a shared array whose epoch differs is stale.
    static inline thread_local std::uint64_t block_epoch = 0;
};

/// This OS thread's context.
using tls = ThreadContext;

}  // namespace simt::sim::detail
