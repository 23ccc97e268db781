// The per-OS-thread part of the simulator: a worker's fibers, the block it runs, what its fault
// handler and the watchdog see of it. Fibers are never destroyed while the program runs: a worker
// keeps them in an idle pool, so a barrier costs one fiber-to-fiber switch per thread and
// starting a fiber is a pool pop.
#pragma once
#include <pthread.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "../fiber/fiber.hpp"
#include "block.hpp"

namespace simt::sim::detail {

/// What the fault handler (thread/signals.cpp) saw on a worker, read by the thread's exit from
/// its fiber: the signal, the address, and the return addresses from the faulting instruction out.
struct FaultRecord {
    int sig = 0;
    const void* addr = nullptr;
    bool write = false;
    bool overflow = false;  ///< into the guard page below the fiber's stack
    const void* pcs[32] = {};
    int npcs = 0;
    bool handling = false;  ///< a fault while reporting one is simt's own: it ends the process
};

/// What the watchdog (thread/watchdog.cpp) reads of a worker: how far its block got, and what
/// its running thread did while the watchdog looked at its accesses (a probe).
struct WorkerWatch {
    std::atomic<bool>* out_of_line = nullptr;  ///< the worker's tls::shadow_checks
    pthread_t os_thread{};                     ///< where the watchdog's sampling signal goes
    /// Where the worker's thread was when that signal came (thread/watchdog.cpp): its next
    /// instruction, and the sample's number (0: none yet).
    std::atomic<const void*> sampled_pc{nullptr};
    std::atomic<std::uint64_t> sampled{0};
    /// Bumped at each block start, each release of waiting threads (a barrier, a warp meeting)
    /// and each yield: with the thread loop's own counters, the worker's progress.
    std::atomic<std::uint64_t> steps{0};
    std::atomic<std::uint64_t> probe_seen{0};  ///< the last probe this worker answered
    std::atomic<bool> moving{false};           ///< in that probe: its thread is not spinning
    // The worker's own, during a probe: the thread it saw and the addresses it read.
    const ThreadState* thread = nullptr;
    const void* reads[8] = {};
    unsigned nreads = 0;
};

/// The per-OS-thread part of the simulator.
struct Worker {
    FiberSlot main;                     ///< the OS thread's own stack
    FiberSlot* current = &main;
#if !SIMT_OWN_FIBER_SWITCH
    FiberSlot* prev = nullptr;          ///< the fiber that switched to `current`
#endif
    std::vector<std::unique_ptr<FiberSlot>> fibers;
    /// Fibers parked with no thread to run: the first idle_count entries. Kept as long as
    /// `fibers`, so that parking and taking a fiber are a store and a load, with no growth on a
    /// path that every thread of a blocking kernel takes.
    std::vector<FiberSlot*> idle;
    std::size_t idle_count = 0;
    /// Fiber stacks from slabs, without guard pages: a cooperative grid's threads are all alive at
    /// once, and a guard page each would pass the kernel's limit of memory mappings
    /// (vm.max_map_count, 65530) at 32768 threads (launch/cooperative.hpp).
    bool slab_stacks = false;
    std::unique_ptr<std::byte[]> signal_stack;  ///< where the stack-overflow handler runs
    std::size_t stack_size = 0;
    std::uint64_t epoch = 0;
    BlockState block;
    Allocation dyn_shared;  ///< extern __shared__ memory; the launch sets its size

    Worker();
    void run_block(GridRun& g, std::uint64_t linear);

    // Called on fibers.
    void run_lazy();
    /// Gives up the running fiber, which has no thread left to run, to the idle pool: the switch
    /// for park_after_threads' caller to make.
    FiberLeave park();
    /// The running thread `ts`, which now waits, gives up its fiber: block_current's switch for
    /// the caller to make, or none when the wait is over already.
    FiberLeave block_leave(ThreadState& ts);
    void block_current(ThreadState& ts);
    /// The running thread `ts` read at `site` what it read there last time: it waits until the
    /// memory changes (block/spin.cpp).
    void spin_wait(ThreadState& ts, Loc site);
    void yield_current(ThreadState& ts);
    void make_ready(ThreadState& ts);
    void release_barrier();
    void abort_block(std::string message, cudaError_t code = cudaErrorLaunchFailure);
    /// Ends the block with `message` and the running thread with it, without returning.
    [[noreturn]] void fail_thread(std::string message, cudaError_t code = cudaErrorLaunchFailure);
    /// Ends the running thread where it is: its fiber starts over and its frames are abandoned,
    /// never unwound, since the thread may be inside code that cannot throw (a raw access's
    /// hook, a signal handler's return, glibc's abort or exit). Its block must be aborted.
    [[noreturn]] void leave_thread();
    FaultRecord fault;
    WorkerWatch watch;

private:
    friend FiberLeave park_after_threads();  // park's usual case, inlined there
    /// The switch to `next` for the caller to make (with Boost's fibers, made here).
    FiberLeave leave_for(FiberSlot* next);
    FiberSlot* unblock();
    /// unblock's part for threads that spin: wakes those whose memory changed, after letting other
    /// blocks run where they must; false when none can ever go on (a deadlock).
    bool wake_spinners();
    void grid_barrier();  // grid/cooperative.cpp
    void switch_to(FiberSlot* to);
    FiberSlot* acquire();
    FiberSlot* new_fiber();
    /// The next thread to resume: the barrier's released range first, then `ready`.
    FiberSlot* pop_ready();
    FiberSlot* pop_released();  ///< pop_ready's usual case, or null
    void block_current_slow();
    FiberSlot* pop_queued();
    void deadlock();
    void set_stack_size(std::size_t bytes);
};

/// Forms the groups of every coalesced_threads() call that waits (warp/warp.cpp); true if any
/// thread became ready. The executor calls it when no thread of the block can run.
bool resolve_coalesced(Worker& w);

/// A thread's atomic or volatile read of `n` bytes at `p`, from the access hook at return address
/// `pc`, about to be made: a read that would find what this thread's last one at the same line
/// found, with nothing else done since, waits until another thread changes it (block/spin.cpp).
/// `op` tells the operations apart (a load, an exchange, a compare-and-swap): a float atomicAdd's
/// load and the compare-and-swap after it are one line, and no spin.
void spin_point(const void* p, std::size_t n, const void* pc, unsigned op);

/// Threads first .. first + count - 1 of `b` did something a spin does not (a barrier, a fence, a
/// __syncwarp, an atomic or volatile write): their next read starts a new watch.
void spin_forget(BlockState& b, unsigned first, unsigned count);

/// For a deadlock's report: what thread `t` of `b`, waiting in a spin, reads and finds.
void spun_on(const BlockState& b, unsigned t, DeadlockDraft::Waiting& w);

/// Whether memory that a waiting thread of `b` spins on has changed.
bool spin_changed(const BlockState& b);

/// The worker of this OS thread, created on first use.
Worker& worker();

/// Every OS thread's Worker (worker() adds each), kept for the life of the process: their fibers
/// are suspended mid-loop and must never be unwound. The watchdog walks them.
struct AllWorkers {
    std::mutex m;
    std::vector<Worker*> list;
};
AllWorkers& all_workers();

/// Installs the stack-overflow handler on this OS thread; returns the stack it runs on, which
/// must live as long as the thread.
std::unique_ptr<std::byte[]> install_signal_stack();

}  // namespace simt::sim::detail
