// A finding before it has any text (TSan's ReportDesc): what a checker fills in, as data.
//
// A checker fills a Draft (kind, sites as source locations with their thread and block, the
// allocation, the element) and hands it to add_finding (report/finding.hpp). The draft stays
// data through the pipeline's one filter (blocks after the launch's failed one), its one
// de-duplication (FindingKey) and its symbolisation (the allocation's name); only then is it
// formatted, so that no repeat or dropped finding costs any text.
#pragma once
#include <simt/simt.hpp>

#include <bitset>
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../device/timing.hpp"

namespace simt::sim::detail {

enum class Hazard : std::uint8_t { none, raw, war, waw };

/// The usual fix a report ends with, where a kind has more than one.
enum class Hint : std::uint8_t {
    none,
    // data races
    atomic_orders_nothing,  ///< one side is an atomic
    read_modify_write,      ///< a line racing with itself: counter[0] += 1
    syncthreads,            ///< threads of one block, different warps
    syncthreads_or_syncwarp,///< lanes of one warp
    next_iteration,         ///< a barrier separates the lines: the loop's next iteration races
    read_ahead,             ///< one line, the read first: threads at different steps (a loop)
    other_block,            ///< blocks of one launch are never ordered
    other_block_grid_sync,  ///< blocks of a cooperative launch, with no grid.sync() between
    other_stream,           ///< launches on streams nothing orders
    other_graph_node,       ///< kernel nodes of one graph launch that no path of edges orders
    host_before_wait,       ///< the host touched managed memory a kernel it has not waited for was given
    // ... between threads that synchronise through atomics and fences (check/atomic_order.hpp);
    // Draft::sync_site names the atomic or fence
    acquire_without_fence,  ///< the reader's atomic saw the release, but no fence followed it
    acquire_through_barrier,///< ... only a __syncthreads(), a fence of block scope, followed it
    acquire_block_fence,    ///< ... a __threadfence_block() followed another block's release
    volatile_orders_nothing,///< a volatile access races: volatile is no synchronisation
    release_without_fence,  ///< the writer's atomic came after the write, with no fence between
    write_after_release,    ///< the access came after the writer's release atomic
    access_between_fence_and_atomic,  ///< ... after its fence, before the atomic: none orders it
    release_block_scope,    ///< the writer's release reaches its own block only
    block_scope_atomic,     ///< two atomics, one of block scope, in different blocks
    // uninitialised reads
    shared_uninitialized,
    global_uninitialized,
    cuda_uninitialized,     ///< memory from cudaMalloc
};

/// One access (or barrier, or allocation) a finding is about.
struct DraftSite {
    Loc loc;                 ///< where (a raw access's line is already looked up)
    const char* access = ""; ///< "read", "write", "atomic", "barrier", "allocation"
    uint3 thread{}, block{};
    Loc launch{};            ///< the launch it ran in, named when a finding spans two launches
    Loc call{};              ///< a library call (symbolize.hpp) whose kernel it ran in
    bool host = false;       ///< made by host code, not a kernel's thread
};

/// A deadlock, as data: who waits where (and, for a spin, on what), what else the waiters wait
/// for, and who ended. block/executor.cpp fills a block's, launch/cooperative.cpp a cooperative
/// grid's (grid.sync()); report/format.cpp writes both, for the finding and the KernelError.
struct DeadlockDraft {
    /// Threads (of a block), or blocks (of a grid), waiting at one call, by linear rank.
    struct Waiting {
        const char* what = "";
        Loc site{};
        std::vector<std::uint64_t> ranks;
        bool spins = false;                 ///< waiting for memory to change
        const Allocation* spun = nullptr;   ///< ... this array's element, which keeps `value`
        std::size_t element = 0;
        std::uint64_t value = 0;
    };
    /// A warp or tile meeting that also waits for these threads.
    struct Meeting {
        const char* kind = "warp";  ///< "warp" or "tile"
        Loc site{};
        std::vector<std::uint64_t> ranks;
    };
    bool set = false;   ///< a deadlock was found (an empty draft says nothing)
    bool grid = false;  ///< a cooperative grid at grid.sync(): ranks are blocks of the grid
    uint3 block{};      ///< the block, for a block's deadlock
    dim3 shape{};       ///< the block's dimensions (the grid's, for a grid's deadlock)
    Loc launch{};
    std::vector<Waiting> waiting;
    std::vector<Meeting> meetings;
    std::vector<std::uint64_t> ended;  ///< a grid's blocks that ended without reaching it
    unsigned exited = 0;               ///< a block's threads that exited
    bool spin() const {
        for (const Waiting& w : waiting)
            if (w.spins) return true;
        return false;
    }
};

/// A warp intrinsic (or a tile's collective) called wrongly, as data: warp/warp.cpp and
/// warp/tile.cpp fill it; report/format.cpp writes the finding and the KernelError.
struct WarpMisuseDraft {
    enum class Problem : std::uint8_t {
        caller_left_out,     ///< the mask leaves out the calling lane
        other_intrinsic,     ///< lanes of one mask (threads of one tile) in different calls
        reads_outside_mask,  ///< a shuffle reads a lane its mask leaves out
        short_tile,          ///< a tile of several warps that the block's end cuts short
    };
    Problem problem{};
    bool tile = false;             ///< a tile of several warps: `lane` is a rank, `warp` the tile
    uint3 thread{}, block{};
    unsigned lane = 0, warp = 0;
    const char* what = "";
    Loc site{};
    unsigned mask = 0;
    const char* other = "";        ///< other_intrinsic: where the others wait
    Loc other_site{};
    unsigned source = 0;           ///< reads_outside_mask: the lane read
    unsigned tile_size = 0, tile_threads = 0, block_threads = 0;  ///< short_tile
};

/// A kernel thread that cannot go on, as data: the part of the simulator that stops it fills it
/// (thread/fault.cpp, process/signals.cpp, check/raw_access.cpp, memory/host_pointers.cpp);
/// report/format.cpp writes the text the launch's error carries.
struct FaultDraft {
    enum class Problem : std::uint8_t {
        trap,             ///< __trap()
        assertion,        ///< assert() failed: CUDA's device-side text, then simt's
        exit_called,      ///< exit() in a kernel
        abort_called,     ///< abort() in a kernel
        stack_overflow,   ///< the thread ran past its stack
        block_stack_overflow,  ///< a thread of a cooperative launch's block (which is unknown)
        bad_address,      ///< a fault at an address where nothing is mapped (or null)
        never_allocated,  ///< an access to the device arena where nothing was ever allocated
        misaligned,       ///< a misaligned access, after its finding
        other_device,     ///< memory of a device the kernel's device has no access to
        host_memory,      ///< host memory passed as a kernel argument
    };
    Problem problem{};
    uint3 thread{}, block{};
    Loc site{};
    Access access = Access::read;
    std::size_t bytes = 0;             ///< the access's size; the stack's, for stack_overflow
    const void* address = nullptr;
    const Allocation* array = nullptr; ///< other_device: the memory reached
    std::size_t offset = 0;            ///< other_device, host_memory: bytes into it
    int device = 0, running = 0;       ///< other_device: the memory's device and the kernel's
    int status = 0;                    ///< exit_called
    Loc launch_site{};                 ///< block_stack_overflow: the cooperative launch
    // assertion: CUDA's own line, as the device prints it
    const char* assertion = "";
    const char* file = "";
    unsigned line = 0;
    const char* function = "";
    // host_memory: which argument of which launch the memory was passed as, and what it is
    unsigned argument = 0;
    Loc launch{};
    const char* what = "";
};

/// A runtime API call refused with an argument CUDA refuses, as data: api/ fills it, report/
/// format.cpp writes the message the call prints.
struct ApiErrorDraft {
    enum class Problem : std::uint8_t {
        no_device,            ///< a device number that does not exist
        not_flags,            ///< flags outside the ones the call takes (`accepted` names them)
        flags_must_be,        ///< ... said as "the flags must be <accepted>, not 7"
        not_its_flags,        ///< ... said as "flags 64 are not <accepted> flags"
        not_an_attribute,     ///< a number that is no cudaDeviceAttr
        unknown_function_attribute,  ///< a cudaFuncAttribute the simulator does not know
        shared_past_optin,    ///< cudaFuncSetAttribute past the device's opt-in maximum
        // managed-memory hints (cudaMemPrefetchAsync, cudaMemAdvise)
        no_hint_device,       ///< a device that does not exist (`host_allowed`: or the host)
        no_numa_node,         ///< a host NUMA node other than 0
        not_a_location_type,  ///< a cudaMemLocationType the call does not take
        not_an_advice,        ///< a number that is no cudaMemoryAdvise
    };
    Problem problem{};
    const char* call = "";
    Loc site{};                 ///< the program's line, where the call takes one
    long long value = 0;        ///< the refused number: a device, flags, an attribute, bytes
    int from_device = -1;       ///< no_device: the current device, for a peer call
    int devices = 0;            ///< no_device, no_hint_device: how many there are
    bool host_allowed = false;  ///< no_hint_device, not_a_location_type: the host is a place too
    std::size_t limit = 0;      ///< shared_past_optin: the device's maximum
    const char* accepted = "";  ///< the not_flags kinds: what the call takes
    const char* device = "";    ///< shared_past_optin: the simulated GPU's name
};

/// A 2-D or 3-D region of a copy or memset: `slices` of `rows` of `width` bytes, the rows
/// `pitch` bytes apart. No rows: a plain run of bytes.
struct RegionShape {
    std::size_t slices = 1, rows = 0, width = 0, pitch = 0;
};

/// A memory call of the runtime API refused for its sizes, offsets or pointer, as data:
/// api/memory.cpp fills it, report/format.cpp writes the message the call prints.
struct MemoryRefusal {
    enum class Problem : std::uint8_t {
        past_allocation,   ///< a copy's or memset's bytes (or region) run past their allocation
        past_variable,     ///< ... past a device variable (cudaMemcpyToSymbol and its kin)
        past_managed,      ///< a managed-memory hint's range runs past its allocation
        rows_overflow,     ///< cudaMallocPitch: `rows` of `width` bytes overflow size_t
        slices_overflow,   ///< cudaMalloc3D: `slices` of `rows` overflow size_t
        pinned_too_large,  ///< more pinned host memory than the machine has (`limit`)
        // a 2-D or 3-D region that does not fit one end (`role`) of it
        width_past_pitch,  ///< rows wider than the pitch (`error` names the code)
        pitch_too_large,   ///< a copy's pitch past cudaDevAttrMaxPitch (`limit`)
        past_row,          ///< `width` bytes from x = `x` run past a row's end
        past_slice,        ///< `rows` from y = `y` run past a slice's `ysize` rows
        // cudaFree of a pointer that is not the start of live cudaMalloc memory
        free_host,          ///< host memory
        free_pinned,        ///< pinned host memory (cudaMallocHost)
        free_twice,         ///< `array`, freed already
        free_inside,        ///< `offset` bytes into `array`
        free_variable,      ///< a __device__ variable
        free_device_array,  ///< a simt::DeviceArray's memory
        free_unknown,       ///< anything else
    };
    Problem problem{};
    const char* call = "";
    Loc site{};
    const char* role = "";              ///< "destination" or "source"
    const Allocation* array = nullptr;  ///< the memory it is about
    std::size_t bytes = 0, offset = 0;  ///< the bytes asked for, and where in `array` they start
    RegionShape region;                 ///< past_allocation of a 2-D or 3-D region; the overflows
    std::size_t ysize = 0, x = 0, y = 0;  ///< past_row, past_slice: the end's slice and position
    std::size_t limit = 0;  ///< pitch_too_large: the largest pitch; pinned_too_large: host memory
    const char* error = "";  ///< width_past_pitch: the error's name
};

/// Memory the simulator cannot give, as data: memory/memory.cpp (and the arena it reserves
/// from), block/executor.cpp and check/race.cpp fill it; report/format.cpp writes the error.
struct OutOfMemory {
    enum class Problem : std::uint8_t {
        device_total,      ///< more than the simulated GPU has in all (`total`)
        host_total,        ///< what the GPU would hold, but this machine (`host`) cannot
        device_full,       ///< more than the GPU has free (`free` of `total`)
        addresses,         ///< the simulator's addresses are used up (`free` of `total` left)
        system,            ///< the system has no pages left
        shared_per_block,  ///< a block's static and dynamic shared memory past `total`
        race_shadow,       ///< no memory for the race checker's shadow of `bytes` elements
    };
    Problem problem{};
    /// What the memory was for ("device memory", "memory for the shared array declared"), said
    /// with `site`; none: the reason alone.
    const char* what = nullptr;
    Loc site{};                 ///< where it was asked for; shared_per_block: the array's line
    std::size_t bytes = 0;      ///< asked for
    std::size_t total = 0, free = 0, host = 0;
    int device = 0;             ///< device_full: the device (named when not 0)
    const char* gpu = "";       ///< the simulated GPU's name
    Loc launch{};               ///< shared_per_block: the kernel's launch
    std::size_t static_bytes = 0, dynamic_bytes = 0;  ///< shared_per_block
};

/// The note at exit for memory never freed (check/mem.cpp): how many allocations, their bytes,
/// and the largest.
struct LeakNote {
    std::size_t count = 0, bytes = 0;
    const Allocation* largest = nullptr;
    bool all_cuda = false;  ///< all from cudaMalloc: "cudaFree" them
};

/// What the watchdog (launch/watchdog.cpp) says of a launch, as data: its progress line, and
/// the report of a launch it stopped.
struct WatchdogDraft {
    Loc launch{};
    // the progress line
    std::uint64_t done = 0, total = 0;  ///< blocks
    double per_second = 0;              ///< blocks done per second so far
    bool checks = false;                ///< the shadow checkers are on (they slow it down)
    /// The whole launch on the simulated GPU, from the blocks counted so far (SIMT_PROFILE on).
    std::optional<TimePrediction> predicted;
    // a stopped launch
    bool interrupt = false;             ///< by Ctrl-C, not for making no progress
    unsigned timeout = 0;               ///< SIMT_TIMEOUT, in seconds
    unsigned waited = 0;                ///< seconds it waited for a thread to notice the stop
    /// Where the threads were when none noticed the stop, sampled: a block, a line.
    struct Sampled {
        uint3 block{};
        Loc site{};
    };
    std::vector<Sampled> sampled;
};

/// What waiting for a long checked launch costs, as data: the one line the watchdog prints
/// within its first seconds (launch/watchdog.cpp, from launch/sample.hpp's sample of its blocks).
struct WatchdogEstimate {
    Loc launch{};
    std::uint64_t blocks = 0;  ///< the launch's
    double checked_s = 0;      ///< the whole launch here as it runs, from its blocks done so far
    /// The whole launch with SIMT_CHECK=none: its sampled blocks' time on one core, times its
    /// blocks, over the workers an unchecked launch runs on.
    enum class Unchecked : std::uint8_t {
        measured,
        slow,    ///< no sampled block ended in time
        failed,  ///< no copy of the process could be made to run them in
    };
    Unchecked unchecked = Unchecked::failed;
    double unchecked_s = 0;
    unsigned sampled = 0;   ///< blocks timed
    double block_s = 0;     ///< each, on average, on one core
    unsigned workers = 0;   ///< an unchecked launch's
    double waited_s = 0;    ///< how long the sample was waited for
    /// The whole launch on the simulated GPU, from the blocks counted (sample or SIMT_PROFILE).
    std::optional<TimePrediction> predicted;
    std::uint64_t counted = 0;  ///< blocks the prediction counted
    const char* gpu = "";       ///< the simulated GPU, named even when nothing was predicted
};

/// A thread the watchdog stopped (launch/watchdog.cpp), as data: where it was, what it read or
/// wrote, where its block's other threads wait, and the advice that fits.
struct StoppedThread {
    enum class Advice : std::uint8_t {
        none,
        grid_sync,    ///< a block of a cooperative launch waits for another's write
        other_block,  ///< a block waits for another block's write
        barrier,      ///< its block's other threads wait at a barrier for it
        take_turns,   ///< it spins while threads of its block have not started
    };
    uint3 block{}, thread{};
    bool spins = false;                 ///< it reads the same few addresses over and over
    Loc site{};
    const Allocation* array = nullptr;  ///< the memory it was reading or writing, if any
    Access access = Access::read;
    long long element = 0;              ///< ... its element
    std::vector<DeadlockDraft::Waiting> waiting;  ///< its block's threads at barriers and meetings
    dim3 shape{};                       ///< its block's dimensions
    unsigned unstarted = 0, finished = 0;
    Advice advice = Advice::none;
    std::uint64_t blocks = 0;           ///< other_block: the launch's blocks
};

/// A launch CUDA refuses, as data: api/launch.cpp fills it, report/format.cpp writes what the
/// refusal prints (the kernel does not run; the error is the launch's).
struct LaunchRefusal {
    enum class Problem : std::uint8_t {
        shared_past_optin,     ///< more dynamic shared memory than a block may have at all
        shared_needs_optin,    ///< more than 48 KiB without cudaFuncSetAttribute
        configuration,         ///< a grid or block CUDA refuses (simt::LaunchError's words)
        args_missing,          ///< cudaLaunchKernel's args null for a kernel with parameters
        cooperative_too_large, ///< a cooperative grid larger than can be resident at once
        untyped_kernel,        ///< a void* kernel the simulator cannot read args for
    };
    Problem problem{};
    const char* call = "launch";  ///< "cudaLaunchKernel", ...; a <<<>>> launch's is "launch"
    Loc site{};
    std::size_t shared_bytes = 0, shared_limit = 0;
    const char* device = "";      ///< the simulated GPU's name
    std::string configuration;    ///< what simt::LaunchError said of the configuration
    std::uint64_t blocks = 0, resident = 0;
    unsigned threads = 0;
    int multiprocessors = 0, per_multiprocessor = 0;
};

struct Draft {
    FindingKind kind{};
    Hazard hazard = Hazard::none;
    const Allocation* array = nullptr;  ///< the memory involved, if any
    long long element = 0;              ///< the element of `array`, in its own elements
    std::size_t access_size = 0;        ///< bytes of the access (counts untyped memory)
    // A view's index, when the view's extents (not the array's) were left: one per dimension.
    std::vector<long long> view_index;  ///< {3, 9}
    std::vector<std::size_t> view_extent;  ///< {4, 8}
    const void* address = nullptr;      ///< misaligned accesses
    std::size_t count = 0;  ///< bytes of a misaligned access; threads that left a barrier
    std::vector<DraftSite> sites;
    Hint hint = Hint::none;
    Loc barrier{};                      ///< the barrier between the two sites (next_iteration)
    Loc sync_site{};                    ///< the atomic a synchronisation hint names
    Loc fence_site{};                   ///< ... and the fence before it, when one is named
    /// A deadlock's (and a divergent barrier's) description.
    DeadlockDraft deadlock;
    /// The threads a barrier-exit names, by rank in a block of `shape`.
    std::vector<std::uint64_t> ranks;
    dim3 shape{};
    /// A warp intrinsic's misuse.
    WarpMisuseDraft misuse;
    bool divergent_barrier = false;     ///< barrier-exit: the others skipped it inside an if
    bool raw = false;                   ///< a raw pointer's access: it was done, in a red zone
    /// A race between volatile accesses of this element, which is none if the launch uses the
    /// element as a flag (check/race.cpp): its checker drops it before the launch publishes.
    const void* unless_flag = nullptr;
    /// The threads and accesses folded into this report (publish counts them): "and 23 more
    /// threads at this line".
    std::uint64_t threads = 1, accesses = 1;
};

/// The one key that reports a finding once: its kind and its sites' source lines (columns too
/// where a site asks for them), or the allocation for a leak. Sites in either order are one key.
struct FindingKey {
    struct Line {
        std::string_view file;  ///< a Loc's file name: static, or kept by report/symbolize.cpp's Symbols
        unsigned line = 0, column = 0;
        auto operator<=>(const Line&) const = default;
    };
    FindingKind kind{};
    std::uint64_t allocation = 0;  ///< a leak's
    std::vector<Line> lines;       ///< sorted
    auto operator<=>(const FindingKey&) const = default;
};

/// A finding waiting for its launch to end, with the coordinates that order it, and the threads of
/// its block that made an access of the same key since (add_finding folds them in).
struct PendingFinding {
    std::uint64_t block = 0;
    unsigned thread = 0;
    FindingKey key;
    Draft draft;
    std::bitset<1024> threads;  ///< by linear thread index in the block (at most 1024 threads)
    std::uint64_t accesses = 1;
};

}  // namespace simt::sim::detail
