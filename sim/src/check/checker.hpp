// The checker seam: every event a checker sees, the Checker interface, and the calls that deliver.
//
// The executor, the warp and memory code and the streams call the functions at the end of this
// file; they never name a checker. Each checker is one class in its own file under check/,
// listed once in `Checkers` below and switched on by the Config's check flags.
//
// Events, in the order a program meets them:
//   host      stream created, launch queued, host waits (stream / all / event), event recorded,
//             stream waits for an event: the launch order that racecheck decides with
//   memory    allocated, freed (host side); exit (leaks, after the last stream has drained)
//   launch    launch begin / end, on the thread that runs the launch
//   block     block begin / end, on the worker that runs the block
//   thread    access (in bounds: address, size, kind, space, thread, block, source line),
//             invalid access (null, freed, outside the array or the view, misaligned atomic),
//             barrier release, warp sync, deadlock (no arrival event: it would cost every
//             thread at every barrier, and a checker can learn the site at the release)
//   grid      a cooperative launch's grid.sync() completes (once, before any block resumes),
//             then each block leaves it (launch/cooperative.hpp)
//
// Cost: accesses reach checkers only through the access hook's out-of-line path, and only when a
// checker that wants accesses is on (`tls::shadow_checks`); when racecheck is the only one, they
// reach its rule by a direct call (`tls::race_direct`), the one event too frequent for a virtual
// call and an AccessEvent. Host-side ordering events reach only enabled checkers, so launch-order
// clocks cost nothing when race checking is off.
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "../device/timing.hpp"
#include "../state/worker.hpp"
#include "../state/grid_run.hpp"

namespace simt::sim::detail {

/// What an event (simt::Event) or a launch carries for the launch order: per stream, the serial
/// of the latest launch known to happen before it. Empty when race checking is off.
using OrderClock = std::vector<std::uint32_t>;

/// An in-bounds access of device or shared memory by a running CUDA thread.
struct AccessEvent {
    const Allocation* array;  ///< its space is array->space
    const void* address;
    std::size_t size;
    Access kind;
    Loc where;                ///< for a raw access: empty, see pc
    const ThreadState& thread;
    const BlockState& block;
    const void* pc =
        nullptr;  ///< a raw access's return address (report/symbolize.hpp finds its line)
};

/// What an atomic access does beyond its Access kind, for the race rule (a relaxed atomic is
/// not a plain access) and the order of fences and atomics (check/atomic_order.hpp). The atomic
/// and volatile access hooks set `tls_atomic_note` around their check; a view's atomic, which
/// has none, is a read-modify-write of the scope its call named.
struct AtomicNote {
    bool reads = true, writes = true;  ///< a load only reads, a store only writes
    Scope scope = Scope::device;
    int order = __ATOMIC_RELAXED;      ///< the C++ memory order it was made with
    /// A volatile load or store: a relaxed atomic of system scope in global memory (PTX), a plain
    /// access in shared memory, where pre-Volta code used it for warp-synchronous steps that are
    /// races since Volta (compute-sanitizer's racecheck reports them too).
    bool is_volatile = false;
    /// A compare-and-swap's expected value: it writes only when the memory holds that.
    const void* expected = nullptr;
    /// It may leave the memory as it found it, and so be one turn of a spin (block/spin.cpp): a
    /// load, an exchange, a compare-and-swap, an add of 0; not atomicAdd(p, 1).
    bool may_spin = true;
};
inline thread_local AtomicNote* tls_atomic_note = nullptr;

/// Why an access was not performed.
/// Bit d of entry k: kernels on device k reach device d's memory (cudaDeviceEnablePeerAccess).
inline std::atomic<std::uint16_t> peer_device_bits[16];

enum class Invalid : std::uint8_t {
    null, freed, out_of_bounds, out_of_view, misaligned,
    constant_write,  ///< a kernel wrote `__constant__` memory (done anyway: a raw access)
};

/// Why an access through `a` that is not inside it is invalid.
inline Invalid invalid_kind(const Allocation* a) {
    return !a ? Invalid::null : a->freed ? Invalid::freed : Invalid::out_of_bounds;
}

/// An access that must not happen: outside every array, past a view's extents, or misaligned.
/// `thread` is null when the host made it (a GPU would fault).
struct InvalidEvent {
    Invalid why;
    const Allocation* array;  ///< null for a null pointer (and for a view without an array)
    const void* address;
    std::size_t size;
    Access kind;
    Loc where;
    const ThreadState* thread;
    const std::ptrdiff_t* index = nullptr;  ///< out_of_view: the view's indices and extents
    const std::size_t* extent = nullptr;
    int rank = 0;
    bool raw = false;  ///< through a raw pointer: done anyway (in a red zone), not replaced
};

/// One checker. Every event has an empty default, so a checker overrides what it needs.
class Checker {
public:
    /// `wants_accesses`: in-bounds accesses are delivered to it (costly: only while it is on).
    /// `serial_blocks`: launches run one at a time, their blocks in order on one thread, while
    /// it is on (a checker whose state all blocks share without atomics).
    Checker(bool wants_accesses, bool serial_blocks)
        : wants_accesses(wants_accesses), serial_blocks(serial_blocks) {}
    virtual ~Checker() = default;
    virtual bool enabled(const Config& c) const = 0;
    const bool wants_accesses, serial_blocks;

