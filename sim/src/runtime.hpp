// The simulator's internal state: OS-thread workers, their fibers, the running block and grid.
//
// Ground rules of the runtime:
//  - A block runs on one worker (an OS thread inside the TBB arena) from start to end; its CUDA
//    threads are fibers on that worker and never migrate, so block state needs no locks.
//  - Lazy fibers: threads run one after another on a runner fiber; a thread that blocks (barrier,
//    warp intrinsic) keeps the fiber it is on, and the next thread starts on another fiber.
//  - Fibers are never destroyed while the program runs: a worker keeps them in an idle pool, so a
//    barrier costs one fiber-to-fiber switch per thread and starting a fiber is a pool pop.
//  - Only the grid level (TBB, findings, errors) and streams share state across OS threads.
#pragma once
#include <simt/simt.hpp>

#include "block/schedule.hpp"
#include "report/draft.hpp"

#include <atomic>
#include <bit>
#include <boost/context/fiber.hpp>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <pthread.h>
#include <random>
#include <string>
#include <vector>

namespace simt::sim::detail {

// How a worker switches between fibers (thread/fiber_switch.cpp). On x86-64 Linux simt switches
// itself: six callee-saved registers and a `ret`, which the return-address predictor gets right
// because every fiber suspends through the same calls (sync_block, block_current, switch_to).
// Boost.Context's switch returns with an indirect jump, which leaves that predictor one entry
// off, so every return after a switch mispredicts, and it saves the x87 and SSE control words
// besides: 28 ns against 6 ns per switch, measured (docs/simulator.md). Elsewhere, and in
// AddressSanitizer builds (Boost's ucontext backend tells ASan about each switch), Boost's fiber.
#if defined(__x86_64__) && defined(__linux__) && !defined(BOOST_USE_UCONTEXT)
#define SIMT_OWN_FIBER_SWITCH 1
#else
#define SIMT_OWN_FIBER_SWITCH 0
#endif

/// One fiber and its stack. While it is not running, `sp` (simt's switch) or `cont` (Boost's)
/// holds where it stopped.
struct FiberSlot {
#if SIMT_OWN_FIBER_SWITCH
    void* sp = nullptr;
    boost::context::stack_context stack{};  ///< from Boost's guarded allocator; empty for `main`
    FiberSlot() = default;
    FiberSlot(const FiberSlot&) = delete;
    FiberSlot& operator=(const FiberSlot&) = delete;
    ~FiberSlot();
#else
    boost::context::fiber cont;
#endif
    std::byte* guard_lo = nullptr;  ///< lowest byte of the guard page below the stack
    std::byte* stack_hi = nullptr;
    bool slab = false;  ///< a stack of a slab, with a canary instead of a guard page (fiber_switch.cpp)
};

#if SIMT_OWN_FIBER_SWITCH
/// Saves the running fiber's registers on its stack and its stack pointer in `*save`, and
/// continues the fiber whose stack pointer is `load` (thread/fiber_switch.cpp).
extern "C" void simt_fiber_switch(void** save, void* load);
/// A stack for `slot` of `bytes` (with a guard page below, or from a slab with a canary at its
/// bottom), set to start `slot`'s fiber loop at the first switch to it.
void make_fiber_stack(FiberSlot& slot, std::size_t bytes, bool slab = false);
#endif
/// False when a slab stack's canary was overwritten since the last call (which re-arms it): the
/// fiber ran past its stack.
bool stack_intact(FiberSlot& slot);
/// A stack of `bytes` from a slab, its lowest bytes a canary; its lowest address.
std::byte* slab_stack_allocate(std::size_t bytes);
void slab_stack_free(std::byte* lo, std::size_t bytes);
#if SIMT_OWN_FIBER_SWITCH
/// Sets `slot`'s stack to start its fiber loop afresh at the next switch to it: what is on the
/// stack below its top 64 bytes is abandoned, never unwound.
void restart_fiber(FiberSlot& slot);
#endif

/// Lanes of one warp meeting in a warp intrinsic with one mask. A coalesced_threads() meeting
/// (op coalesce) has no mask yet: the lanes that reach its site form it (warp.cpp).
struct WarpMeeting {
    unsigned mask = 0, arrived = 0;
    WarpOp op = WarpOp::sync;
    Loc site;
    const char* what = "";  ///< the call as reports name it, e.g. "__shfl_sync()"
};

struct WarpState {
    std::vector<WarpMeeting> open;
    std::uint64_t value[32] = {}, result[32] = {};
    int arg[32] = {}, width[32] = {};
};

/// Thrown into a blocked thread when its block is abandoned (deadlock, another thread's error):
/// unwinds the kernel's frames so the fiber can return to the pool.
struct BlockAborted {};

/// A kernel error that a GPU reports with a CUDA error of its own (an illegal address, a failed
/// assert); every other kernel error is cudaErrorLaunchFailure.
struct KernelFault : simt::KernelError {
    KernelFault(const std::string& message, cudaError_t c, std::optional<FindingKey> f = {})
        : simt::KernelError(message), code(c), finding(std::move(f)) {}
    cudaError_t code;
    /// The finding that says what this error says (a deadlock's), when a checker made one: once
    /// that is printed, the error is printed as its first line only.
    std::optional<FindingKey> finding;
};
/// A deadlock as its finding and its KernelError say it: the lines that describe it (the first
/// names the block or the grid, and the launch), then the usual fix.
struct Deadlock {
    std::vector<std::string> lines;
    std::string advice;
    /// The KernelError's text: each line, then the advice.
    std::string message() const;
};
/// The CUDA error a kernel error stands for: a KernelFault's code, else cudaErrorLaunchFailure.
cudaError_t kernel_error_code(const std::exception& e);

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

struct GridRun;
class Checker;
class CoopGrid;

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

