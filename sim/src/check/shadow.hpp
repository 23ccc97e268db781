// Shadow memory of the race and init checkers, and the happens-before order they decide with.
//
// Ground rules (docs/checkers.md explains them to users):
//  - One cell per element of an allocation (per byte for dynamic shared memory). A cell holds the
//    last write (or atomic) and the last read, each as a Stamp: which block execution, thread,
//    barrier generation and warp clock made it, and at which source site, plus a second reader
//    when two threads read concurrently. 32 bytes per cell.
//  - A block execution ("exec") is one block of one launch, or in a cooperative launch one block
//    between two grid.sync() calls: each grid.sync() gives every block a new exec, after all of
//    the previous phase's. Exec ids are unique in the process; 0 means "never accessed" and 1
//    "written by a host copy". Shared memory lives for one block, so a shared cell whose exec is
//    neither the running one's nor an earlier phase of the same block is treated as empty.
//  - Launches that run with these checkers run one at a time (Checkers::serial), their blocks one
//    at a time in block order, so that reports do not depend on the core count; or their blocks
//    are tried on every worker (attempt.hpp), where each granule of global memory is one block's
//    or a striped lock guards each cell, and the attempt is kept only when it ends as the serial
//    run would have.
#pragma once
#include <atomic>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "checker.hpp"

namespace simt::sim::detail {

inline constexpr std::uint32_t exec_none = 0, exec_host = 1;
/// Not a block execution: in a parallel attempt (attempt.hpp), a cell whose w holds a read set
/// aside (race.cpp, check_cell_in_attempt), its own w restored from the attempt's copy at the end.
inline constexpr std::uint32_t exec_aside = 2;

/// Who made an access and when, in 12 bytes. `tsite` packs the thread's linear index within
/// its block (10 bits), an atomic flag (1 bit), a block-scope flag (1 bit: an atomic of block
/// scope, `atomicAdd_block`) and the interned source site (19 bits); its top bit is 0, which a
/// GlobalCell uses (cell_holds_r2).
struct Stamp {
    std::uint32_t exec = exec_none;
    std::uint32_t tsite = 0;
    std::uint16_t gen = 0;  ///< block barriers the thread had passed
    std::uint16_t clk = 0;  ///< the thread's own warp clock (advanced by __syncwarp)

