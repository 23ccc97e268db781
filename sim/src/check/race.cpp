// racecheck and initcheck: the rule that decides whether two accesses race, and its reports.
//
// The one home of the race rule is `ordered` below: two accesses are ordered when one happens
// before the other by program order, a block barrier, a __syncwarp naming both lanes, a
// grid.sync() of a cooperative launch, the launch order (order.cpp), or a release and an acquire
// through fences and atomics (atomic_order.cpp). Everything else (other blocks of the same launch
// between two grid.sync() calls, other lanes between two __syncwarps, relaxed atomics without
// fences) is unordered. Two atomics never race unless one is of block scope and they are in
// different blocks (`atomics_agree`). Decided from stamps, never from the values seen, so a
// race that the schedule hid is reported all the same.
#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <memory>
#include <sys/mman.h>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <string_view>
#include <utility>

#include "shadow.hpp"
#include "attempt.hpp"
#include "atomic_order.hpp"
#include "../memory/arena.hpp"
#include "../report/symbolize.hpp"
#include "checker.hpp"
#include "../report/finding.hpp"

namespace simt::sim::detail {

namespace {

// --- Sites: a source location interned as a small integer ------------------------------------

Sites& sites() { return race_state().sites; }

/// The id of `key` in `ids`, a new one if it has none: `loc`, or for a raw access `pc` whose
/// line is looked up when a report needs it. 0 ("unknown line") once the 19 bits run out.
template <class Map, class Key>
std::uint32_t new_site(Map Sites::*ids_of, const Key& key, const Loc& loc, const void* pc) {
    Sites& s = sites();
    std::lock_guard lock(s.m);
    Map& ids = s.*ids_of;
    auto [it, added] = ids.try_emplace(key, static_cast<std::uint32_t>(s.locs.size()));
    if (added) {
        if (it->second >= (1u << 19)) {
            ids.erase(it);
            return 0;
        }
        s.locs.push_back(loc);
        s.pcs.push_back(pc);
    }
    return it->second;
}

/// Marks a site as a volatile access's (record_atomic). Volatile accesses are checked one block at
/// a time (an attempt leaves at the first), under Checkers::serial, as reports are.
void mark_volatile_site(std::uint32_t site) {
    std::vector<bool>& v = sites().volatile_sites;
    if (site >= v.size()) v.resize(site + 1);
    v[site] = true;
}
bool volatile_site(std::uint32_t site) {
    const std::vector<bool>& v = sites().volatile_sites;
    return site < v.size() && v[site];
}

/// The id of a site, through the running worker's cache.
std::uint32_t intern(SiteCache& cache, const Loc& loc) {
    const void* object = std::bit_cast<const void*>(loc);
    SiteCache::AddressSlot& fast =
        cache.loc_cache[(reinterpret_cast<std::uintptr_t>(object) >> 3) % 1024];
    if (fast.address == object && object) return fast.id;
    // Another object may stand for the same site (each translation unit emits its own), so ids
    // are kept by file, line and column.
    Sites::Key key{loc.file_name(), loc.line(), loc.column()};
    SiteCache::Slot& slot = cache.cache[Sites::Hash{}(key) % 4096];
    if (!(slot.key == key)) slot = {key, new_site(&Sites::ids, key, loc, nullptr)};
    fast = {object, slot.id};
    return slot.id;
}

[[gnu::noinline]] std::uint32_t intern_new_pc(SiteCache::AddressSlot& slot, const void* pc) {
    slot = {pc, new_site(&Sites::pc_ids, pc, Loc{}, pc)};
    return slot.id;
}

/// Where a raw access's site is cached, by its return address.
[[gnu::always_inline]] inline SiteCache::AddressSlot& pc_slot(SiteCache& cache, const void* pc) {
    return cache.pc_cache[(reinterpret_cast<std::uintptr_t>(pc) >> 2) % 1024];
}

/// The id of a raw access's site: its return address is the key, looked up once per site.
[[gnu::always_inline]] inline std::uint32_t intern_pc(SiteCache& cache, const void* pc) {
    SiteCache::AddressSlot& slot = pc_slot(cache, pc);
    if (slot.address == pc) [[likely]] return slot.id;
    return intern_new_pc(slot, pc);
}

// --- Shadow cells ----------------------------------------------------------------------------

void* map_shadow(std::size_t bytes) {
    // Untouched pages of an anonymous mapping cost nothing, so the shadow grows with the memory a
    // program touches, not with what it allocates (a global array's Extras, most of all).
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        OutOfMemory why;
        why.problem = OutOfMemory::Problem::race_shadow;
        why.bytes = bytes;
        throw simt::Error(out_of_memory_text(why));
    }
    return p;
}

std::atomic<std::size_t> shadow_total{0}, memory_total{0};

/// Shadow bytes counted for `a`: its cells, and its Extras once used.
std::size_t counted_shadow(const Allocation& a) {
    return a.shadow_cells * (packed_cells(a) ? sizeof(GlobalCell) + (a.shadow_extra ? sizeof(Extra) : 0)
                                             : sizeof(Cell));
}

/// The bytes of `a`'s shadow mapping for `n` cells: the cells, their Extras, and for global
/// memory the owner of each granule in an owning attempt (granule_owners: room for granules of
/// one element, 4 bytes each, of which only the pages an attempt touches are real; not counted
/// in shadow_usage, as an attempt's copies are not).
std::size_t shadow_map_bytes(const Allocation& a, std::size_t n) {
    return n * shadow_cell_bytes(a) + (packed_cells(a) ? n * sizeof(std::uint32_t) : 0);
}

void unmap_cells(Allocation* a) {
    munmap(a->shadow, shadow_map_bytes(*a, a->shadow_cells));
    shadow_total -= counted_shadow(*a);
    memory_total -= a->shadow_cells * a->elem_size;
    a->shadow = nullptr;
    a->shadow_cells = 0;
    a->shadow_extra = false;
}

[[gnu::noinline]] void* make_shadow(Allocation* a) {
    std::size_t n = std::max<std::size_t>((a->size + a->elem_size - 1) / a->elem_size, 1);
    a->shadow = map_shadow(shadow_map_bytes(*a, n));
    a->shadow_cells = n;
    a->shadow_extra = false;
    shadow_total += counted_shadow(*a);
    memory_total += n * a->elem_size;
    return a->shadow;
}

/// Which block execution holds each granule of `a` in an owning attempt: one below the running
/// launch's (none yet, or an earlier attempt's) leaves the granule free.
std::uint32_t* granule_owners(const Allocation* a) {
    return reinterpret_cast<std::uint32_t*>(extras(a) + a->shadow_cells);
}
/// The first escaped stamp or second reader of `a` counts its Extras in shadow_usage.
[[gnu::cold, gnu::noinline]] void count_extras(const Allocation* a) {
    if (!std::atomic_ref(const_cast<Allocation*>(a)->shadow_extra).exchange(true))
        shadow_total += a->shadow_cells * sizeof(Extra);
}

// --- Per block -------------------------------------------------------------------------------

/// racecheck's state for the block running on this worker: its place in the happens-before order.
struct RaceBlock {
    const BlockState* block = nullptr;
    bool race_on = false, init_on = false;
    std::uint32_t exec = 0;        ///< this block execution's id in shadow stamps
    std::uint32_t iv_block = 0;    ///< its interval before its first barrier (run_intervals)
    std::uint32_t iv_now = 0;      ///< its interval now, escaped when gen does not fit (pack_cur)
    std::uint16_t gen = 0;         ///< barriers completed so far
    Loc barrier;                   ///< where the last one was
    /// Warp vector clocks: row t (32 entries) is what thread t knows of its warp's lanes;
    /// only __syncwarp advances them. Reset lazily: `vc_used` says they changed.
    std::vector<std::uint16_t> vc;
    bool vc_used = false;
    /// What fences and atomics order for this block execution (atomic_order.hpp).
    BlockSync sync;
    SiteCache sites;  ///< this worker's, kept from block to block
};
/// This OS thread's RaceBlock, made at its first checked block. The access path reads it through
/// this pointer, not through a thread_local object: an object with a destructor is read through
/// an initialisation guard, which every access would pay. `tls_race_owner` frees it when the
/// thread exits (a stream's thread does when its stream is destroyed).
thread_local RaceBlock* tls_race = nullptr;
struct RaceBlockOwner {
    std::unique_ptr<RaceBlock> block;
    ~RaceBlockOwner() { tls_race = nullptr; }
};
thread_local RaceBlockOwner tls_race_owner;
// The running launch (Checkers::serial): exec ids from launch_base on are its blocks'; those from
// phase_base on are its blocks' since its latest grid.sync() (phase_base == launch_base without
// one).
std::uint32_t launch_base = 0, phase_base = 0, launch_blocks = 1;
/// The intervals (shadow.hpp) of the running launch's blocks since its latest grid.sync(), and
/// the first of the launch's.
Intervals run_intervals;
std::uint32_t launch_ibase = 0;
/// The most barriers a block of the running launch passed (barriers_passed).
std::atomic<std::uint16_t> launch_most_barriers{0};
bool launch_cooperative = false;
/// Every earlier launch happens before the running one (earlier_launches_ordered): a cell that
/// holds only their stamps holds nothing this launch can race with.
bool launch_after_all = false;
/// A block of the running launch made an atomic or volatile access the order of fences and
/// atomics sees (record_atomic): one block's accesses may now happen before another's.
bool launch_synced = false;

/// Whether, so far in the running launch, each block ran whole before the next began and none
/// can have ordered its accesses before another block's: then any two blocks' accesses of one
/// element are concurrent, which third_block_read's rule needs. Every order between blocks
/// starts with an atomic or volatile access (launch_synced), made before the next block began
/// unless a block waited for others (GridRun::blocks_waited).
bool blocks_unordered(const RaceBlock& b) {
    return !launch_synced && !b.block->grid->blocks_waited;
}

/// Whether `exec` is the running block in an earlier grid.sync() phase: its shared memory lives on.
bool earlier_phase_of(std::uint32_t exec, const RaceBlock& b) {
    return exec >= launch_base && exec < phase_base &&
           (exec - launch_base) % launch_blocks == b.block->linear;
}

// --- Global memory's packed cells (shadow.hpp) ------------------------------------------------

/// This worker's last answer of intervals_of_interval: stamps of an earlier launch come in runs.
thread_local Intervals last_run;

[[gnu::always_inline]] inline const Intervals& run_with_interval(std::uint32_t iv) {
    if (run_intervals.holds_interval(iv)) [[likely]] return run_intervals;
    if (!last_run.holds_interval(iv)) last_run = intervals_of_interval(iv);
    return last_run;
}

/// The stamp `p` stands for, with `gen` and `clk` from its Extra when it is escaped.
[[gnu::always_inline]] inline Stamp unpack(const PackedStamp& p, std::uint16_t gen, std::uint16_t clk) {
    const std::uint32_t iv = p.interval();
    const bool esc = p.escaped();
    if (iv <= exec_aside) return Stamp::of(iv, p.tsite, esc ? gen : 0, esc ? clk : 0);
    const Intervals& run = run_with_interval(iv);
    return Stamp::of(run.exec_of(iv), p.tsite, esc ? gen : run.gen_of(iv), esc ? clk : 1);
}

/// `s` packed: escaped when its gen or clock does not fit the interval (unpack's defaults).
[[gnu::always_inline]] inline PackedStamp pack(const Stamp& s) {
    if (s.exec <= exec_aside)
        return {s.exec | (s.gen != 0 || s.clk != 0 ? interval_escape : 0), s.tsite};
    const Intervals& run = run_intervals.holds_exec(s.exec) ? run_intervals : intervals_of_exec(s.exec);
    if (run.fits(s.gen) && s.clk == 1) return {run.interval_of(s.exec, s.gen), s.tsite};
    return {run.interval_of(s.exec) | interval_escape, s.tsite};
}

/// The running thread's stamp `cur` packed, from its block's interval (pack's fast case).
[[gnu::always_inline]] inline PackedStamp pack_cur(const RaceBlock& b, const Stamp& cur) {
    if (cur.clk == 1) [[likely]] return {b.iv_now, cur.tsite};
    return {b.iv_block | interval_escape, cur.tsite};
}

/// Sets iv_block and iv_now for `b` (its exec of the running run, in interval b.gen).
void set_intervals(RaceBlock& b) {
    b.iv_block = run_intervals.interval_of(b.exec);
    b.iv_now = run_intervals.fits(b.gen) ? b.iv_block + b.gen : b.iv_block | interval_escape;
}

/// A global memory cell (and its Extra, when it uses one) as the race rule reads it.
Cell unpack_cell(const GlobalCell& g, const Extra* x) {
    Cell c;
    PackedStamp w = g.w;
    if (holds_r2(g)) {
        c.r2 = {g.w.iv & interval_mask, g.w.tsite & ~cell_holds_r2};
        w = x->w;
    }
    c.w = unpack(w, w.escaped() ? x->wgen : 0, w.escaped() ? x->wclk : 0);
    c.r = unpack(g.r, g.r.escaped() ? x->rgen : 0, g.r.escaped() ? x->rclk : 0);
    return c;
}

bool uses_extra(const GlobalCell& g) { return holds_r2(g) || g.w.escaped() || g.r.escaped(); }

/// Element i's cell of global memory as the race rule reads it.
Cell load_cell(const Allocation* a, std::size_t i) {
    const GlobalCell& g = global_cells(a)[i];
    return unpack_cell(g, uses_extra(g) ? &extras(a)[i] : nullptr);
}

/// w's slot as one 8-byte word, stored and loaded whole: read_leaves_cell reads it without the
/// cell's lock, and the slot's iv is an interval or, under cell_holds_r2 in its tsite, an exec.
void store_w_slot(GlobalCell& g, PackedStamp w) {
    __atomic_store_n(reinterpret_cast<std::uint64_t*>(&g.w), std::bit_cast<std::uint64_t>(w),
                     __ATOMIC_RELAXED);
}
PackedStamp load_w_slot(const GlobalCell& g) {
    return std::bit_cast<PackedStamp>(
        __atomic_load_n(reinterpret_cast<const std::uint64_t*>(&g.w), __ATOMIC_RELAXED));
}

/// Writes back `c`, element i's cell as the rule left it, from load_cell's `before`: a stamp it
/// did not change keeps its packed form (it may be another launch's).
void store_cell(const Allocation* a, std::size_t i, const Cell& c, const Cell& before) {
    GlobalCell& g = global_cells(a)[i];
    Extra* x = nullptr;
    auto extra = [&]() -> Extra& {
        if (!a->shadow_extra) count_extras(a);
        if (!x) x = &extras(a)[i];
        return *x;
    };
    PackedStamp w = c.w == before.w ? (holds_r2(g) ? extras(a)[i].w : g.w) : pack(c.w);
    if (w.escaped()) {
        extra().wgen = c.w.gen;
        extra().wclk = c.w.clk;
    }
    const PackedStamp r = c.r == before.r ? g.r : pack(c.r);
    if (r.escaped()) {
        extra().rgen = c.r.gen;
        extra().rclk = c.r.clk;
    }
    // Extra first: read_leaves_cell reads the cell without its lock.
    if (c.r2.exec != exec_none) {
        extra().w = w;
        // Later launches keep it true: host_init is only ever set, and w stays an earlier
        // launch's (read_leaves_cell asks it of the running one).
        const bool written_before =
            (c.w.exec != exec_none || a->host_init) && c.w.exec < launch_base;
        store_w_slot(g, {c.r2.exec | (written_before ? interval_escape : 0),
                         c.r2.tsite | cell_holds_r2});
    } else {
        store_w_slot(g, w);
    }
    g.r = r;
}

// --- The race rule ---------------------------------------------------------------------------

unsigned warp_clock(const RaceBlock& b, unsigned reader, unsigned lane) {
    return b.vc_used ? b.vc[reader * 32 + lane] : 0;
}

/// The warp clocks' starting state, made real: each lane knows only its own first tick.
void start_warp_clocks(RaceBlock& b) {
    if (b.vc_used) return;
    b.vc.assign(std::size_t(b.block->nthreads + 31) / 32 * 32 * 32, 0);
    for (unsigned t = 0; t < b.vc.size() / 32; ++t) b.vc[t * 32 + t % 32] = 1;
    b.vc_used = true;
}

/// Thread `t` has released everything up to here (a fence, a release atomic): its later accesses
/// come after, a tick of its own clock, which no other lane knows of until a __syncwarp.
void tick_own_clock(RaceBlock& b, unsigned t) {
    start_warp_clocks(b);
    ++b.vc[t * 32 + t % 32];
}

/// Where thread `t` is in its block execution now, as a stamp of its next access would say.
SyncPoint position(const RaceBlock& b, unsigned t) {
    return {b.exec, static_cast<std::uint16_t>(t), b.gen,
            static_cast<std::uint16_t>(b.vc_used ? b.vc[t * 32 + t % 32] : 1)};
}

/// Whether fences and atomics order `prev` before the running thread's `cur`.
bool synced(const RaceBlock& b, const Stamp& prev, const Stamp& cur) {
    return b.sync.used && b.sync.covers(cur.thread(), prev);
}

/// Whether two atomics `prev` and `cur` are atomic with respect to each other: each one's scope
/// includes the other's thread. A block-scope atomic is so only for threads of its own block.
bool atomics_agree(const RaceBlock& b, const Stamp& prev, const Stamp& cur) {
    if (!prev.block_scoped() && !cur.block_scoped()) return true;
    if (prev.exec == cur.exec) return true;
    // The same block in an earlier phase of a cooperative launch.
    return prev.exec >= launch_base && cur.exec >= launch_base &&
           (prev.exec - launch_base) % launch_blocks == (cur.exec - launch_base) % launch_blocks &&
           b.exec == cur.exec;
}

/// Whether `s`, a stamp of this block execution, happens before `cur` by program order or a
/// __syncthreads in between: the cases of `ordered` that need no warp clock.
[[gnu::always_inline]] inline bool ordered_in_block(const Stamp& s, const Stamp& cur) {
    return s.thread() == cur.thread() || s.gen != cur.gen;
}

/// Whether access `prev` happens before the running thread's access `cur`.
bool ordered(const RaceBlock& b, const Stamp& prev, const Stamp& cur) {
    if (prev.exec == cur.exec) {
        if (ordered_in_block(prev, cur)) return true;
        if (prev.thread() / 32 == cur.thread() / 32 &&
            prev.clk <= warp_clock(b, cur.thread(), prev.thread() % 32))  // a __syncwarp
            return true;
        return synced(b, prev, cur);
    }
    if (prev.exec == exec_host) return true;  // copies wait for all work
    if (prev.exec >= launch_base)             // this launch: a grid.sync()?
        return prev.exec < phase_base || synced(b, prev, cur);
    // launch_after_all says it for every earlier launch, and reads nothing a parallel attempt's
    // workers share (exec_ordered_before_current keeps a cache).
    return launch_after_all || exec_ordered_before_current(prev.exec) || synced(b, prev, cur);
}

struct Ctx {
    const Allocation* a;
    std::size_t index;
    Access kind;       ///< as the reports name it
    std::size_t size;  ///< bytes of the access
    Access rule;       ///< as the race rule takes it: an atomic load is a read, a volatile store a write
    bool reads;        ///< it reads the element (initcheck's question): all but plain and atomic stores
};

DraftSite site_of_stamp(const RaceBlock& b, const Stamp& s, const char* access) {
    DraftSite d;
    d.loc = site_of(s.site());
    d.access = access;
    uint3 block;
    const LaunchInfo* l;
    const KernelLaunch& k = b.block->grid->k;
    LaunchInfo here{0, 0, {}, k.grid, k.block, k.site};
    if (s.exec == b.exec) {
        block = b.block->idx;
        l = &here;
    } else {
        l = &launch_of(s.exec, block);
    }
    unsigned t = s.thread();
    d.thread = {t % l->block.x, t / l->block.x % l->block.y, t / (l->block.x * l->block.y)};
    d.block = block;
    if (s.exec != b.exec && l->serial != k.serial) d.launch = l->site;
    return d;
}

/// The usual fix for a race between `prev` (a read when `prev_read`) and the running thread's
/// `cur` on memory of `space`, and the atomic and fence it names, if any.
Hint race_hint(const Stamp& prev, const Stamp& cur, bool prev_read, Space space,
               std::uint32_t& sync_site, std::uint32_t& fence_site) {
    const RaceBlock& rb = *tls_race;
    if (prev.atomic() && cur.atomic() && !atomics_agree(rb, prev, cur))
        return Hint::block_scope_atomic;
    if (SyncHint h = sync_hint(rb.sync, cur.thread(), prev, cur); h.hint != Hint::none) {
        sync_site = h.site;
        fence_site = h.fence_site;
        return h.hint;
    }
    // In shared memory volatile is what pre-Volta warp-synchronous code leaned on: the barrier
    // hints below say what replaces it.
    if (space == Space::global && (volatile_site(prev.site()) || volatile_site(cur.site())))
        return Hint::volatile_orders_nothing;
    if (prev.exec < launch_base) {  // another launch's
        // Two kernel nodes of one graph launch run on streams of the graph's own, but what
        // orders them is an edge, not an event.
        uint3 block;
        const std::uint32_t graph = tls_race->block->grid->k.graph_launch;
        return graph != 0 && launch_of(prev.exec, block).graph_launch == graph
                   ? Hint::other_graph_node
                   : Hint::other_stream;
    }
    if (prev.exec != cur.exec)
        return launch_cooperative ? Hint::other_block_grid_sync : Hint::other_block;
    if (cur.atomic() || prev.atomic()) return Hint::atomic_orders_nothing;
    const Loc &p = site_of(prev.site()), &c = site_of(cur.site());
    const bool same_file = p.file_name() == c.file_name() || same_source(p.file_name(), c.file_name());
    // One line racing with itself. The read first (this thread writes what another read here
    // before it): the threads are at different steps of the same code, a loop's most often
    // (s[t] += s[t + stride] with no barrier in the loop), and a barrier is the fix, not an
    // atomic. The write first: a read-modify-write of one element (counter[0] += 1).
    if (same_file && p.line() == c.line())
        return !prev.atomic() && !cur.atomic() && prev_read ? Hint::read_ahead
                                                            : Hint::read_modify_write;
    // The lines lie on either side of the last barrier, yet the accesses are in one interval: a
    // loop came round again, past the barrier that orders the lines within one iteration, while
    // another thread is still in the iteration before. The later access on an earlier line is no
    // sign of that on its own: after one barrier in code without a loop, thread 63 may write on
    // the later line before thread 64 reads on the earlier one.
    const RaceBlock& b = *tls_race;
    unsigned bar = b.barrier.line();
    bool barrier_between = same_source(b.barrier.file_name(), c.file_name()) &&
                           std::min(p.line(), c.line()) < bar && bar < std::max(p.line(), c.line());
    if (same_file && b.gen > 0 && barrier_between) return Hint::next_iteration;
    return prev.thread() / 32 == cur.thread() / 32 ? Hint::syncthreads_or_syncwarp
                                                   : Hint::syncthreads;
}

/// Whether access `s` (a read when `read`) comes from a line whose raw access ran out of bounds
/// of another array than `a` (checker.hpp, note_wild_access): that array's finding, not `a`'s.
bool wild(const Stamp& s, bool read, const Allocation* a) {
    const Allocation* first = wild_access_array(site_of(s.site()), read);
    return first && first != a;
}

/// Set when a parallel attempt's check of a cell found something: the attempt ends, and the run
/// one block at a time reports it (attempt.hpp), once the cell's lock is let go.
thread_local bool found_in_attempt = false;

/// Whether `s` is an access a flag may be made of: an atomic or a volatile one.
bool flag_like(const Stamp& s) { return s.atomic() || volatile_site(s.site()); }

[[gnu::cold, gnu::noinline]] void report_race(const RaceBlock& b, const Ctx& c, Hazard h,
                                              const Stamp& prev, const Stamp& cur) {
    if (running_attempt) {
        found_in_attempt = true;
        return;
    }
    if (wild(cur, c.rule == Access::read, c.a) || wild(prev, h == Hazard::war, c.a)) return;
    auto access = [](const Stamp& s, bool is_read) {
        return s.atomic() ? "atomic" : is_read ? "read" : "write";
    };
    Draft d;
    d.kind = FindingKind::data_race;
    // Ordered only by an acquire that today's GPUs complete and the memory model does not: a
    // memory-model finding, except a write with no fence at all since the acquire's atomic,
    // which a GPU may perform before that atomic's read (atomic_order.hpp).
    const IncompleteAcquire incomplete =
        b.sync.used ? b.sync.incomplete(cur.thread(), prev) : IncompleteAcquire{};
    if (incomplete.how != Incomplete::none &&
        (h == Hazard::raw || incomplete.how != Incomplete::no_fence))
        d.kind = FindingKind::memory_model;
    // Two volatile (or volatile and atomic) accesses of one location in global memory: not a
    // race where the location is a flag, which the launch may show only later (an acquire
    // completed after this access): the report waits for the launch's end (launch_findings).
    const std::byte* element = c.a->base + c.index * c.a->elem_size;
    if (d.kind == FindingKind::data_race && c.a->space == Space::global && flag_like(prev) &&
        flag_like(cur) && (volatile_site(prev.site()) || volatile_site(cur.site()))) {
        if (is_flag(element)) return;
        d.unless_flag = element;
    }
    d.hazard = h;
    d.array = c.a;
    d.element = static_cast<long long>(c.index);
    d.access_size = c.size;
    d.sites.push_back(site_of_stamp(b, cur, access(cur, c.rule == Access::read)));
    d.sites.push_back(site_of_stamp(b, prev, access(prev, h == Hazard::war)));
    // Between two launches, each side names its own, so neither has to be guessed.
    if (*d.sites[1].launch.file_name()) d.sites[0].launch = b.block->grid->k.site;
    std::uint32_t sync_site = 0, fence_site = 0;
    d.hint = race_hint(prev, cur, h == Hazard::war, c.a->space, sync_site, fence_site);
    if (d.hint == Hint::next_iteration) d.barrier = tls_race->barrier;
    if (sync_site) d.sync_site = site_of(sync_site);
    if (fence_site) d.fence_site = site_of(fence_site);
    add_finding(std::move(d));
}

[[gnu::cold, gnu::noinline]] void report_uninit(const Ctx& c, std::uint32_t site) {
    if (running_attempt) {
        found_in_attempt = true;
        return;
    }
    const Loc& loc = site_of(site);
    if (const Allocation* first = wild_access_array(loc, true); first && first != c.a) return;
    Draft d;
    d.kind = FindingKind::uninitialized_read;
    d.array = c.a;
    d.element = static_cast<long long>(c.index);
    d.access_size = c.size;
    d.sites.push_back(draft_site(loc, c.kind == Access::atomic ? "atomic" : "read"));
    d.hint = c.a->space == Space::shared ? Hint::shared_uninitialized
             : c.a->cuda                 ? Hint::cuda_uninitialized
                                         : Hint::global_uninitialized;
    add_finding(std::move(d));
}

Stamp widen(const ShortStamp& s, const Stamp& r) {
    Stamp w;
    w.exec = s.exec;
    w.tsite = s.tsite;
    w.gen = r.gen;  // a concurrent reader of the same block is in the same barrier interval
    w.clk = 0;      // unknown: ordered against any lane of its warp
    return w;
}

/// The first and last element of `a` (shadow cells) that `size` bytes at `p` touch.
[[gnu::always_inline]] inline std::pair<std::size_t, std::size_t> elements(const Allocation* a,
                                                                           const void* p,
                                                                           std::size_t size) {
    const std::size_t es = a->elem_size;
    const auto off = static_cast<std::size_t>(static_cast<const std::byte*>(p) - a->base);
    // Not std::has_single_bit: on the generic x86-64 target that is a library call to
    // __popcountdi2 on every access.
    if ((es & (es - 1)) == 0) [[likely]] {
        if (es == 0) __builtin_unreachable();  // spares countr_zero's case for 0
        const int shift = std::countr_zero(es);
        return {off >> shift, (off + size - 1) >> shift};
    }
    return {off / es, (off + size - 1) / es};
}

/// Whether initcheck reports this access to an element: a read or an atomic (which reads the
/// old value) of one that nothing wrote.
[[gnu::always_inline]] inline bool reads_unwritten(const RaceBlock& b, bool written, bool reads) {
    return !written && b.init_on && reads;
}

/// Whether every stamp in `cell` comes from an earlier launch that happens before the running
/// one (launch_after_all): the usual first access of a launch to an element, with nothing in the
/// cell that it can race with.
[[gnu::always_inline]] inline bool only_earlier_launches(const Cell& cell) {
    return launch_after_all && cell.w.exec < launch_base && cell.r.exec < launch_base &&
           cell.r2.exec < launch_base;
}

/// The cell after the access `cur` when only_earlier_launches(cell): what check_cell's rules come
/// to when each `ordered` is true (no race; the new stamp replaces what it orders).
[[gnu::always_inline]] inline void stamp_after_earlier_launches(Cell& cell, Access k,
                                                                const Stamp& cur) {
    if (k == Access::read) {
        cell.r = cur;
    } else {
        cell.w = cur;
        cell.r = {};
    }
    cell.r2 = {};
}

/// only_earlier_launches for element i of global memory, read packed: intervals grow with exec
/// ids, so an earlier launch's are below the running launch's first. A cell that holds a second
/// reader is left to the whole rule, which puts its w back in place.
[[gnu::always_inline]] inline bool only_earlier_launches(const Allocation* a, std::size_t i) {
    const GlobalCell& g = global_cells(a)[i];
    return launch_after_all && !holds_r2(g) && g.w.interval() < launch_ibase &&
           g.r.interval() < launch_ibase;
}

/// stamp_after_earlier_launches, packed: `cur` is pack_cur's, not escaped.
[[gnu::always_inline]] inline void stamp_after_earlier_launches(GlobalCell& g, Access k,
                                                                PackedStamp cur) {
    if (k == Access::read) {
        g.r = cur;
    } else {
        g.w = cur;
        g.r = {};
    }
}

/// Whether `cur`, a read not ordered after the cell's r, is by a block of the running launch
/// above two others that read the element since its latest grid.sync(): the lowest (r) and the
/// second lowest (r2), which keep their reads. A later write by any block meets one of the two
/// unordered, so the third's read need not be kept, while no block orders itself after
/// another's (blocks_unordered); once one may, the write may be ordered after both kept reads
/// and not after the third, which the cell must then keep instead.
[[gnu::always_inline]] inline bool third_block_read(const RaceBlock& b, const Cell& cell,
                                                    const Stamp& cur) {
    return cell.r.exec >= phase_base && cell.r2.exec >= phase_base && cell.r.exec < cur.exec &&
           cell.r2.exec != cell.r.exec && cell.r2.exec < cur.exec && blocks_unordered(b);
}

[[gnu::always_inline]] inline void check_cell(const RaceBlock& b, Cell& cell, const Ctx& c,
                                              const Stamp& cur) {
    if (c.a->space == Space::shared) {  // shared memory lives for one block
        if (cell.w.exec != cur.exec && !earlier_phase_of(cell.w.exec, b)) cell.w = {};
        if (cell.r.exec != cur.exec && !earlier_phase_of(cell.r.exec, b)) cell.r = {}, cell.r2 = {};
    }
    bool written = cell.w.exec != exec_none || c.a->host_init;
    if (only_earlier_launches(cell)) [[likely]] {
        if (reads_unwritten(b, written, c.reads)) report_uninit(c, cur.site());
        return stamp_after_earlier_launches(cell, c.rule, cur);
    }
    // Two atomics do not race when each is atomic for the other's thread.
    auto atomic_pair = [&](const Stamp& prev) {
        return cur.atomic() && prev.atomic() && atomics_agree(b, prev, cur);
    };
    switch (c.rule) {
        case Access::read:
            if (reads_unwritten(b, written, c.reads)) report_uninit(c, cur.site());
            if (b.race_on && cell.w.exec != exec_none && !atomic_pair(cell.w) &&
                !ordered(b, cell.w, cur))
                report_race(b, c, Hazard::raw, cell.w, cur);
            // Keep two readers that a later write must be checked against: when the reads are
            // concurrent, the first and the latest (they are by different threads); otherwise
            // the latest, which the earlier ones happen before. Of the blocks of one launch that
            // read the element, r2 keeps the second lowest's latest read (the lowest has r):
            // any one other block's read makes a write race, and a rule that lets the rest
            // leave the cell alone costs them no store, and holds whatever order blocks run in
            // (check_cell_in_attempt).
            if (cell.r.exec == exec_none || ordered(b, cell.r, cur)) {
                if (cell.r2.exec != exec_none && ordered(b, widen(cell.r2, cell.r), cur))
                    cell.r2 = {};
                cell.r = cur;
            } else if (!third_block_read(b, cell, cur)) {
                cell.r2 = {cur.exec, cur.tsite};
            }
            break;
        case Access::write:
        case Access::atomic:
            if (reads_unwritten(b, written, c.reads)) report_uninit(c, cur.site());
            if (b.race_on) {
                if (cell.w.exec != exec_none && !atomic_pair(cell.w) && !ordered(b, cell.w, cur))
                    report_race(b, c, Hazard::waw, cell.w, cur);
                if (cell.r.exec != exec_none && !atomic_pair(cell.r) && !ordered(b, cell.r, cur))
                    report_race(b, c, Hazard::war, cell.r, cur);
                else if (cell.r2.exec != exec_none && !atomic_pair(widen(cell.r2, cell.r)) &&
                         !ordered(b, widen(cell.r2, cell.r), cur))
                    report_race(b, c, Hazard::war, widen(cell.r2, cell.r), cur);
            }
            // An atomic right after the same thread's plain write, with no barrier or __syncwarp
            // between, is ordered exactly as that write is. Keeping the plain write lets other
            // threads' atomics still race with it (two atomics never race).
            if (!(cur.atomic() && !cell.w.atomic() && cell.w.exec == cur.exec &&
                  cell.w.thread() == cur.thread() && cell.w.gen == cur.gen &&
                  cell.w.clk == cur.clk))
                cell.w = cur;
            cell.r = {};
            cell.r2 = {};
            break;
    }
}

/// Whether `cell` already holds this very access, as TSan's fast path asks first: `cur` (the same
/// thread, site and kind, in the same block execution, barrier interval and warp clock) is its
/// last read, or, for a write or atomic, its last write with no read since. Checking it again can
/// change nothing and find nothing new: a write since would have cleared the read, a barrier,
/// __syncwarp or grid.sync() since would have moved `cur` on, and what the cell still holds was
/// checked against this access last time, where a report would have had the same key. (A repeated
/// read may drop r2 when r2 lies in the same warp as r; kept, r2 decides no later check
/// differently, since a later write either races with r first or is ordered after r and thus after
/// r2.)
[[gnu::always_inline]] inline bool already_recorded(const Cell& cell, Access k, const Stamp& cur) {
    if (k == Access::read) return cell.r == cur;
    return cell.w == cur && cell.r.exec == exec_none;
}
/// already_recorded, packed: `cur` is pack_cur's, not escaped (an escaped stamp's equality needs
/// its Extra: load_cell's).
[[gnu::always_inline]] inline bool already_recorded(const GlobalCell& g, Access k,
                                                    PackedStamp cur) {
    if (k == Access::read) return g.r == cur;
    return g.w == cur && g.r.interval() == exec_none;
}

/// The usual access to element i of global memory, decided from its packed cell: `cur` (pack_cur's,
/// not escaped) is already recorded, or the access is the launch's first to the element and
/// initcheck has nothing to say (`rule` and `reads` as in Ctx), where it is stamped as check_cell
/// would stamp it. False for what the whole rule must decide.
[[gnu::always_inline]] inline bool settle_global(const RaceBlock& b, const Allocation* a,
                                                 std::size_t i, Access rule, bool reads,
                                                 PackedStamp cur) {
    GlobalCell& cell = global_cells(a)[i];
    if (already_recorded(cell, rule, cur)) return true;
    const bool written = cell.w.interval() != exec_none || a->host_init;
    if (!only_earlier_launches(a, i) || reads_unwritten(b, written, reads)) return false;
    stamp_after_earlier_launches(cell, rule, cur);
    return true;
}

/// `rule` (check_cell or check_cell_in_attempt) on element i of global memory: unpacked,
/// checked, and what changed packed back. Returns what the rule returns.
template <class Rule>
[[gnu::always_inline]] inline bool on_global_cell(const Allocation* a, std::size_t i, Rule rule) {
    Cell c = load_cell(a, i);
    const Cell before = c;
    const bool result = rule(c);
    store_cell(a, i, c, before);
    return result;
}

/// The stamp of an access by thread `t` of the running block at interned site `site`.
[[gnu::always_inline]] inline Stamp stamp(const RaceBlock& b, std::uint32_t site, Access kind,
                                          unsigned t, std::uint32_t flags = 0) {
    return Stamp::of(b.exec, site << 12 | (kind == Access::atomic ? 1u << 10 : 0u) | flags | t % 1024,
                     b.gen, b.vc_used ? b.vc[t * 32 + t % 32] : 1);
}

/// check_cell for element c.index of global memory (c.a), unless it holds `cur` already
/// (`packed`: pack_cur's): settled from the packed cell where it can be, unpacked otherwise.
[[gnu::always_inline]] inline void check_global(const RaceBlock& b, const Ctx& c, const Stamp& cur,
                                                PackedStamp packed) {
    if (!packed.escaped() && settle_global(b, c.a, c.index, c.rule, c.reads, packed)) return;
    on_global_cell(c.a, c.index, [&](Cell& cell) {
        if (!already_recorded(cell, c.rule, cur)) check_cell(b, cell, c, cur);
        return true;
    });
}

/// check_cell for each element first..last of `a` that does not hold `cur` already, whichever
/// form its cells take; `c` with each element's index.
[[gnu::always_inline]] inline void check_elements(const RaceBlock& b, const Allocation* a,
                                                  std::size_t first, std::size_t last, Ctx c,
                                                  const Stamp& cur) {
    if (!packed_cells(*a)) {
        auto* cells = static_cast<Cell*>(a->shadow);
        for (std::size_t i = first; i <= last; ++i)
            if (!already_recorded(cells[i], c.rule, cur)) {
                c.index = i;
                check_cell(b, cells[i], c, cur);
            }
        return;
    }
    const PackedStamp packed = pack_cur(b, cur);
    for (std::size_t i = first; i <= last; ++i) {
        c.index = i;
        check_global(b, c, cur, packed);
    }
}

/// record's part for an atomic access, or a volatile one (AtomicNote): the race rule with the
/// stamp's atomic and scope flags, then the order of fences and atomics.
[[gnu::noinline]] void record_atomic(RaceBlock& b, const Allocation* a, const void* p,
                                     std::size_t size, Access kind, std::uint32_t site,
                                     AtomicNote* note, unsigned t, std::size_t first,
                                     std::size_t last) {
    AtomicNote view_note;  // a view's atomic of another scope: a read-modify-write
    if (!note) {
        view_note.scope = next_atomic_scope;
        next_atomic_scope = Scope::device;
        note = &view_note;
    }
    // A compare-and-swap writes only when it finds what it expected (checked blocks run one
    // thread at a time, so what the memory holds now is what it will find).
    if (note->expected) note->writes = std::memcmp(p, note->expected, size) == 0;
    // A volatile access is a plain one for the race rule (it orders and protects nothing), though
    // the order of fences and atomics takes it as a relaxed atomic of system scope.
    const bool atomic = !note->is_volatile;
    if (note->is_volatile) mark_volatile_site(site);
    const Access rule = note->writes ? (atomic ? Access::atomic : Access::write) : Access::read;
    const Stamp cur = stamp(b, site, Access::read, t,
                            atomic ? 1u << 10 | (note->scope == Scope::block ? 1u << 11 : 0u) : 0);
    check_elements(b, a, first, last,
                   Ctx{a, 0, note->is_volatile ? kind : Access::atomic, size, rule, note->reads}, cur);
    launch_synced = true;
    if (b.race_on && sync_atomic(b.sync, t, b.block->nthreads, position(b, t), p, *note, cur))
        tick_own_clock(b, t);
}

// --- A parallel attempt (attempt.hpp) -------------------------------------------------------

/// Striped locks over the cells of global memory while an attempt runs, so that of two blocks
/// touching one cell at once, the second sees the first's stamp. One lock per 128 cells (2 KiB of
/// shadow; 4096 locks, 2^12), each on a cache line of its own: a worker walking its block's
/// elements takes one lock many times in a row, and workers on different blocks seldom share one.
struct alignas(64) CellLock {
    std::atomic<bool> held{false};
};
CellLock cell_locks[4096];

class CellGuard {
public:
    // Hashed: arrays whose rows are a power of two apart would otherwise put the rows two
    // workers walk on the same locks.
    explicit CellGuard(const GlobalCell& c)
        : held_(cell_locks[(reinterpret_cast<std::uintptr_t>(&c) >> 11) * 0x9E3779B97F4A7C15ull >>
                           52].held) {
        while (held_.exchange(true, std::memory_order_acquire))
            while (held_.load(std::memory_order_relaxed)) std::this_thread::yield();
    }
    ~CellGuard() { held_.store(false, std::memory_order_release); }
    CellGuard(const CellGuard&) = delete;
    CellGuard& operator=(const CellGuard&) = delete;

private:
    std::atomic<bool>& held_;
};

/// In an attempt, a bit of r2's tsite (the block-scope bit, which only atomics' stamps use, and
/// no read of an attempt is atomic), while r2 is a read of r's block: r2 was stamped after r, so
/// it is that block's latest read.
constexpr std::uint32_t r2_after_r = 1u << 11;

/// Whether `exec` is the running launch's, and another block's than `cur`'s.
[[gnu::always_inline]] inline bool another_block(std::uint32_t exec, const Stamp& cur) {
    return exec >= launch_base && exec != cur.exec;
}

/// The latest read of r's block, when neither r nor r2 holds it, set aside in the cell's w
/// (exec_aside; the block execution in gen and clk). Only cells that several blocks read and none
/// writes use it, where w is the state before the launch, which the attempt's copy restores.
ShortStamp aside_read(const Cell& cell) {
    if (cell.w.exec != exec_aside) return {};
    return {cell.w.gen | std::uint32_t(cell.w.clk) << 16, cell.w.tsite};
}
void set_aside(Cell& cell, ShortStamp s) {
    cell.w = Stamp::of(exec_aside, s.tsite, static_cast<std::uint16_t>(s.exec),
                       static_cast<std::uint16_t>(s.exec >> 16));
    running_attempt->note_aside();
}

/// check_cell in an attempt, for a cell of global memory under its lock. False when `cur` meets
/// another block's access (attempt.hpp): a write after another block's read or write, or a read
/// after its write. Otherwise the cell ends as the serial run leaves it, whatever order the
/// blocks came in:
///  - a cell only one block touches sees that block's accesses in its own order, from the state
///    earlier launches left;
///  - a cell several blocks read (and, without a meeting, none writes) ends in the serial run
///    with r as the lowest of them left it, and r2 as the second lowest block's latest read
///    (third_block_read). So the lowest block seen so far keeps r by its own rule, and r2 the
///    second lowest's latest read; a lower block arriving takes r over, and the block it takes
///    it from becomes the second lowest, with its latest read for r2. That read is r, or r2 when
///    r2_after_r says it came later, or, once a higher block's read holds r2, the one set aside.
bool check_cell_in_attempt(const RaceBlock& b, Cell& cell, const Ctx& c, const Stamp& cur) {
    if (c.rule != Access::read) {
        if (already_recorded(cell, c.rule, cur)) return true;
        if (another_block(cell.w.exec, cur) || another_block(cell.r.exec, cur) ||
            another_block(cell.r2.exec, cur))
            return false;
        check_cell(b, cell, c, cur);
        return true;
    }
    if (another_block(cell.w.exec, cur)) return false;
    const bool r_other = another_block(cell.r.exec, cur);
    const bool r2_other = another_block(cell.r2.exec, cur);
    if (!r_other) {  // r is this block's (or no read of this launch yet)
        if (cell.r == cur) {  // the same read again: the block's latest is r
            if (!r2_other) cell.r2.tsite &= ~r2_after_r;
            else if (cell.w.exec == exec_aside) set_aside(cell, {});
            return true;
        }
        if (!r2_other) {  // this block's reads alone, so far
            check_cell(b, cell, c, cur);
            if (cell.r == cur) cell.r2.tsite &= ~r2_after_r;
            else cell.r2.tsite |= r2_after_r;
            return true;
        }
        // r2 is a higher block's read: r goes on by this block's rule, and a read concurrent
        // with r, which would have gone to r2, is set aside.
        const ShortStamp higher = cell.r2;
        cell.r2 = {};
        check_cell(b, cell, c, cur);
        if (cell.r != cur) set_aside(cell, cell.r2);
        else if (cell.w.exec == exec_aside) set_aside(cell, {});
        cell.r2 = higher;
        return true;
    }
    if (cur.exec > cell.r.exec) {  // above the lowest block: as in the serial run
        // r2 holding r's block's latest read is about to give way to this block's: set it aside.
        if (cell.r2.exec == cell.r.exec && (cell.r2.tsite & r2_after_r) &&
            !third_block_read(b, cell, cur))
            set_aside(cell, {cell.r2.exec, cell.r2.tsite & ~r2_after_r});
        check_cell(b, cell, c, cur);
        return true;
    }
    // Below the block that read first, which becomes the second lowest with its latest read;
    // this block starts r as if it read first.
    ShortStamp latest{cell.r.exec, cell.r.tsite};
    if (cell.r2.exec == cell.r.exec && (cell.r2.tsite & r2_after_r)) latest = cell.r2;
    else if (ShortStamp s = aside_read(cell); s.exec != exec_none) latest = s;
    latest.tsite &= ~r2_after_r;
    if (cell.w.exec == exec_aside) set_aside(cell, {});
    cell.r = {};
    cell.r2 = {};
    check_cell(b, cell, c, cur);  // initcheck's question, and r = cur
    cell.r2 = latest;
    return true;
}

/// A read that cannot change the cell, decided without its lock in an attempt: two other blocks
/// of the launch, both below this one, read the element since its latest grid.sync(), and
/// something wrote it before the launch. A write by any block would meet one of those reads, so
/// the read needs no stamp of its own to be met; and it is no block's r or r2 in the serial run
/// either (third_block_read, whose blocks_unordered the caller asks).
[[gnu::always_inline]] inline bool read_leaves_cell(const Allocation* a, std::size_t i,
                                                    const Stamp& cur) {
    const GlobalCell& g = global_cells(a)[i];
    const std::uint32_t r_iv = __atomic_load_n(&g.r.iv, __ATOMIC_RELAXED) & interval_mask;
    const PackedStamp w = load_w_slot(g);
    const std::uint32_t w_iv = w.iv;
    // A second reader in w's place, after a write of an earlier launch; r of this phase's run.
    if (!(w.tsite & cell_holds_r2) || !(w_iv & interval_escape) || !run_intervals.holds_interval(r_iv))
        return false;
    const std::uint32_t r = run_intervals.exec_of(r_iv);
    const std::uint32_t r2 = w_iv & interval_mask;
    return r < cur.exec && r2 >= phase_base && r2 != r && r2 < cur.exec;
}

/// An owning attempt's claim (attempt.hpp) of the granule of element i of `a` for block execution
/// `exec`, which holds it from then on: made when no block of the launch holds it, and the
/// granule copied before the block's first access. A granule another block holds ends the
/// attempt, to be tried again (grid.cpp): owning, with smaller granules, or with locks.
[[gnu::cold, gnu::noinline]] void claim_granule(const Allocation* a, std::size_t i,
                                                std::uint32_t exec) {
    ParallelAttempt& attempt = *running_attempt;
    auto& alloc = const_cast<Allocation&>(*a);
    if (attempt.failed() || !attempt.touch(alloc)) leave_attempt();
    const std::size_t g = i >> granule_shift(*a);  // the attempt's, now that it touched `a`
    std::uint32_t& owner = granule_owners(a)[g];
    std::uint32_t now = __atomic_load_n(&owner, __ATOMIC_ACQUIRE);
    while (now < launch_base)  // an earlier launch's or attempt's: free
        if (__atomic_compare_exchange_n(&owner, &now, exec, true, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE)) {
            if (!attempt.copy_granule(alloc, g)) leave_attempt();
            return;
        }
    if (now == exec) return;
    attempt.fail_shared(*a);
    leave_attempt();
}

/// In an owning attempt, the running block `exec` holds the granule of element i of `a`, or the
/// attempt ends: then the cells of the granule are the block's alone, and the rule takes them
/// exactly as it does one block at a time, without a lock.
[[gnu::always_inline]] inline void hold_granule(const Allocation* a, std::size_t i,
                                                std::uint32_t exec) {
    // Touched by the attempt first (the acquire that makes a shadow another worker just made
    // whole); a granule size from an earlier attempt finds another owner, and the claim looks
    // again.
    if (!running_attempt->copied(*a) ||
        __atomic_load_n(&granule_owners(a)[i >> granule_shift(*a)], __ATOMIC_RELAXED) != exec)
        [[unlikely]]
        claim_granule(a, i, exec);
}

/// record's path while an attempt runs. Global memory: in an owning attempt, each element's
/// granule held and the cell checked as one block at a time checks it; otherwise the allocation
/// copied before its first access, each cell checked under its lock. Shared memory is the
/// block's own, as in the serial run. Whatever the attempt cannot keep ends it here, before the
/// access is made.
[[gnu::noinline]] void record_in_attempt(const Allocation* a, const void* p, std::size_t size,
                                         Access kind, const void* pc, const Loc& where,
                                         unsigned t, const AtomicNote* note) {
    ParallelAttempt& attempt = *running_attempt;
    RaceBlock& b = *tls_race;
    // An atomic or volatile access the order of fences and atomics must see orders blocks.
    if (attempt.failed() || note ||
        (kind == Access::atomic && !(next_atomic_scope == Scope::device && sync_idle(b.sync, t))))
        leave_attempt();
    auto& alloc = const_cast<Allocation&>(*a);
    const bool shared = a->space == Space::shared;
    if (!shared && !attempt.touch(alloc)) leave_attempt();
    shadow_of(alloc);
    const auto [first, last] = elements(a, p, size);
    const std::uint32_t site = pc ? intern_pc(b.sites, pc) : intern(b.sites, where);
    const Stamp cur = stamp(b, site, kind, t);
    found_in_attempt = false;
    if (shared || attempt.owning()) {
        // The block's own cells (its shared memory, or granules it holds): as one block at a time.
        if (!shared)
            for (std::size_t i = first; i <= last; ++i) hold_granule(a, i, b.exec);
        check_elements(b, a, first, last, Ctx{a, 0, kind, size, kind, kind != Access::write}, cur);
        if (found_in_attempt) leave_attempt();
        return;
    }
    bool met = false;
    for (std::size_t i = first; i <= last && !met; ++i) {
        const Ctx c{a, i, kind, size, kind, kind != Access::write};
        if (kind == Access::read && read_leaves_cell(a, i, cur)) continue;
        CellGuard lock(global_cells(a)[i]);
        met = !on_global_cell(a, i,
                              [&](Cell& cell) { return check_cell_in_attempt(b, cell, c, cur); });
    }
    if (met || found_in_attempt) leave_attempt();
}

/// racecheck's and initcheck's work for one in-bounds access by thread `t` of the running block:
/// one shadow cell per element, found by arithmetic from the offset in the allocation (the
/// allocation comes from the arena's page table, which the bounds check has read already).
/// `Noted`: the access may carry a note (tls_atomic_note): a raw one, which may be volatile; a
/// view's access never does.
template <bool Noted>
[[gnu::always_inline]] inline void record(const Allocation* a, const void* p, std::size_t size,
                                          Access kind, const void* pc, const Loc& where,
                                          unsigned t) {
    if (running_attempt) [[unlikely]]
        return record_in_attempt(a, p, size, kind, pc, where, t, Noted ? tls_atomic_note : nullptr);
    if (!a->shadow) [[unlikely]]
        make_shadow(const_cast<Allocation*>(a));
    const auto [first, last] = elements(a, p, size);
    RaceBlock& b = *tls_race;
    const std::uint32_t site = pc ? intern_pc(b.sites, pc) : intern(b.sites, where);
    AtomicNote* const note = Noted ? tls_atomic_note : nullptr;
    // A plain access; or the usual atomic, which comes without a note (raw_access.cpp,
    // check_atomic; a view's): a relaxed read-modify-write of device scope that changes the
    // memory (atomicAdd(p, 1)), and here one that the order of fences and atomics has nothing to
    // do with (sync_idle). The rule as for any atomic. It leaves no trail (atomic_order.hpp): a
    // report about it names no atomic, and a checked atomicAdd costs what it did before fences
    // and atomics were modelled.
    if (!note && (kind != Access::atomic ||
                  (next_atomic_scope == Scope::device && sync_idle(b.sync, t)))) [[likely]] {
        check_elements(b, a, first, last, Ctx{a, 0, kind, size, kind, kind != Access::write},
                       stamp(b, site, kind, t));
        return;
    }
    record_atomic(b, a, p, size, kind, site, note, t, first, last);
}

/// racecheck and initcheck. One checker: initcheck needs the writes that racecheck's shadow
/// records, so both read and update one cell per element in one pass.
class RaceCheck final : public Checker {
public:
    RaceCheck() : Checker(/*wants_accesses=*/true, /*serial_blocks=*/true) {
        the_race_state = &state_;
    }
    bool enabled(const Config& c) const override { return c.check_race || c.check_init; }