    // grid.sync() (grid/cooperative.cpp): threads of this block waiting there.
    unsigned grid_arrived = 0;
    bool grid_mismatch = false;
    Loc grid_site;

    bool lanes_grouped = false;   ///< a warp intrinsic set some thread's `active` or `group`
    std::vector<ThreadState*> ready;
    std::size_t ready_head = 0;
    std::vector<WarpState> warps;

    bool aborted = false;
    std::string error;
    cudaError_t error_code = cudaErrorLaunchFailure;  ///< what a GPU would report for `error`
    std::optional<FindingKey> error_finding;          ///< the finding `error` repeats, if any
    std::vector<PendingFinding> findings;
    std::size_t shared_bytes = 0;  ///< static shared memory used so far by this block
};

/// The running thread `ts` of `b` starts waiting (at a barrier, a warp meeting, grid.sync()) at
/// `site`, as a deadlock report will name it; the caller then gives up its fiber.
inline void start_waiting(BlockState& b, ThreadState& ts, WaitKind kind, const Loc& site,
                          const char* what) {
    settle_plain_run(b, ts.linear);
    ts.status = Status::waiting;
    ts.wait = kind;
    ts.site = site;
    ts.what = what;
    ++b.waiting;
}

/// What the watchdog (thread/watchdog.cpp) reads of a worker: how far its block got, and what
/// its running thread did while the watchdog looked at its accesses (a probe).
struct WorkerWatch {
    std::atomic<bool>* out_of_line = nullptr;  ///< the worker's tls_shadow_checks
    pthread_t os_thread{};                     ///< where the watchdog's sampling signal goes
    /// Where the worker's thread was when that signal came (thread/watchdog.cpp): its next
    /// instruction, and the sample's number (0: none yet).
    std::atomic<const void*> sampled_pc{nullptr};
    std::atomic<std::uint64_t> sampled{0};
    /// Bumped at each block start and at each switch between the block's threads (barriers,
    /// warp meetings): with the thread loop's own counters, the worker's progress.
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
    std::vector<FiberSlot*> idle;
    /// Fiber stacks from slabs, without guard pages: a cooperative grid's threads are all alive at
    /// once, and a guard page each would pass the kernel's limit of memory mappings
    /// (vm.max_map_count, 65530) at 32768 threads (grid/cooperative.hpp).
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
    void park(FiberSlot* self);
    void block_current(ThreadState& ts);
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
    FiberSlot* unblock();
    void grid_barrier();  // grid/cooperative.cpp
    void switch_to(FiberSlot* to);
    FiberSlot* acquire();
    FiberSlot* pop_ready();
    void deadlock();
    void number_threads();
    void set_stack_size(std::size_t bytes);
};

/// Forms the groups of every coalesced_threads() call that waits (warp/warp.cpp); true if any
/// thread became ready. The executor calls it when no thread of the block can run.
bool resolve_coalesced(Worker& w);

/// The worker of this OS thread, created on first use.
Worker& worker();
inline thread_local Worker* tls_worker = nullptr;

/// Sets the built-in coordinates for a thread about to resume (run_threads sets them for a
/// thread that starts). Its status was set when it was released (make_ready).
inline void enter(ThreadState& ts) {
    tls_thread = &ts;
    threadIdx = ts.idx;
}

