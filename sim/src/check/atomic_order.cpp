// Happens-before from fences and atomics (atomic_order.hpp states the rule). Runs only under
// Checkers::serial, one thread at a time, like the rest of racecheck.
#include "atomic_order.hpp"

#include <algorithm>
#include <tuple>
#include <unordered_set>

namespace simt::sim::detail {

namespace {

/// Knowledge past this many points is made smaller: a lock passed through every block of a large
/// grid would otherwise copy a clock as long as the grid into each acquirer.
constexpr std::size_t max_points = 256;
/// Threads of one block execution kept apart before they become the whole block.
constexpr std::size_t max_threads_per_exec = 4;

bool point_covers(const SyncPoint& p, const Stamp& s) {
    if (s.gen != p.gen) return s.gen < p.gen;
    return (p.thread == every_thread || s.thread() - p.thread < p.span) && s.clk <= p.clk;
}

/// The order points are kept in, and what makes two of them one (the later replaces the other).
auto key(const SyncPoint& p) { return std::tuple(p.exec, p.thread, p.span); }

bool later(const SyncPoint& a, const SyncPoint& b) {  // a at least as far as b
    return a.gen > b.gen || (a.gen == b.gen && a.clk >= b.clk);
}

bool is_acquire(int order) {
    return order == __ATOMIC_CONSUME || order == __ATOMIC_ACQUIRE || order == __ATOMIC_ACQ_REL ||
           order == __ATOMIC_SEQ_CST;
}
bool is_release(int order) {
    return order == __ATOMIC_RELEASE || order == __ATOMIC_ACQ_REL || order == __ATOMIC_SEQ_CST;
}

/// The clock of one atomic location: what releases wrote into it, by scope.
struct SyncVar {
    Knowledge device;         ///< releases of device or system scope: every thread may acquire
    Knowledge block;          ///< releases of block scope, by block execution `block_exec`
    std::uint32_t block_exec = 0;
};

/// A thread's latest release fence in the running launch, for reports: where it was, and the
/// interval and warp clock it was made at (accesses after it have a later clock).
struct LastFence {
    std::uint32_t site = 0;
    std::uint16_t gen = 0, clk = 0;
};

struct AtomicOrder {
    std::unordered_map<const void*, SyncVar> vars;  ///< sync_clocks counts them
    std::unordered_set<const void*> flags;          ///< is_flag
    /// By block execution and thread (exec << 16 | thread): only threads that fenced.
    std::unordered_map<std::uint64_t, LastFence> fences;
};

std::uint64_t fence_key(std::uint32_t exec, unsigned thread) {
    return std::uint64_t(exec) << 16 | thread;
}

AtomicOrder the_order;  // under Checkers::serial
AtomicOrder& order() { return the_order; }

}  // namespace

// --- Knowledge --------------------------------------------------------------------------------

bool Knowledge::covers(const Stamp& s) const {
    if (s.exec < floor_) return true;
    auto it = std::lower_bound(points_.begin(), points_.end(), s.exec,
                               [](const SyncPoint& p, std::uint32_t e) { return p.exec < e; });
    for (; it != points_.end() && it->exec == s.exec; ++it)
        if (point_covers(*it, s)) return true;
    return false;
}

void Knowledge::add(const SyncPoint& p) {
    if (p.exec < floor_) return;
    auto it = std::lower_bound(points_.begin(), points_.end(), p,
                               [](const SyncPoint& a, const SyncPoint& b) { return key(a) < key(b); });
    if (it != points_.end() && key(*it) == key(p)) {
        if (later(p, *it)) *it = p;
        return;
    }
    points_.insert(it, p);
    compact();
}

void Knowledge::split(std::uint32_t exec, Knowledge& own, Knowledge& others) const {
    Knowledge mine, rest;
    rest.floor_ = floor_;
    for (const SyncPoint& p : points_) (p.exec == exec ? mine : rest).points_.push_back(p);
    own.join(mine);
    others.join(rest);
}

void Knowledge::join(const Knowledge& o) {
    if (&o == this || o.empty()) return;
    floor_ = std::max(floor_, o.floor_);
    if (points_.empty() && floor_ == o.floor_) {
        points_ = o.points_;
        return;
    }
    std::vector<SyncPoint> merged;
    merged.reserve(points_.size() + o.points_.size());
    auto a = points_.cbegin();
    auto b = o.points_.cbegin();
    while (a != points_.cend() || b != o.points_.cend()) {
        if (b == o.points_.cend() || (a != points_.cend() && key(*a) < key(*b))) {
            merged.push_back(*a++);
        } else if (a == points_.cend() || key(*b) < key(*a)) {
            merged.push_back(*b++);
        } else {
            merged.push_back(later(*a, *b) ? *a : *b);
            ++a, ++b;
        }
    }
    points_ = std::move(merged);
    compact();
}

void Knowledge::compact() {
    // Below the floor, nothing need be kept.
    points_.erase(points_.begin(),
                  std::lower_bound(points_.begin(), points_.end(), floor_,
                                   [](const SyncPoint& p, std::uint32_t e) { return p.exec < e; }));
    // Many threads of one block execution: the whole block up to the furthest of them.
    for (std::size_t i = 0; i < points_.size();) {
        std::size_t j = i;
        while (j < points_.size() && points_[j].exec == points_[i].exec) ++j;
        bool whole = points_[j - 1].thread == every_thread;
        if (j - i > max_threads_per_exec || (whole && j - i > 1)) {
            SyncPoint all{points_[i].exec, every_thread, 0, 0};
            for (std::size_t k = i; k < j; ++k)
                if (later(points_[k], all)) all.gen = points_[k].gen, all.clk = points_[k].clk;
            points_.erase(points_.begin() + static_cast<std::ptrdiff_t>(i + 1),
                          points_.begin() + static_cast<std::ptrdiff_t>(j));
            points_[i] = all;
            j = i + 1;
        }
        i = j;
    }
    // Many block executions: the older half become the floor.
    if (points_.size() > max_points) {
        std::size_t half = points_.size() / 2;
        floor_ = points_[half].exec;
        compact();
    }
}

// --- Per block --------------------------------------------------------------------------------

ThreadSync& BlockSync::thread(unsigned t, unsigned nthreads) {
    if (threads.size() < nthreads) threads.resize(nthreads);
    used = true;
    ThreadSync& ts = threads[t];
    if (!ts.touched) {
        ts.touched = true;
        touched.push_back(t);
    }
    return ts;
}

bool BlockSync::covers(unsigned t, const Stamp& s) const {
    if (block_known.covers(s)) return true;
    const ThreadSync* ts = find(t);
    return ts && ts->known.covers(s);
}

IncompleteAcquire BlockSync::incomplete(unsigned t, const Stamp& s) const {
    if (const ThreadSync* ts = find(t)) {
        if (ts->pending.covers(s)) return {Incomplete::no_fence, ts->pending_site};
        if (ts->weak.covers(s)) return {Incomplete::block_fence, ts->weak_site};
    }
    if (block_weak.covers(s)) return {Incomplete::barrier, block_weak_site};
    return {};
}

void BlockSync::reset() {
    if (!used) return;
    for (unsigned t : touched) threads[t] = ThreadSync{};
    touched.clear();
    block_known.clear();
    block_weak.clear();
    block_weak_site = 0;
    used = false;
}

namespace {

/// A fence (or barrier) of block scope completes thread `ts`'s pending acquire: of its own block's
/// releases into `own`, of other blocks' into `weak` (an acquire a GPU does not promise), and
/// the locations it read them from become flags.
void complete_in_block(ThreadSync& ts, std::uint32_t exec, Knowledge& own, Knowledge& weak,
                       std::uint32_t& weak_site) {
    Knowledge others;
    ts.pending.split(exec, own, others);
    if (!others.empty()) {
        weak.join(others);
        weak_site = ts.pending_site;
    }
    ts.pending.clear();
}

/// The locations thread `ts` acquired from are flags: its acquire is complete (or as complete as
/// a barrier makes it).
void mark_flags(ThreadSync& ts) {
    for (const void* a : ts.acquired_from) order().flags.insert(a);
    ts.acquired_from.clear();
}

}  // namespace

void BlockSync::barrier() {
    for (unsigned t : touched) {
        ThreadSync& ts = threads[t];
        complete_in_block(ts, exec, block_known, block_weak, block_weak_site);
        mark_flags(ts);
        block_known.join(ts.known);
        if (!ts.weak.empty()) {
            block_weak.join(ts.weak);
            block_weak_site = ts.weak_site;
        }
        ts.known.clear();
        ts.weak.clear();
    }
}

void BlockSync::group_barrier(std::uint32_t exec, unsigned first, unsigned count,
                              unsigned nthreads, std::uint16_t gen, std::uint16_t clk) {
    Knowledge joined;
    for (unsigned t = first; t < first + count; ++t)
        if (const ThreadSync* ts = find(t)) joined.join(ts->known);
    joined.add({exec, static_cast<std::uint16_t>(first), gen, clk,
                static_cast<std::uint16_t>(count)});
    for (unsigned t = first; t < first + count; ++t) {
        ThreadSync& ts = thread(t, nthreads);
        // A barrier is a fence of block scope for each thread that passes it, as __syncthreads is.
        complete_in_block(ts, exec, ts.known, ts.weak, ts.weak_site);
        mark_flags(ts);
        ts.known.join(joined);
    }
}

// --- Fences and atomics -----------------------------------------------------------------------

void sync_fence(BlockSync& b, unsigned t, unsigned nthreads, const SyncPoint& here, Scope s,
                int order, std::uint32_t site) {
    ThreadSync& ts = b.thread(t, nthreads);
    // Acquire: what the thread's atomics read since its last fence now happens before it; a fence
    // of block scope completes the acquire of its own block's releases only.
    if (is_acquire(order)) {
        if (s == Scope::block) {
            complete_in_block(ts, here.exec, ts.known, ts.weak, ts.weak_site);
        } else {
            ts.known.join(ts.pending);
            ts.known.join(ts.weak);
            ts.pending.clear();
            ts.weak.clear();
        }
        mark_flags(ts);
    }
    if (!is_release(order)) return;
    // Release: everything up to here, for the thread's next atomic write.
    the_order.fences[fence_key(here.exec, t)] = {site, here.gen, here.clk};  // `order` is the parameter
    ts.released = ts.known;
    ts.released.join(b.block_known);
    ts.released.add(here);
    ts.release_scope = s;
    ts.fenced = true;
}

void sync_new_launch() {
    AtomicOrder& o = order();
    o.vars.clear();
    o.flags.clear();
    o.fences.clear();
    sync_clocks = 0;
    sync_trail.fill({});
}

bool sync_atomic(BlockSync& b, unsigned t, unsigned nthreads, const SyncPoint& here,
                 const void* address, const AtomicNote& note, const Stamp& cur) {
    AtomicOrder& o = order();
    // A volatile access leaves a trail only as a release: data read and written through volatile
    // pointers would hide the flag a hint should name.
    if (!note.is_volatile) note_trail(address, cur, note.writes, false, note.scope == Scope::block);
    // The usual atomic, a relaxed one of a thread that made no fence where no release was ever
    // made: it orders nothing and takes nothing.
    if (note.order == __ATOMIC_RELAXED && sync_idle(b, t)) return false;
    if (note.reads && !o.vars.empty()) {
        auto v = o.vars.find(address);
        if (v != o.vars.end()) {
            // A `_block` atomic is atomic only among its block's threads: it reads no other
            // block's release. Block-scope releases reach only their own block.
            Knowledge got;
            if (note.scope != Scope::block) got.join(v->second.device);
            if (v->second.block_exec == here.exec) got.join(v->second.block);
            if (!got.empty()) {
                ThreadSync& ts = b.thread(t, nthreads);
                if (is_acquire(note.order)) {
                    ts.known.join(got);
                    o.flags.insert(address);
                } else {
                    ts.pending.join(got);
                    ts.pending_site = cur.site();
                    if (std::find(ts.acquired_from.begin(), ts.acquired_from.end(), address) ==
                        ts.acquired_from.end())
                        ts.acquired_from.push_back(address);
                }
            }
        }
    }
    if (!note.writes) return false;
    // A thread that writes what it read is updating it (a volatile `x += 1`), not waiting on it.
    if (!note.reads && b.find(t)) std::erase(b.threads[t].acquired_from, address);
    // What this write releases: with release order, everything up to it; otherwise what the
    // thread's last fence released, at the narrower of the two scopes.
    Knowledge released;
    Scope scope = note.scope;
    bool release = false;
    if (is_release(note.order)) {
        release = true;
        if (const ThreadSync* ts = b.find(t)) released = ts->known;
        released.join(b.block_known);
        released.add(here);
    } else if (const ThreadSync* ts = b.find(t); ts && ts->fenced) {
        release = true;
        released = ts->released;
        scope = std::min(scope, ts->release_scope);
    }
    if (!note.is_volatile || release)
        note_trail(address, cur, note.writes, release, scope == Scope::block);
    bool rmw = note.reads;
    auto v = o.vars.find(address);
    if (v == o.vars.end()) {
        if (!release) return false;
        v = o.vars.emplace(address, SyncVar{}).first;
        sync_clocks = o.vars.size();
    }
    SyncVar& var = v->second;
    // A read-modify-write continues the release sequences before it; a plain store ends them.
    if (!rmw) {
        var.device.clear();
        var.block.clear();
    }
    if (!release) return false;
    if (scope == Scope::block) {
        if (var.block_exec != here.exec) var.block.clear();
        var.block_exec = here.exec;
        var.block.join(released);
    } else {
        var.device.join(released);
    }
    return true;
}

// --- Reports ----------------------------------------------------------------------------------

bool is_flag(const void* address) { return order().flags.contains(address); }

Hint incomplete_hint(Incomplete how) {
    switch (how) {
        case Incomplete::no_fence: return Hint::acquire_without_fence;
        case Incomplete::barrier: return Hint::acquire_through_barrier;
        case Incomplete::block_fence: return Hint::acquire_block_fence;
        case Incomplete::none: break;
    }
    return Hint::none;
}

SyncHint sync_hint(const BlockSync& b, unsigned t, const Stamp& prev, const Stamp& cur) {
    // The reader's atomic read what the writer released, but no fence of a scope that includes
    // the writer followed it.
    if (IncompleteAcquire ia = b.incomplete(t, prev); ia.how != Incomplete::none)
        return {incomplete_hint(ia.how), ia.site};
    // The writer's thread wrote an atomic after `prev` (in a later barrier interval, or in the
    // same one: its latest atomic), and a thread of the reader's block made an atomic access to
    // the same location: they communicated through it, and it did not order `prev` before the
    // reader.
    const Trail& w = trail_of(prev.exec, prev.thread());
    if (!w.address() || !w.writes() || w.exec() != prev.exec || w.thread() != prev.thread() ||
        w.gen() < prev.gen)
        return {};
    bool shared_location = false;
    for (const Trail& r : sync_trail)
        shared_location |= r.address() == w.address() && r.exec() == cur.exec &&
                           (prev.exec != cur.exec || r.thread() == cur.thread());
    if (!shared_location) return {};
    if (!w.released()) return {Hint::release_without_fence, w.site()};
    if (w.block_scope() && prev.exec != cur.exec) return {Hint::release_block_scope, w.site()};
    // Released through a fence: was the access between that fence and the atomic (the clock
    // moves on at the fence and again at the release atomic), or after the atomic?
    const auto f = order().fences.find(fence_key(prev.exec, prev.thread()));
    if (f == order().fences.end()) return {Hint::write_after_release, w.site()};
    const LastFence& fence = f->second;
    if (prev.gen == fence.gen && prev.clk == fence.clk + 1)
        return {Hint::access_between_fence_and_atomic, w.site(), fence.site};
    return {Hint::write_after_release, w.site(), fence.site};
}

}  // namespace simt::sim::detail
