// The current thread: what the OS thread is running now, in one place.
//
// A block runs on one OS thread (a worker) from start to end and its fibers never migrate, so
// one object per OS thread is exactly "the running block" and "the running CUDA thread". The
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

struct ThreadContext {
    /// The CUDA thread running on this OS thread; null on the host and between threads.
    ThreadState* thread = nullptr;
    /// The worker that runs blocks on this OS thread (block/worker.hpp); null until it runs one.
    Worker* worker = nullptr;
    /// The slow-path flag: true while a launch with any shadow checker runs here, or while the
    /// watchdog stops a launch (it sets it from its own thread, so that the next access goes out
    /// of line, where the watchdog is polled).
    std::atomic<bool> shadow_checks{false};
    /// True while the running launch has racecheck (or initcheck) as its only checker wanting
    /// accesses: the hooks then call the race rule directly (check/checker.hpp, race_access).
    bool race_direct = false;
    /// True while a launch runs under SIMT_SCHEDULE=interleave (memory/ref.hpp's rmw_point).
    bool interleave = false;
    /// Set only by a call into the simulator while a block's plain run goes (thread_loop.hpp):
    /// the run ends after the thread that made the call.
    bool plain_run_stopped = false;
    /// The devices whose cudaMalloc'd memory the running kernel reaches (bit d: device d): its
    /// own and its peers', set as each block starts.
    std::uint16_t reachable_devices = 1;
    /// The address of the element a view has just checked, in code built with the raw-access
    /// instrumentation: the instrumented load or store that follows skips its own check of it.
    const void* view_access = nullptr;
    /// Counts blocks started on this OS thread; a shared array whose epoch differs is stale.
    std::uint64_t block_epoch = 0;
};

/// This OS thread's context. Constant-initialised, so reading it costs one TLS load, with no
/// wrapper call.
inline thread_local ThreadContext tls;

}  // namespace simt::sim::detail