    void launch_queued(unsigned, const KernelLaunch& k) override {
        if (config().check_race) launch_order::queued(k);
    }
    void host_waits(unsigned stream) override { launch_order::host_waits(stream); }
    void host_waits_all() override { launch_order::host_waits_all(); }
    void event_recorded(unsigned stream, OrderClock& clock) override {
        launch_order::event_recorded(stream, clock);
    }
    void stream_waits(unsigned stream, const OrderClock& clock) override {
        launch_order::stream_waits(stream, clock);
    }
    void host_waits_event(const OrderClock& clock) override {
        launch_order::host_waits_event(clock);
    }
    void ordering_missed() override { launch_order::missed(); }

    void freed(Allocation& a) override {
        if (a.shadow) unmap_cells(&a);
    }

    void host_wrote(Allocation& a, std::size_t offset, std::size_t bytes) override {
        if (bytes == 0) return;
        void* shadow = shadow_of(a);
        for (std::size_t i = offset / a.elem_size, last = (offset + bytes - 1) / a.elem_size;
             i <= last; ++i)
            if (packed_cells(a)) static_cast<GlobalCell*>(shadow)[i] = {{exec_host, 0}, {}};
            else static_cast<Cell*>(shadow)[i] = Cell{{exec_host, 0, 0, 0}, {}, {}};
    }