    // Host side: the launch order.
    virtual void launch_queued(unsigned /*stream*/, const KernelLaunch& /*k*/) {}
    virtual void host_waits(unsigned /*stream*/) {}
    virtual void host_waits_all() {}
    virtual void event_recorded(unsigned /*stream*/, OrderClock& /*clock*/) {}
    virtual void stream_waits(unsigned /*stream*/, const OrderClock& /*clock*/) {}
    virtual void host_waits_event(const OrderClock& /*clock*/) {}
    /// An ordering event happened while this checker was off.
    virtual void ordering_missed() {}

    // Memory, host side.
    virtual void allocated(const Allocation& /*a*/) {}
    virtual void freed(Allocation& /*a*/) {}
    /// The host wrote bytes [offset, offset + bytes) of `a` (a copy or a memset into part of it).
    virtual void host_wrote(Allocation& /*a*/, std::size_t /*offset*/, std::size_t /*bytes*/) {}
    /// The program is ending: every stream has drained.
    virtual void exit() {}

    // A launch, on the thread that runs it; a block, on its worker.
    virtual void launch_begin(GridRun& /*g*/) {}
    virtual void launch_end(GridRun& /*g*/) {}
    /// Every block has ended and `g.findings` is about to be published: a checker may withdraw
    /// what the whole launch showed not to be a finding.
    virtual void launch_findings(GridRun& /*g*/) {}
    virtual void block_begin(BlockState& /*b*/) {}
    virtual void block_end(BlockState& /*b*/) {}

