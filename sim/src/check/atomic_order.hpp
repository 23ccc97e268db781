// Happens-before from fences and atomics: CUDA's release and acquire patterns, with scopes.
//
// The rule (docs/checkers.md, "What orders two accesses"), in the form CUDA C++ exposes the PTX
// memory model:
//  - A *release* is an atomic write (a store or a read-modify-write) made with release order or
//    stronger (libcu++), or one preceded in the same thread by a fence (__threadfence() and its
//    kin, cuda::atomic_thread_fence). It releases what the thread knew at that fence: its own
//    accesses before it, and whatever it had acquired, or its block had passed a barrier after.
//  - An *acquire* is an atomic read (a load or a read-modify-write) made with acquire order or
//    stronger, or one followed in the same thread by a fence of a scope that includes the
//    releasing thread. A block barrier is a fence of block scope for every thread that passes it
//    (PTX: bar.sync orders memory as membar.cta does): it completes an acquire of its own block's
//    release, not of another block's.
//  - An acquire left incomplete (no fence after the atomic yet, or one of block scope after
//    another block's release) orders what follows only as today's GPUs happen to: the race rule
//    calls a read it alone orders a memory-model finding, not a data race (race.cpp,
//    report_race), and so a write after a fence of block scope; a write with no fence at all
//    since the atomic may be performed before the atomic's read, and is a data race.
//  - A volatile load or store takes part as a relaxed atomic of system scope (a fence then a
//    volatile store releases; a volatile read then a fence acquires), though for the race rule
//    it is a plain access. A location that an acquire read a release from is a *flag*
//    (is_flag): volatile accesses to it are not reported against each other.
//  - An acquire that reads what a release wrote, or what a later read-modify-write of the same
//    location wrote (its release sequence), makes everything the release released happen before
//    everything after the acquire.
//  - Scopes: a release through __threadfence_block() or a `_block` atomic reaches only threads of
//    its own block; an acquire through a `_block` atomic takes only its own block's releases.
//
// simt runs one block's thread at a time in a checked launch, so the write an atomic read sees is
// the last one made: each atomic location keeps the clock of what was released into it, as
// ThreadSanitizer keeps a sync clock per atomic address. Only locations that a release wrote have
// one; the rest of the atomics cost a table store for the reports (LastWrite).
#pragma once
#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "checker.hpp"
#include "shadow.hpp"