    void launch_begin(GridRun& g) override {
        const LaunchInfo run = begin_checked_launch(g.k);
        launch_base = phase_base = run.exec_base;
        run_intervals = run.intervals;
        launch_ibase = run.intervals.ibase;
        launch_most_barriers.store(0, std::memory_order_relaxed);
        launch_after_all = earlier_launches_ordered();
        launch_blocks = static_cast<std::uint32_t>(g.nblocks);
        launch_cooperative = g.k.cooperative;
        launch_synced = false;
        sync_new_launch();
    }

    void launch_end(GridRun& g) override {
        barriers_passed(g.k, launch_most_barriers.load(std::memory_order_relaxed));
    }

    // A race between volatile accesses of a location the launch went on to use as a flag is none.
    void launch_findings(GridRun& g) override {
        std::erase_if(g.findings, [](const PendingFinding& f) {
            return f.draft.unless_flag && is_flag(f.draft.unless_flag);
        });
    }

    void grid_synced(GridRun& g) override {
        const LaunchInfo run = begin_grid_phase(g.k);
        phase_base = run.exec_base;
        run_intervals = run.intervals;
    }

    void grid_sync(BlockState& block, const Loc& site) override {
        barrier_release(block, site);
        tls_race->exec = phase_base + static_cast<std::uint32_t>(block.linear);
        tls_race->sync.exec = tls_race->exec;
        set_intervals(*tls_race);
    }