    // The running CUDA thread.
    virtual void access(const AccessEvent& /*e*/) {}
    virtual void invalid_access(const InvalidEvent& /*e*/) {}
    /// A block barrier at `site` completes: every live thread has arrived.
    virtual void barrier_release(BlockState& /*b*/, const Loc& /*site*/) {}
    /// A __syncwarp over `mask` of warp `warp` completed.
    virtual void warp_sync(BlockState& /*b*/, unsigned /*warp*/, unsigned /*mask*/) {}
    /// A tile of several warps (threads first .. first + count - 1) completed its sync().
    virtual void tile_sync(BlockState& /*b*/, unsigned /*first*/, unsigned /*count*/) {}
    /// The running thread made a memory fence of scope `s` (`order` a C++ memory order), returning
    /// to `pc` (its line, for reports).
    virtual void fence(BlockState& /*b*/, Scope /*s*/, int /*order*/, const void* /*pc*/) {}
    /// Every block of a cooperative launch arrived at grid.sync(): every access before it
    /// happens before every access after it. On the thread of the last block to arrive, with
    /// no block running.
    virtual void grid_synced(GridRun& /*g*/) {}
    /// Block `b` leaves a completed grid.sync() at `site`; within the block it is a barrier.
    virtual void grid_sync(BlockState& b, const Loc& site) { barrier_release(b, site); }
    /// No thread of the block can continue. `divergent`: all wait at block barriers, at different
    /// sites. `what` is what the launch's error will say.
    virtual void deadlock(BlockState& /*b*/, const Loc& /*first_site*/, bool /*divergent*/,
                          const Deadlock& /*what*/) {}
    /// A warp intrinsic was called wrongly (`kind` is warp-mask or warp-divergence): `what`
    /// says how. With `ends_block`, the thread then fails with the same text.
    virtual void warp_misuse(BlockState& /*b*/, FindingKind /*kind*/,
                             const WarpMisuseDraft& /*what*/, bool /*ends_block*/) {}
};

std::unique_ptr<Checker> make_memcheck();   // mem.cpp
std::unique_ptr<Checker> make_racecheck();  // race.cpp: racecheck and initcheck, over one shadow
std::unique_ptr<Checker> make_synccheck();  // sync.cpp
std::unique_ptr<Checker> make_profiler();   // profile/profile.cpp: SIMT_PROFILE's counters

/// Every checker, made once by checkers() (check/checker.cpp). A new checker adds its factory here.
struct Checkers {
    std::array<std::unique_ptr<Checker>, 4> all{make_memcheck(), make_racecheck(), make_synccheck(),
                                                make_profiler()};
    /// Serialises launches that run with a serial_blocks checker (shadow memory, launch order).
    std::mutex serial;
};
/// The checkers, made on first use and never destroyed (a worker may deliver an event while the
/// process ends).
Checkers& checkers();

// --- Delivering events: the only calls the rest of the simulator makes ------------------------

/// A site at `loc` by the running thread (or the host), with the access's name
/// (check/finding.cpp).
DraftSite draft_site(const Loc& loc, const char* access);
/// Records a finding for the block running on this thread, unless its key is already pending
/// in this block or was published.
void add_finding(Draft d);

// Host side (streams and events). The order_* names are the launch order's events.
unsigned new_stream_id();
/// A launch is being queued (its serial, stream and device set): the checkers that order
/// launches learn of it.
void order_launch(const KernelLaunch& k);
void order_host_waits(unsigned stream);
void order_host_waits_all();
OrderClock order_event_record(unsigned stream);
void order_stream_waits(unsigned stream, const OrderClock& event_clock);
void order_host_waits_event(const OrderClock& event_clock);
void checks_allocated(const Allocation& a);
void checks_freed(Allocation& a);
/// The host wrote part or all of an allocation (cudaMemcpy, cudaMemset): initcheck counts it.
void checks_host_wrote(Allocation& a, std::size_t offset, std::size_t bytes);
/// The exit event: after the last stream has drained, before the summary.
void checks_exit();

/// Runs `body` (which runs the launch's blocks) between launch begin and end. `serial` is set to
/// whether the blocks must run one at a time, in order, on this thread.
class LaunchChecks {
public:
    explicit LaunchChecks(GridRun& g);
    ~LaunchChecks();
    bool serial() const { return lock_.owns_lock(); }
    /// Checker::launch_findings, before the launch publishes its findings.
    void findings_ready();
    /// Whether a launch under `cfg` runs alone, its blocks in order (a serial_blocks checker is on).
    static bool one_at_a_time(const Config& cfg);

private:
    GridRun& g_;
    std::unique_lock<std::mutex> lock_;
};

// tls::race_direct (thread/context.hpp) is set for every block by checks_block_begin and
// RaceCheck::block_begin.
/// racecheck's and initcheck's rule for one in-bounds access of the running thread (race.cpp):
/// what Checker::access does for an AccessEvent, without building one. `pc` is a raw access's
/// return address, null for a view's access at `where`.
void race_access(const Allocation* a, const void* p, std::size_t size, Access kind,
                 const void* pc, Loc where);
/// race_access for a raw atomic or volatile access (tls_atomic_note says what it does).
void record_raw(const Allocation* a, const void* p, std::size_t size, Access kind, const void* pc);
/// race_access for a raw access (`pc` its return address), with a shorter path for the usual one.
void race_raw_access(const Allocation* a, const void* p, std::size_t size, Access kind,
                     const void* pc);

/// Delivers an invalid access to the checkers: a report, or for the host an exception.
void report_invalid(const InvalidEvent& e);

/// Wild indices (check/mem.cpp). A raw access whose index ran past its array lands in the red
/// zone, where memcheck reports it; one that ran further lands inside another array, where it
/// is in bounds. memcheck remembers each line and kind of raw access that went out of bounds of
/// an array; an access from that line that the race or init checker would report on another
/// array is that out-of-bounds access again, not a race or an uninitialised read on an array
/// the line never names, and is not reported.
void note_wild_access(const Loc& where, bool read, const Allocation* a);
/// The array a raw read (or write) at `where` went out of bounds of, or null.
const Allocation* wild_access_array(const Loc& where, bool read);
/// Records an in-bounds raw access (check/raw_access.cpp) for the shadow checkers.
void record_raw_access(const Allocation* a, const void* p, std::size_t size, Access kind,
                       const void* pc);

void checks_block_begin(BlockState& b);
void checks_block_end(BlockState& b);
void checks_barrier_release(BlockState& b, const Loc& site);
void checks_warp_sync(BlockState& b, unsigned warp, unsigned mask);
void checks_tile_sync(BlockState& b, unsigned first, unsigned count);
void checks_fence(BlockState& b, Scope s, int order, const void* pc);
void checks_grid_synced(GridRun& g);
void checks_grid_sync(BlockState& b, const Loc& site);
void checks_deadlock(BlockState& b, const Loc& first_site, bool divergent, const Deadlock& what);
void checks_warp_misuse(FindingKind kind, const WarpMisuseDraft& what, bool ends_block);

/// Whether a file of the program has the raw-access instrumentation: GCC's calls __tsan_init
/// (check/raw_access.cpp) from a constructor of priority 99 in every file it instruments, so
/// this is set before any file's own static initialisation (process.cpp's
/// unchecked_build_file's included). Written only then, on one thread.
inline bool instrumented_build = false;

/// True while the watchdog (launch/watchdog.cpp) probes or stops a launch: the out-of-line
/// access path then calls `stop_poll`, which the watchdog installs as it starts. A hook rather
/// than a call, so that this layer knows nothing of launches.
inline std::atomic<bool> stop_requested{false};
inline void (*stop_poll)(const Allocation* a, const void* p, Access kind, Loc loc) = nullptr;

/// The whole launch's predicted time on the simulated GPU, from the blocks the profiler has counted
/// so far (profile/profile.cpp installs it; false when SIMT_PROFILE is off or no block is done):
/// what the progress line of a long launch (launch/watchdog.cpp) adds. A hook, as stop_poll is,
/// so that the launch layer knows nothing of the profiler.
inline bool (*predict_running)(const GridRun& g, TimePrediction& out) = nullptr;

// --- The profiler's own events (profile/profile.cpp) --------------------------------------------
// SIMT_PROFILE's counters (docs/profiling.md) come from a Checker that wants accesses, as the
// checkers' do; these are what the seam above lacks for it.

namespace profile {
struct BlockProfile;
}  // namespace profile

/// The running block's profile on this worker; null while no profiled launch runs here.
inline thread_local profile::BlockProfile* tls_profile = nullptr;

/// The note of the atomic hook now running when that hook continues an atomic call already
/// counted (atomics.hpp, continue_atomic): the check sees it, the profile does not. A note, not
/// a flag: a hook that waits in a spin lets other threads of this OS thread run, and their
/// atomics carry notes of their own.
inline thread_local const AtomicNote* tls_profile_uncounted = nullptr;

/// Lanes `mask` of warp `warp` of the running block met in a warp intrinsic (warp/warp.cpp): a
/// warp-level instruction, and a point where the warp's lanes are together again.
void profile_warp_meeting(BlockState& b, unsigned warp, unsigned mask);

/// A file of the program was built UNCHECKED: the profile says once that its accesses are not
/// counted.
void profile_unchecked_build();
/// False once a file built UNCHECKED has run: its accesses reach no hook.
bool profile_counts_every_access();
/// Whether the profiler counts the launches run under `c`: SIMT_PROFILE asks, or the program
/// reads the GPU's clock (launch/gpu_clock.hpp).
bool profiler_counts(const Config& c);

}  // namespace simt::sim::detail