    /// One compare of 8 bytes and one of 4 (the fields leave no padding), not four: the fast
    /// paths ask it on every access.
    bool operator==(const Stamp& o) const { return std::memcmp(this, &o, sizeof(Stamp)) == 0; }
    /// A stamp made of its two words, as operator== reads them: built field by field on the
    /// stack, the 8-byte load that compares it could not be forwarded from the 4- and 2-byte
    /// stores (a stall on every checked atomic).
    static Stamp of(std::uint32_t exec, std::uint32_t tsite, std::uint16_t gen,
                    std::uint16_t clk) {
        const std::uint64_t lo = exec | std::uint64_t(tsite) << 32;
        const std::uint32_t hi = gen | std::uint32_t(clk) << 16;
        Stamp s;
        std::memcpy(static_cast<void*>(&s), &lo, 8);
        std::memcpy(reinterpret_cast<char*>(static_cast<void*>(&s)) + 8, &hi, 4);
        return s;
    }
    unsigned thread() const { return tsite & 0x3FF; }
    bool atomic() const { return tsite >> 10 & 1; }
    bool block_scoped() const { return tsite >> 11 & 1; }
    std::uint32_t site() const { return tsite >> 12; }
};
static_assert(sizeof(Stamp) == 12);

/// A second concurrent reader: its gen is the first reader's, its warp clock unknown (taken as
/// ordered, so that it can only hide a race between lanes of one warp, never invent one).
struct ShortStamp {
    std::uint32_t exec = exec_none;
    std::uint32_t tsite = 0;
};

/// The race rule's view of one element's history. Shared memory keeps its cells in this form (a
/// block's arrays are small, and its accesses the most frequent); global memory keeps them packed
/// (GlobalCell), and the rule unpacks one when its fast paths cannot settle the access.
struct Cell {
    Stamp w;        ///< last write or atomic
    Stamp r;        ///< a read since then; the latest one unless it was concurrent with r
    ShortStamp r2;  ///< the latest read concurrent with `r`, by another thread or block
};
static_assert(sizeof(Cell) == 32);

// --- Global memory's packed cells ------------------------------------------------------------
// A stamp of global memory in 8 bytes: its block execution and barrier interval as one number,
// an *interval*, and its tsite as is. Each run of block executions (a launch, or one phase of a
// cooperative launch) takes a range of intervals, 2^shift per block in block order, so that
// block execution e in barrier interval g is ibase + (e - exec_base) << shift | g. A stamp whose
// interval does not fit (g >= 2^shift), or whose warp clock is not the starting 1, sets `escape`
// and keeps its gen and clock in the cell's Extra. Intervals 0, 1 and 2 are exec_none,
// exec_host and exec_aside (gen and clock 0 unless escaped).
//
// A cell with a second reader (an element several threads or blocks read) keeps r2 in w's place,
// its exec as is (exec ids stay below 2^31, as intervals do) and its tsite with the top bit set
// (cell_holds_r2), and w in its Extra; escape on that r2 says that w is an earlier launch's, and
// the element written (by it, or by a host copy of the whole array). So a third block's read of a shared input, a matrix multiply's most
// frequent access, is decided from the cell's 16 bytes alone (race.cpp, read_leaves_cell).

inline constexpr std::uint32_t interval_escape = 1u << 31;
inline constexpr std::uint32_t interval_mask = interval_escape - 1;

struct alignas(8) PackedStamp {
    std::uint32_t iv = 0;  ///< interval | interval_escape
    std::uint32_t tsite = 0;
    bool operator==(const PackedStamp&) const = default;
    std::uint32_t interval() const { return iv & interval_mask; }
    bool escaped() const { return iv & interval_escape; }
};

struct GlobalCell {
    PackedStamp w, r;  ///< w: or the second reader (cell_holds_r2)
};
static_assert(sizeof(GlobalCell) == 16);
inline constexpr std::uint32_t cell_holds_r2 = 1u << 31;  ///< in w.tsite
inline bool holds_r2(const GlobalCell& g) { return g.w.tsite & cell_holds_r2; }

/// What a GlobalCell keeps aside: w's gen and clock when w is escaped, r's when r is, and w when
/// the cell holds a second reader in its place. One per cell, after the cells in the same
/// mapping, touched only by cells that need it.
struct Extra {
    std::uint16_t wgen = 0, wclk = 0, rgen = 0, rclk = 0;
    PackedStamp w;
};
static_assert(sizeof(Extra) == 16);

/// A run's range of intervals (order.cpp hands them out with the block executions).
struct Intervals {
    std::uint32_t exec_base = 0, nblocks = 0, ibase = 0;
    std::uint32_t shift = 0;  ///< 2^shift intervals per block
    bool holds_exec(std::uint32_t e) const { return e - exec_base < nblocks; }
    bool holds_interval(std::uint32_t iv) const {
        return iv - ibase < (std::uint64_t(nblocks) << shift);
    }
    /// Whether barrier interval `gen` of a block has an interval of its own in this run.
    bool fits(std::uint32_t gen) const { return (gen >> shift) == 0; }
    /// Block execution `exec`'s interval `gen` (fits(gen)), or its first with gen 0.
    std::uint32_t interval_of(std::uint32_t exec, std::uint32_t gen = 0) const {
        return ibase + ((exec - exec_base) << shift) + gen;
    }
    /// The block execution and barrier interval interval `iv` (holds_interval) stands for.
    std::uint32_t exec_of(std::uint32_t iv) const { return exec_base + ((iv - ibase) >> shift); }
    std::uint16_t gen_of(std::uint32_t iv) const {
        return static_cast<std::uint16_t>((iv - ibase) & ((1u << shift) - 1));
    }
};
/// The run that block execution `exec` (>= 3) belongs to, or that interval `iv` (>= 3) lies in.
/// Callers hold Checkers::serial, or run in the launch that holds it.
const Intervals& intervals_of_exec(std::uint32_t exec);
const Intervals& intervals_of_interval(std::uint32_t iv);

/// The site an interned id stands for.
const Loc& site_of(std::uint32_t id);

/// Source locations interned as small integers for the stamps (race.cpp). The ids are the
/// process's; each worker looks them up through a cache of its own (SiteCache), and only a miss
/// takes the lock, since a parallel attempt (attempt.hpp) interns from every worker.
struct Sites {
    struct Key {
        const char* file = nullptr;
        std::uint32_t line = 0, column = 0;
        bool operator==(const Key&) const = default;
    };
    struct Hash {
        std::size_t operator()(const Key& k) const {
            return (reinterpret_cast<std::uintptr_t>(k.file) >> 3) ^ (k.line * 2654435761u) ^
                   (k.column * 40503u);
        }
    };
    std::mutex m;  ///< guards what follows
    std::vector<Loc> locs{Loc{}};  // id 0: no site
    std::unordered_map<Key, std::uint32_t, Hash> ids;
    /// Raw accesses' sites, by return address: symbolised only when a report names one.
    std::vector<const void*> pcs{nullptr};  // per id: a pc whose line is not looked up yet
    std::unordered_map<const void*, std::uint32_t> pc_ids;
    /// By id: a volatile access's site (race.cpp, mark_volatile_site), under Checkers::serial.
    std::vector<bool> volatile_sites;
};

/// One worker's recent answers of Sites: most accesses come from a few lines.
struct SiteCache {
    /// A site's id by an address that stands for it: a return address, or a source_location
    /// object's.
    struct AddressSlot {
        const void* address = nullptr;
        std::uint32_t id = 0;
    };
    AddressSlot pc_cache[1024];
    /// Views' sites by the address of their std::source_location object, one per call site
    /// (pc_cache's counterpart): the file, line and column are read only on a miss.
    AddressSlot loc_cache[1024];
    struct Slot {
        Sites::Key key;
        std::uint32_t id = 0;
    };
    Slot cache[4096];
};

// --- Happens-before between launches (order.cpp) ---------------------------------------------
// Decided on the host, when work is queued, with a vector clock per stream: the same program
// gives the same order whatever the timing. racecheck's host-side events land here.
namespace launch_order {
/// Keeps what happens before the launch `k` (per stream, the serial of the latest launch that
/// does), until it runs (begin_checked_launch), and makes `k` the latest of its stream.
void queued(const KernelLaunch& k);
/// An ordering event went by while race checking was off.
void missed();
/// The host waited for `stream` (Stream::synchronize) or for all of them (simt::synchronize).
void host_waits(unsigned stream);
void host_waits_all();
/// Events: record takes the stream's clock, a stream waiting on it or the host joins it.
void event_recorded(unsigned stream, std::vector<std::uint32_t>& clock);
void stream_waits(unsigned stream, const std::vector<std::uint32_t>& event_clock);
void host_waits_event(const std::vector<std::uint32_t>& event_clock);
/// The launch site of the earliest launch the host has not waited for that was given a pointer
/// into `a` (managed memory the host is about to touch); null when there is none.
const Loc* unwaited_launch_given(const Allocation& a);
}  // namespace launch_order

/// What a checked launch needs to know about launches before it. Filled by begin_checked_launch.
struct LaunchInfo {
    std::uint32_t serial = 0;
    std::uint32_t exec_base = 0;
    Intervals intervals;  ///< the run's block executions and their intervals
    dim3 grid, block;
    Loc site;
    std::uint32_t graph_launch = 0;  ///< KernelLaunch::graph_launch
};
/// Gives a launch about to run with shadow checks its block exec ids. Caller holds
/// Checkers::serial.
LaunchInfo begin_checked_launch(const KernelLaunch& k);
/// New exec ids (and intervals) for every block of the running cooperative launch `k`, after a
/// grid.sync(), or of a launch whose attempt was undone. Caller holds Checkers::serial.
LaunchInfo begin_grid_phase(const KernelLaunch& k);
/// The most barriers a block of the running launch `k` passed, for its site's next launch.
void barriers_passed(const KernelLaunch& k, std::uint16_t most);
/// Whether every access of block execution `exec` (of an earlier launch) happens before the
/// running launch. Caller holds Checkers::serial.
bool exec_ordered_before_current(std::uint32_t exec);
/// Whether every checked launch before the running one happens before it, so that no stamp of
/// an earlier launch can race with its accesses (the usual program: one stream, or streams
/// joined before each launch). Caller holds Checkers::serial.
bool earlier_launches_ordered();
/// The launch an exec belongs to and the block's coordinates, for reports.
const LaunchInfo& launch_of(std::uint32_t exec, uint3& block);

struct Run {
    std::uint32_t exec_base, nblocks, stream;
    LaunchInfo info;
};

/// Whether shadow and Extra of `a` are GlobalCells (global, managed and symbol memory) or Cells
/// (shared memory).
inline bool packed_cells(const Allocation& a) { return a.space != Space::shared; }
/// Bytes of shadow per element (or per byte, for dynamic shared memory): a GlobalCell and its
/// Extra, or a Cell.
inline std::size_t shadow_cell_bytes(const Allocation& a) {
    return packed_cells(a) ? sizeof(GlobalCell) + sizeof(Extra) : sizeof(Cell);
}

/// A global allocation's cells, and the Extras after them in the same mapping.
inline GlobalCell* global_cells(const Allocation* a) { return static_cast<GlobalCell*>(a->shadow); }
inline Extra* extras(const Allocation* a) {
    return reinterpret_cast<Extra*>(global_cells(a) + a->shadow_cells);
}

struct Order {
    std::mutex m;
    std::vector<OrderClock> tail;  ///< per stream: what its next launch will be ordered after
    OrderClock host;               ///< what the host has waited for
    /// Per launch queued while race checking was on, by serial: what happens before it. Taken
    /// (and erased) when it runs; a launch without one was queued while checking was off.
    std::unordered_map<std::uint32_t, OrderClock> queued_before;
    bool missed = false;      ///< an ordering event went by while race checking was off
    /// Launches the host has not waited for, with the pointers each was given: a host access to
    /// managed memory one of them was given is not ordered after it (launch_order::unwaited).
    struct Unwaited {
        std::uint32_t serial;
        unsigned stream;
        Loc site;
        PointerArgs pointers;
    };
    std::vector<Unwaited> unwaited;
    /// !unwaited.empty(), read without the lock by every host access to managed memory.
    std::atomic<bool> any_unwaited{false};