    void block_begin(BlockState& block) override {
        if (!tls_race) {
            tls_race_owner.block = std::make_unique<RaceBlock>();
            tls_race = tls_race_owner.block.get();
        }
        RaceBlock& b = *tls_race;
        const Config& cfg = block.grid->cfg;
        b.block = &block;
        b.race_on = cfg.check_race;
        b.init_on = cfg.check_init;
        b.exec = launch_base + static_cast<std::uint32_t>(block.linear);
        b.gen = 0;
        set_intervals(b);
        b.vc_used = false;
        b.sync.reset();
        b.sync.exec = b.exec;
        // The access hooks may skip the seam when no other checker wants accesses.
        tls::race_direct = block.grid->accessors_on == 1;
    }

    void block_end(BlockState&) override {
        const std::uint16_t gen = tls_race->gen;
        std::uint16_t most = launch_most_barriers.load(std::memory_order_relaxed);
        while (most < gen && !launch_most_barriers.compare_exchange_weak(most, gen)) {
        }
    }

    void barrier_release(BlockState&, const Loc& site) override {
        RaceBlock& b = *tls_race;
        ++b.gen;
        set_intervals(b);
        b.barrier = site;
        // Lanes need ordering only between two barriers: back to the clocks' starting state,
        // which access() and warp_clock assume while vc_used is false.
        b.vc_used = false;
        if (b.sync.used) b.sync.barrier();  // a barrier is a fence for each thread
    }

