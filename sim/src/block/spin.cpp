// Threads that spin on memory: a flag, a lock, a ticket another thread or block will change.
//
// A block's threads run one at a time on fibers, and nothing preempts a thread that loops. In a
// checked build every atomic and volatile read passes the access hook (check/raw_access.cpp),
// so a spin is seen: a thread that reads, at the same line, the same location and finds what it
// found there last time would find it again and again until another thread writes it. Such a
// read waits (WaitKind::spin) instead, and the block's other threads run. When none of them can
// run, a waiting thread whose memory changed is woken (the lowest-numbered first, so the order
// does not depend on timing); if none changed:
//  - the other blocks of the launch run (BlockState::others, launch/turns.hpp), those not yet
//    started included, until they end or wait too;
//  - then the spinning threads run on for a while without waiting (`grace_spins` reads each), so
//    that a loop that merely reads a constant at one line ends as it would have. Only a block
//    that found nothing changed `still_limit` times in a row, with every other block ended or
//    waiting, is a deadlock, reported at the spin's line.
// This is done where blocks take turns, in launches with the race or init checker on. Where they
// run on several cores (SIMT_CHECK=none or sync), a spinning thread spins, another core may
// change what it reads, and the watchdog judges a spin that never ends (docs/simulator.md).
// An atomic read-modify-write that changes the memory it spins on (atomicAdd(&x, 1)) is no spin:
// the next read finds another value; nor is one whose result the program drops
// (`atomicOr(&flag, bit);`, read from the source line as the profiler reads it), which waits
// for nothing. Nor is a read repeated around other work: a thread that
// passed a barrier, made a fence or a __syncwarp, or an atomic or volatile write since its last
// read at the line is not spinning (spin_forget), so a loop that resets a shared flag, ORs into
// it between two barriers and tests it runs on. (Plain writes are not seen here: they take the
// access hook's fast path, which a spin's bookkeeping would slow.) The line, not the return
// address, names the read: a compiler that unrolls a spin loop makes two calls of one line.
#include <cstring>
#include <mutex>
#include <unordered_map>

#include "../memory/arena.hpp"
#include "../report/symbolize.hpp"
#include "../report/text.hpp"
#include "../state/worker.hpp"

namespace simt::sim::detail {

namespace {

/// Reads a spinning thread makes without waiting after a round that changed nothing.
constexpr unsigned grace_spins = 4096;
/// Rounds in a row with nothing changed, every other block ended or waiting, before a deadlock.
constexpr unsigned still_limit = 8;

std::uint64_t load(const void* p, unsigned n) {
    std::uint64_t v = 0;
    std::memcpy(&v, p, n);
    return v;
}

bool waits_in_spin(const ThreadState& ts) {
    return ts.status == Status::waiting && ts.wait == WaitKind::spin;
}

bool memory_changed(const SpinWatch& w) { return load(w.address, w.size) != w.value; }

/// Whether the atomic at `pc` is a read-modify-write whose result the program drops
/// (`atomicOr(&flag, bit);`): repeated, it changes memory or does nothing, and waits for nothing.
/// Read from the source line once per call site, as the profiler's RED rule reads it.
bool result_dropped(const void* pc) {
    static std::mutex m;
    static std::unordered_map<const void*, bool> known;
    std::lock_guard lock(m);
    auto [it, added] = known.try_emplace(pc, false);
    if (added) {
        const Loc at = loc_of(pc);
        it->second = at.file_name() && *at.file_name() && atomic_result_unused(at.file_name(), at.line());
    }
    return it->second;
}

/// Whether two return addresses are the same source line (looked up only when they differ).
bool same_line(const void* a, const void* b) {
    if (a == b) return true;
    const Loc x = loc_of(a), y = loc_of(b);
    return x.line() != 0 && x.line() == y.line() && same_source(x.file_name(), y.file_name());
}

}  // namespace

void spin_point(const void* p, std::size_t n, const void* pc, unsigned op) {
    Worker& w = *tls::worker;
    BlockState& b = w.block;
    // Only where blocks take turns (a checked launch): where they run on several cores, a spin
    // is the watchdog's to judge (docs/simulator.md).
    if (!b.others) return;
    ThreadState& ts = *tls::thread;
    if (b.spins.size() < b.nthreads) b.spins.resize(b.nthreads);
    SpinWatch& s = b.spins[ts.linear];
    const auto size = static_cast<unsigned>(n);
    std::uint64_t v = load(p, size);
    if (s.epoch == tls::block_epoch && s.address == p && s.size == size && s.value == v &&
        s.op == op && same_line(s.pc, pc) && !((op & 1) && result_dropped(pc))) {
        if (s.grace != 0) {
            --s.grace;
            return;
        }
        w.spin_wait(ts, loc_of(pc));
        return;  // the watch keeps the old value: the read now finds a new one, or spins on
    }
    s = {pc, p, v, tls::block_epoch, size, 0, op};
}

void spin_forget(BlockState& b, unsigned first, unsigned count) {
    for (unsigned t = first; t < first + count && t < b.spins.size(); ++t) b.spins[t].epoch = 0;
}

void Worker::spin_wait(ThreadState& ts, Loc site) {
    start_waiting(block, ts, WaitKind::spin, site, "a spin loop");
    block_current(ts);
}

bool spin_changed(const BlockState& b) {
    for (unsigned t = 0; t < b.nthreads && t < b.spins.size(); ++t)
        if (waits_in_spin(b.threads[t]) && memory_changed(b.spins[t])) return true;
    return false;
}

bool Worker::wake_spinners() {
    BlockState& b = block;
    auto wake = [&](bool all) {
        bool any = false;
        for (unsigned t = 0; t < b.nthreads && t < b.spins.size(); ++t) {
            ThreadState& ts = b.threads[t];
            if (!waits_in_spin(ts)) continue;
            SpinWatch& s = b.spins[t];
            if (memory_changed(s)) {
                s.epoch = 0;  // the next read is a new one
                make_ready(ts);
            } else if (all) {
                // Not progress, for the watchdog: the thread only spins on.
                s.grace = grace_spins;
                stop_waiting(b, ts);
                b.ready.push_back(&ts);
            } else {
                continue;
            }
            any = true;
        }
        return any;
    };
    bool spinning = false;
    for (unsigned t = 0; t < b.nthreads && t < b.spins.size(); ++t)
        spinning |= waits_in_spin(b.threads[t]);
    if (!spinning) return false;
    if (wake(false)) {
        b.still_rounds = 0;
        return true;
    }
    // Nothing this block can do changes it: another block may.
    b.others->wait_for_others(b);
    if (b.aborted) return true;  // another block's error ended the launch meanwhile
    if (wake(false)) {
        b.still_rounds = 0;
        return true;
    }
    if (++b.still_rounds > still_limit) return false;
    return wake(true);
}

void spun_on(const BlockState& b, unsigned t, DeadlockDraft::Waiting& w) {
    w.spins = true;
    const SpinWatch& s = b.spins[t];
    const Allocation* a = arena::owner_in_range(s.address);
    if (!a) return;
    w.spun = a;
    w.element = static_cast<std::size_t>(static_cast<const std::byte*>(s.address) - a->base) /
                std::max<std::size_t>(a->elem_size, 1);
    w.value = s.value;
}

}  // namespace simt::sim::detail