    // Checked launches that have run, by exec_base (guarded by Checkers::serial, not m).
    std::vector<Run> runs;
    std::uint32_t next_exec = exec_aside + 1;
    std::uint32_t next_interval = exec_aside + 1;
    /// Per launch site (its source_location object): the most barriers a block of its last
    /// checked launch passed, which sizes the next launch's intervals per block.
    std::unordered_map<const void*, std::uint16_t> barriers_by_site;
    OrderClock current;            ///< the running checked launch's clock
    std::uint32_t current_base = 0;
    bool current_unordered = false;  ///< queued while race checking was off: after everything
    std::uint32_t cache_lo = 0, cache_hi = 0;  ///< exec range of the last lookup
    bool cache_ordered = false;
    /// Per stream: 1 + the serial of its latest checked launch to run (0: none yet).
    std::vector<std::uint64_t> latest_run;
    bool current_after_all = true;  ///< every earlier checked launch happens before the running one
};


/// racecheck's and initcheck's process-wide state; the shadow cells hang off each Allocation.
struct RaceState {
    Sites sites;
    Order order;
};
/// The one RaceState, the race checker's own (race.cpp), made with the checkers and never
/// destroyed: stream threads and workers may still record accesses and launches while the
/// process exits. Inline: the race rule asks for its interned sites on every access.
inline RaceState* the_race_state = nullptr;
inline RaceState& race_state() {
    if (!the_race_state) [[unlikely]] checkers();  // makes the checkers, this one's included
    return *the_race_state;
}

/// `a`'s shadow, mapped if it has none yet (race.cpp): Cells, or GlobalCells then Extras
/// (packed_cells).
void* shadow_of(Allocation& a);
/// Element i's cell as the race rule reads it, whichever form `a` keeps it in (for tests and
/// tools; the rule itself reads cells in place).
Cell cell_of(const Allocation& a, std::size_t i);
/// After an attempt that holds: each of `a`'s cells whose w holds a read set aside (race.cpp)
/// gets its w back from the copy made before the attempt (`before`, with `before_extras` when
/// its Extras were in use; null `before`: the shadow was new).
void restore_set_aside(Allocation& a, const GlobalCell* before, const Extra* before_extras);
/// Whether a's Extras are in use (counted in shadow_usage once they are).
bool extras_used(const Allocation& a);

}  // namespace simt::sim::detail