    void fence(BlockState& block, Scope s, int order, const void* pc) override {
        RaceBlock& b = *tls_race;
        if (!b.race_on || order == __ATOMIC_RELAXED) return;
        const unsigned t = tls::thread->linear;
        sync_fence(b.sync, t, block.nthreads, position(b, t), s, order, intern_pc(b.sites, pc));
        tick_own_clock(b, t);
    }

    void warp_sync(BlockState&, unsigned warp, unsigned mask) override {
        RaceBlock& b = *tls_race;
        start_warp_clocks(b);
        std::uint16_t joined[32] = {};
        for (unsigned l = 0; l < 32; ++l)
            if (mask >> l & 1)
                for (unsigned j = 0; j < 32; ++j)
                    joined[j] = std::max(joined[j], b.vc[(warp * 32 + l) * 32 + j]);
        for (unsigned l = 0; l < 32; ++l) {
            if (!(mask >> l & 1)) continue;
            std::uint16_t* row = &b.vc[(warp * 32 + l) * 32];
            std::memcpy(row, joined, sizeof joined);
            ++row[l];  // this lane's later accesses are not known to the others until the next sync
        }
    }

    // The tile's threads are in several warps, which the warp clocks do not join: the meeting is
    // knowledge of the fences' kind, one point over the tile, its clocks set alike so that the
    // point covers what each did before it and nothing after.
    void tile_sync(BlockState&, unsigned first, unsigned count) override {
        RaceBlock& b = *tls_race;
        if (!b.race_on) return;
        start_warp_clocks(b);
        std::uint16_t clk = 0;
        for (unsigned t = first; t < first + count; ++t) clk = std::max(clk, b.vc[t * 32 + t % 32]);
        b.sync.group_barrier(b.exec, first, count, b.block->nthreads, b.gen, clk);
        for (unsigned t = first; t < first + count; ++t)
            b.vc[t * 32 + t % 32] = static_cast<std::uint16_t>(clk + 1);
    }