/// One launch being executed.
struct GridRun {
    GridRun(const KernelLaunch& launch, const Config& c)
        : k(launch), cfg(c), nblocks(std::uint64_t(k.grid.x) * k.grid.y * k.grid.z) {}
    const KernelLaunch& k;
    Config cfg;
    std::uint64_t nblocks;
    std::atomic<std::uint64_t> first_failed{~std::uint64_t(0)};
    std::mutex m;
    struct BlockError {
        std::uint64_t block;
        std::string message;
        cudaError_t code;
        std::optional<FindingKey> finding;
    };
    std::vector<BlockError> errors;
    std::atomic<std::uint64_t> blocks_done{0};  ///< the watchdog's measure of progress
    std::vector<PendingFinding> findings;
    // The checkers on for this launch (check/checker.cpp), and those that see every access.
    Checker* checkers[4] = {};
    Checker* accessors[4] = {};
    unsigned checkers_on = 0, accessors_on = 0;
    bool shadow = false;           ///< a checker sees accesses: blocks run one at a time, in order
    CoopGrid* coop = nullptr;      ///< a cooperative launch's blocks (grid/cooperative.hpp)
};

/// Runs a launch on the TBB arena; throws KernelError for the first failing block (by index).
void run_grid(const KernelLaunch& k);
/// Adds what block `b` (number `i`) found and the error it ended with, if any, to its launch.
void collect_block(GridRun& g, BlockState& b, std::uint64_t i);

/// "(x,y,z)" for reports.
std::string coord(uint3 c);
/// "file.cu:12" (file name without its folders).
std::string where(const Loc& loc);
/// Throws the error of a kernel-only call made on the host: "simt: __syncthreads() called on the
/// host at f.cu:9; `only`".
[[noreturn, gnu::cold, gnu::noinline]] void called_on_host(const char* what, const Loc& loc,
                                                           const char* only);
/// Whether two locations name one place in the source. Asked at every barrier arrival: one call
/// site's location is one object the compiler emitted, so equal pointers settle the usual case.
inline bool same_site(const Loc& a, const Loc& b) {
    static_assert(sizeof(Loc) == sizeof(const void*), "std::source_location is one pointer");
    if (std::bit_cast<const void*>(a) == std::bit_cast<const void*>(b)) return true;
    return a.line() == b.line() && a.column() == b.column() &&
           (a.file_name() == b.file_name() || std::strcmp(a.file_name(), b.file_name()) == 0);
}
/// The report pipeline's end (report/finding.hpp): a launch's findings from blocks up to
/// `failed` (the first failed block's index), in block order, each new key printed once and
/// remembered for findings().
void publish(std::vector<PendingFinding>& fs, std::uint64_t failed = ~std::uint64_t(0));
/// A kernel error's text, or only its first line and "(reported above)" when the finding it
/// repeats (a deadlock's: KernelFault::finding) was printed.
std::string not_reported_yet(const std::exception& e);
/// Prints the one-line summary of everything found, if anything was (at exit).
void print_summary();
/// The name the user gave an allocation, read from its allocation or declaration line.
std::string array_name(const Allocation* a);
/// Waits for every stream without collecting errors (for destructors, like cudaFree's sync).
void wait_all_quietly();
/// Installs the stack-overflow handler on this OS thread; returns the stack it runs on, which
/// must live as long as the thread.
std::unique_ptr<std::byte[]> install_signal_stack();
/// A report's array description: "'name'" and "(int, 8 elements, allocated at f.cu:3)".
std::string describe(const Allocation* a);
std::string origin(const Allocation* a);
/// Element `flat` of an array as a report names it: "5", or "(0, 5)" in an `int[4][8]` array.
std::string element_index(const Allocation* a, std::size_t flat);
/// An array's extent as a report names it: "32", or "(4, 8)".
std::string array_extent(const Allocation* a);
const char* space_name(Space s);

/// "(0,0,0)..(15,0,0), (32,0,0)" from a sorted list of a block's linear thread ids.
std::string thread_ranges(const BlockState& b, const std::vector<unsigned>& ids);
/// The threads of a block waiting at one place (a barrier or a warp intrinsic at one line).
struct WaitGroup {
    bool block;  ///< a __syncthreads form, not a warp intrinsic
    const char* what;
    Loc site;
    std::vector<unsigned> ids;
};
/// The block's waiting threads, grouped by place, in order of their lowest thread.
std::vector<WaitGroup> waiting_groups(const BlockState& b);
/// "16 threads wait at __syncthreads() at f.cu:9: (0,0,0)..(15,0,0)"
std::string waiting_line(const BlockState& b, const WaitGroup& g);
}  // namespace simt::sim::detail