namespace simt::sim::detail {

/// A place in one thread's program: thread `thread` of block execution `exec`, in its block's
/// barrier interval `gen`, at its own warp clock `clk` (race.cpp's Stamp fields). It covers what
/// the block did in earlier intervals, and what the thread did in this one up to that clock.
/// `thread == every_thread` covers every thread of the block up to that interval and clock; a
/// `span` above 1 covers threads thread .. thread + span - 1 (a tile of several warps that met,
/// whose clocks the meeting set alike).
struct SyncPoint {
    std::uint32_t exec = 0;
    std::uint16_t thread = 0, gen = 0, clk = 0, span = 1;
};
inline constexpr std::uint16_t every_thread = 0xFFFF;

/// What happens before a thread through fences and atomics: a sparse vector clock over block
/// executions. It may cover more than the program orders when it grows large (several threads of
/// one block become the whole block; many blocks, every block below a floor): that can hide a
/// race, never invent one.
class Knowledge {
public:
    bool covers(const Stamp& s) const;
    void add(const SyncPoint& p);
    /// This knowledge's points of block execution `exec` joined into `own`, the rest into `others`.
    void split(std::uint32_t exec, Knowledge& own, Knowledge& others) const;
    void join(const Knowledge& o);
    bool empty() const { return points_.empty() && floor_ == 0; }
    void clear() {
        points_.clear();
        floor_ = 0;
    }

private:
    void compact();
    std::vector<SyncPoint> points_;  ///< sorted by exec, then thread
    std::uint32_t floor_ = 0;        ///< every block execution below it is covered whole
};

/// How an acquire that orders two accesses only as today's GPUs do was left incomplete.
enum class Incomplete : std::uint8_t {
    none,
    no_fence,     ///< nothing followed the atomic read yet
    barrier,      ///< only a __syncthreads() (a fence of block scope) followed it
    block_fence,  ///< a __threadfence_block() followed it, and the release was another block's
};

/// One thread's part of the order: what it has acquired, and what its last fence released.
struct ThreadSync {
    Knowledge known;     ///< acquired: happens before the thread's next access
    Knowledge pending;   ///< read by an atomic, acquired at the thread's next fence or barrier
    Knowledge weak;      ///< another block's release, acquired with a __threadfence_block()
    Knowledge released;  ///< everything before its last fence, for its next atomic write
    Scope release_scope = Scope::device;
    bool fenced = false;
    std::uint32_t pending_site = 0;  ///< the atomic read that left `pending`, for reports
    std::uint32_t weak_site = 0;     ///< ... and `weak`
    /// Locations whose read left `pending` (and which the thread has not written since): flags
    /// once a fence or barrier completes the acquire.
    std::vector<const void*> acquired_from;
    bool touched = false;            ///< in BlockSync::touched
};

/// An acquire that orders an access only as today's GPUs do: how it was left incomplete, and the
/// atomic read that began it.
struct IncompleteAcquire {
    Incomplete how = Incomplete::none;
    std::uint32_t site = 0;  ///< an interned site
};

/// The order as one running block execution sees it (race.cpp keeps one per worker).
struct BlockSync {
    Knowledge block_known;  ///< acquired by some thread, then passed through a barrier
    Knowledge block_weak;   ///< another block's release, its acquire completed by a barrier only
    std::uint32_t block_weak_site = 0;  ///< the atomic read that began it
    std::uint32_t exec = 0;             ///< the block execution (barrier() splits by it)
    std::vector<ThreadSync> threads;
    std::vector<unsigned> touched;  ///< threads with a ThreadSync in use, for reset
    bool used = false;