    void access(const AccessEvent& e) override {
        record<true>(e.array, e.address, e.size, e.kind, e.pc, e.where, e.thread.linear);
    }

private:
    RaceState state_;  ///< race_state(): checkers() makes this checker once and never destroys it
};

}  // namespace

const Loc& site_of(std::uint32_t id) {
    Sites& s = sites();
    if (s.pcs[id]) {  // a raw access's site, named for the first time
        s.locs[id] = loc_of(s.pcs[id]);
        s.pcs[id] = nullptr;
    }
    return s.locs[id];
}

void race_access(const Allocation* a, const void* p, std::size_t size, Access kind,
                 const void* pc, Loc where) {
    record<false>(a, p, size, kind, pc, where, tls::thread->linear);
}

/// A raw access that race_raw_access could not settle, or an atomic or volatile one.
[[gnu::noinline]] void record_raw(const Allocation* a, const void* p, std::size_t size, Access kind,
                                  const void* pc) {
    record<true>(a, p, size, kind, pc, Loc{}, tls::thread->linear);
}

/// The usual plain access to shared memory outside a cooperative launch, settled as check_cell
/// would: each stamp in the cell is another block execution's (shared memory lives for one
/// block, so check_cell drops it) or one that happens before `cur` by program order or a
/// barrier, and a read finds the element written. False for anything else, which goes through
/// the whole rule.
[[gnu::always_inline]] inline bool settle_shared(Cell& cell, Access kind, const Stamp& cur) {
    if (launch_cooperative || kind == Access::atomic) return false;
    const bool w_live = cell.w.exec == cur.exec, r_live = cell.r.exec == cur.exec;
    // A live r with a second reader needs widen's test (check_cell); a dead r takes r2 with it.
    if (r_live && !(ordered_in_block(cell.r, cur) && cell.r2.exec == exec_none)) return false;
    if (kind == Access::read) {
        // A dead write leaves the element unwritten in this block: initcheck's to report.
        if (!w_live || !ordered_in_block(cell.w, cur)) return false;
        cell.r = cur;
    } else {
        if (w_live && !ordered_in_block(cell.w, cur)) return false;
        cell.w = cur;
        cell.r = {};
    }
    cell.r2 = {};
    return true;
}

// The usual raw access, one element of an array from a site seen before, is decided here with
// loads and compares, and no call but the tail call to record_raw: it is already recorded; or,
// in global memory, it is the launch's first access to the element (only_earlier_launches) and
// initcheck has nothing to say; or, in shared memory, settle_shared settles it. Everything else
// goes through record, as a view's access does; so does every atomic, which the order of fences
// and atomics may have to see.
/// race_raw_access's usual case in an attempt, one element from a site seen before: shared
/// memory as in the serial run (the block's own); in global memory, once the allocation is
/// copied, the whole rule under the cell's lock (record_in_attempt's loop, without its setup).
/// False for what it leaves to record_in_attempt.
[[gnu::noinline]] bool settle_in_attempt(const Allocation* a, std::size_t index,
                                         std::size_t size, Access kind, const Stamp& cur) {
    if (!packed_cells(*a)) {
        Cell& cell = static_cast<Cell*>(a->shadow)[index];
        return already_recorded(cell, kind, cur) || settle_shared(cell, kind, cur);
    }
    const ParallelAttempt& attempt = *running_attempt;
    if (attempt.failed() || !attempt.copied(*a)) return false;
    found_in_attempt = false;
    bool met;
    {
        CellGuard lock(global_cells(a)[index]);
        met = !on_global_cell(a, index, [&](Cell& cell) {
            return check_cell_in_attempt(*tls_race, cell,
                                         Ctx{a, index, kind, size, kind, kind != Access::write}, cur);
        });
    }
    if (met || found_in_attempt) leave_attempt();
    return true;
}