    ThreadSync& thread(unsigned t, unsigned nthreads);
    const ThreadSync* find(unsigned t) const {
        return t < threads.size() && threads[t].touched ? &threads[t] : nullptr;
    }
    /// Whether thread `t` knows `s` to happen before its next access.
    bool covers(unsigned t, const Stamp& s) const;
    /// Whether only an incomplete acquire of thread `t` orders `s` before its next access.
    IncompleteAcquire incomplete(unsigned t, const Stamp& s) const;
    void reset();
    /// A block barrier completed: for each thread a fence (its pending acquire is complete), and
    /// what each knew is known to all.
    void barrier();
    /// Threads first .. first + count - 1 met at a barrier of their own (a tile of several warps
    /// synced), each with clock at most `clk` in interval `gen` of block execution `exec`: what
    /// each knew, and what each did up to there, is known to all of them.
    void group_barrier(std::uint32_t exec, unsigned first, unsigned count, unsigned nthreads,
                       std::uint16_t gen, std::uint16_t clk);
};

/// A warp's latest atomic, kept for reports only (sync_hint): where, by which thread and when,
/// what it did, and whether it released. Direct-mapped, so that an atomic costs a store, not a map
/// insertion; by warp, not by thread, so that the atomics of a warp's 32 threads store to one
/// entry, which stays in the cache. Two words, stored whole from registers: each store before a
/// locked instruction is waited for, and a Trail of fields cost a checked atomicAdd 2.7 ns (built
/// on the stack and copied, 8 ns: stores and loads of other sizes are not forwarded). A hint about
/// a thread whose warp made an atomic since is not given, nor one about the usual atomicAdd(p, 1),
/// which leaves no trail (race.cpp, record).
struct Trail {
    std::uint64_t where = 0;  ///< address (47 bits) | released << 47 | barrier interval << 48
    std::uint64_t who = 0;    ///< block execution | the Stamp's tsite << 32, whose atomic bit
                              ///< says "writes" here and whose scope bit says "of block scope"
    const void* address() const {
        return reinterpret_cast<const void*>(where & ((std::uint64_t(1) << 47) - 1));
    }
    bool released() const { return where >> 47 & 1; }
    std::uint16_t gen() const { return static_cast<std::uint16_t>(where >> 48); }
    std::uint32_t exec() const { return static_cast<std::uint32_t>(who); }
    unsigned thread() const { return who >> 32 & 0x3FF; }
    bool writes() const { return who >> 42 & 1; }
    bool block_scope() const { return who >> 43 & 1; }
    std::uint32_t site() const { return static_cast<std::uint32_t>(who >> 44); }
};
inline std::array<Trail, 1024> sync_trail{};
/// The entry of the warp of `thread`: the warps of one block are neighbours, the blocks 37 apart.
inline Trail& trail_of(std::uint32_t exec, unsigned thread) {
    return sync_trail[(exec * 37u + thread / 32) % sync_trail.size()];
}
/// Records an atomic made by `who` at `address` in its warp's entry.
[[gnu::always_inline]] inline void note_trail(const void* address, const Stamp& who, bool writes,
                                              bool released = false, bool block_scope = false) {
    Trail& t = trail_of(who.exec, who.thread());
    t.where = reinterpret_cast<std::uintptr_t>(address) | std::uint64_t(released) << 47 |
              std::uint64_t(who.gen) << 48;
    const std::uint32_t tsite = (who.tsite & ~0xC00u) | (writes ? 0x400u : 0u) |
                                (block_scope ? 0x800u : 0u);
    t.who = who.exec | std::uint64_t(tsite) << 32;
}
/// How many atomic locations have a clock (a release wrote them) in the running launch.
inline std::size_t sync_clocks = 0;

/// Whether the order of fences and atomics has nothing to do for a relaxed atomic of thread `t`:
/// it made no fence and acquired nothing, and no release was made in this launch (the usual
/// atomicAdd, which the race rule then takes as it takes any atomic).
inline bool sync_idle(const BlockSync& b, unsigned t) { return sync_clocks == 0 && !b.find(t); }

/// A fence of scope `s` by thread `t`, now at `here`: completes its pending acquire and makes
/// everything up to `here` its release for the next atomic write (each as far as `order`, a C++
/// memory order, asks; __threadfence() is sequentially consistent: both). The caller moves the thread's
/// clock past `here` afterwards.
void sync_fence(BlockSync& b, unsigned t, unsigned nthreads, const SyncPoint& here, Scope s,
                int order, std::uint32_t site);

/// Thread `t` (now at `here`) makes the atomic access `note` to `address`, about to be performed.
/// `cur` is its stamp. True when the write is a release (with release order, or after a fence):
/// the caller moves the thread's clock past `here`, so that a report can tell an access before
/// the release atomic from one after it.
bool sync_atomic(BlockSync& b, unsigned t, unsigned nthreads, const SyncPoint& here,
                 const void* address, const AtomicNote& note, const Stamp& cur);

/// Whether an acquire read a release from `address` in the running launch, and a fence or a
/// barrier then completed it: the location is a flag, whose volatile accesses do not race.
bool is_flag(const void* address);

/// Forgets every location's clock: a new checked launch begins (launches are ordered by the
/// launch order, or not at all: atomics between concurrent kernels are not modelled).
void sync_new_launch();

/// Why a race between `prev` and the running thread `t`'s access `cur` was not ordered by the
/// fences and atomics the program has, when that explains it: the hint and the site it names.
struct SyncHint {
    Hint hint = Hint::none;
    std::uint32_t site = 0;        ///< the atomic the hint names (an interned site)
    std::uint32_t fence_site = 0;  ///< and the fence before it, where the hint names one
};
SyncHint sync_hint(const BlockSync& b, unsigned t, const Stamp& prev, const Stamp& cur);

}  // namespace simt::sim::detail