void race_raw_access(const Allocation* a, const void* p, std::size_t size, Access kind,
                     const void* pc) {
    if (a->shadow && kind != Access::atomic) [[likely]] {
        const auto [first, last] = elements(a, p, size);
        RaceBlock& b = *tls_race;
        const SiteCache::AddressSlot& slot = pc_slot(b.sites, pc);
        if (first == last && slot.address == pc) [[likely]] {
            const Stamp cur = stamp(b, slot.id, kind, tls::thread->linear);
            const bool packed = packed_cells(*a);
            if (running_attempt) [[unlikely]] {
                if (running_attempt->owning()) {
                    // The block's own granule: what follows, as one block at a time.
                    if (packed) hold_granule(a, first, b.exec);
                } else {
                    // A third block's read of a shared input, the most frequent access of a
                    // matrix multiply, needs neither the cell's lock nor a call.
                    if (kind == Access::read && packed && read_leaves_cell(a, first, cur) &&
                        !running_attempt->failed())
                        return;
                    if (settle_in_attempt(a, first, size, kind, cur)) return;
                    return record_raw(a, p, size, kind, pc);
                }
            }
            if (!packed) {
                Cell& cell = static_cast<Cell*>(a->shadow)[first];
                if (already_recorded(cell, kind, cur) || settle_shared(cell, kind, cur)) return;
            } else {
                const PackedStamp packed_cur = pack_cur(b, cur);
                if (!packed_cur.escaped() &&
                    settle_global(b, a, first, kind, kind != Access::write, packed_cur)) [[likely]]
                    return;
                // A third block's read of a shared input, which check_cell leaves alone (with no
                // fence or atomic of its block to order the other blocks' reads before it).
                if (kind == Access::read && launch_after_all && !b.sync.used &&
                    read_leaves_cell(a, first, cur) && blocks_unordered(b))
                    return;
            }
        }
    }
    return record_raw(a, p, size, kind, pc);
}

std::unique_ptr<Checker> make_racecheck() { return std::make_unique<RaceCheck>(); }

void* shadow_of(Allocation& a) { return a.shadow ? a.shadow : make_shadow(&a); }

Cell cell_of(const Allocation& a, std::size_t i) {
    return packed_cells(a) ? load_cell(&a, i) : static_cast<const Cell*>(a.shadow)[i];
}

void restore_set_aside(Allocation& a, const GlobalCell* before, const Extra* before_extras) {
    const GlobalCell* cells = global_cells(&a);
    const Extra* x = extras(&a);
    for (std::size_t i = 0; i < a.shadow_cells; ++i) {
        if ((holds_r2(cells[i]) ? x[i].w : cells[i].w).interval() != exec_aside) continue;
        Cell c = load_cell(&a, i);
        const Cell was = c;
        c.w = before ? unpack_cell(before[i], uses_extra(before[i]) ? &before_extras[i] : nullptr).w
                     : Stamp{};
        store_cell(&a, i, c, was);
    }
}

bool extras_used(const Allocation& a) {
    return std::atomic_ref(const_cast<Allocation&>(a).shadow_extra).load();
}

void renumber_checked_blocks(const GridRun& g) {
    const LaunchInfo run = begin_grid_phase(g.k);
    launch_base = phase_base = run.exec_base;
    run_intervals = run.intervals;
    launch_ibase = run.intervals.ibase;
}

bool may_try_in_parallel(const GridRun& g) {
    const Config& c = g.cfg;
    // The profiler's counts would include the attempt's; a launch that a launch before it may
    // race with needs the serial order's first access to name.
    if (!launch_after_all || g.k.cooperative || profiler_counts(c) || g.nblocks < 2)
        return false;
    const int workers = ThreadSchedule::workers(c);
    if (workers == 1 || (workers == 0 && std::thread::hardware_concurrency() < 2)) return false;
    // The arrays the launch was given as pointers, with their shadow, must fit the copies: a
    // launch that would run out of room half way would pay for the copies it made.
    std::size_t bytes = 0;
    const Allocation* seen[PointerArgs::capacity] = {};
    for (unsigned i = 0; i < g.k.pointers.count; ++i) {
        const void* p = g.k.pointers.value[i];
        if (!arena::contains(p)) continue;  // host memory: its writes end the attempt
        const Allocation* a = arena::owner_in_range(p);
        if (!a || std::find(seen, seen + i, a) != seen + i) continue;
        seen[i] = a;
        bytes += a->size + std::max<std::size_t>(a->shadow_cells, a->size / a->elem_size) *
                               (sizeof(GlobalCell) + (a->shadow_extra ? sizeof(Extra) : 0));
    }
    return fits_attempt_budget(bytes) && worth_trying(g);
}

}  // namespace simt::sim::detail

namespace simt::sim {

ShadowUsage shadow_usage() { return {detail::shadow_total.load(), detail::memory_total.load()}; }

}  // namespace simt::sim
