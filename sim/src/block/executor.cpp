// Runs one block: lazy fibers, the block barrier, deadlock detection and kernel exceptions.
#include <algorithm>
#include <boost/context/protected_fixedsize_stack.hpp>
#include <cstring>
#include <exception>

#include "../check/checker.hpp"
#include "../memory/arena.hpp"

namespace simt::sim::detail {

namespace {

#if !SIMT_OWN_FIBER_SWITCH
/// Boost's guarded stack, remembering where the guard page is for the overflow handler.
class GuardedStack {
public:
    GuardedStack(std::size_t size, FiberSlot* slot) : base_(size), slot_(slot) {}
    boost::context::stack_context allocate() {
        auto sc = base_.allocate();
        slot_->stack_hi = static_cast<std::byte*>(sc.sp);
        slot_->guard_lo = slot_->stack_hi - sc.size;
        return sc;
    }
    void deallocate(boost::context::stack_context& sc) noexcept { base_.deallocate(sc); }

private:
    boost::context::protected_fixedsize_stack base_;
    FiberSlot* slot_;
};

/// A stack from a slab (Worker::slab_stacks), a canary in place of the guard page.
class SlabStack {
public:
    SlabStack(std::size_t size, FiberSlot* slot)
        : size_((size + 4095) & ~std::size_t(4095)), slot_(slot) {}
    boost::context::stack_context allocate() {
        std::byte* lo = slab_stack_allocate(size_);
        boost::context::stack_context sc;
        sc.size = size_;
        sc.sp = lo + size_;
        slot_->stack_hi = lo + size_;
        slot_->guard_lo = lo;
        slot_->slab = true;
        return sc;
    }
    void deallocate(boost::context::stack_context& sc) noexcept {
        slab_stack_free(static_cast<std::byte*>(sc.sp) - sc.size, sc.size);
    }

private:
    std::size_t size_;
    FiberSlot* slot_;
};
#endif

}  // namespace

Worker::Worker() {
    signal_stack = install_signal_stack();
    watch.out_of_line = &tls::shadow_checks;
    watch.os_thread = pthread_self();
    dyn_shared.space = Space::shared;
    dyn_shared.elem_type = "byte";
    dyn_shared.name = "dynamic shared memory";
    // The most any launch may ask for, reserved once: a raw pointer into it is then checked.
    arena::Shortage short_of;
    dyn_shared.base =
        arena::reserve(&dyn_shared, LaunchLimits::max_shared_bytes_optin, short_of);
    if (!dyn_shared.base) {
        OutOfMemory why;  // no line of the program asked for it: the reason alone
        why.problem =
            short_of.system ? OutOfMemory::Problem::system : OutOfMemory::Problem::addresses;
        why.bytes = LaunchLimits::max_shared_bytes_optin;
        why.free = short_of.left;
        why.total = short_of.addresses;
        throw simt::Error(out_of_memory_text(why));
    }
}

AllWorkers& all_workers() {
    static AllWorkers* all = new AllWorkers;  // never destroyed, as the workers are not
    return *all;
}

Worker& worker() {
    // Never deleted: its fibers are suspended mid-loop, and unwinding them at thread exit would
    // run simulator code while the process is tearing down.
    if (!tls::worker) {
        tls::worker = new Worker();
        AllWorkers& all = all_workers();
        std::lock_guard lock(all.m);
        all.list.push_back(tls::worker);
    }
    return *tls::worker;
}

void Worker::set_stack_size(std::size_t bytes) {
    if (bytes == stack_size) return;
    // Idle fibers sit in park(): destroying them frees their stacks (with Boost's fiber, after
    // unwinding that frame with forced_unwind).
    idle_count = 0;
    idle.clear();
    fibers.clear();
    stack_size = bytes;
}

void after_resume() {
    if (tls::worker->block.aborted) [[unlikely]]
        throw BlockAborted{};
}

#if SIMT_OWN_FIBER_SWITCH
inline FiberLeave Worker::leave_for(FiberSlot* next) {
    FiberSlot* me = current;
    if (next == me) return {};
    current = next;
    return {&me->sp, next->sp};
}

void Worker::switch_to(FiberSlot* to) {
    if (FiberLeave l = leave_for(to); l.resume) simt_fiber_switch(l.save, l.resume);
}
#else
void Worker::switch_to(FiberSlot* to) {
    FiberSlot* me = current;
    if (to == me) return;
    current = to;
    prev = me;
    boost::context::fiber from = std::move(to->cont).resume();
    // Resumed: whoever switched here set `prev` to themselves and `current` to us.
    prev->cont = std::move(from);
}

// Boost's fiber is switched here: the caller is left no switch to make, and so no abort test.
inline FiberLeave Worker::leave_for(FiberSlot* next) {
    switch_to(next);
    after_resume();
    return {};
}
#endif

// A parked fiber if there is one: inlined into the executor's calls, with the new fiber's
// construction out of line, so that the usual case saves no registers.
inline FiberSlot* Worker::acquire() {
    if (idle_count != 0) [[likely]]
        return idle[--idle_count];
    return new_fiber();
}

[[gnu::noinline]] FiberSlot* Worker::new_fiber() {
    auto slot = std::make_unique<FiberSlot>();
    FiberSlot* s = slot.get();
#if SIMT_OWN_FIBER_SWITCH
    // A fiber runs threads of the running block's kernel, forever: it waits in the idle pool
    // inside the kernel's thread loop (park_after_threads), which returns here only when the
    // fiber is taken for another kernel.
    make_fiber_stack(*s, stack_size, [](FiberSlot*) { for (;;) tls::worker->run_lazy(); },
                     slab_stacks);
#else
    auto loop = [this, s](boost::context::fiber&& caller) {
        prev->cont = std::move(caller);
        for (;;) run_lazy();  // parks inside, between blocks (park_after_threads)
        return boost::context::fiber{};
    };
    if (slab_stacks)
        s->cont = boost::context::fiber(std::allocator_arg, SlabStack(stack_size, s), loop);
    else
        s->cont = boost::context::fiber(std::allocator_arg, GuardedStack(stack_size, s), loop);
#endif
    fibers.push_back(std::move(slot));
    idle.resize(fibers.size());  // room for every fiber to park
    return s;
}

namespace {

/// The fiber `after` will be resumed next: start loading the frame its switch will read back,
/// which is cold by then (a block's threads have a stack each). Two lines: four measured no
/// better.
inline void prefetch_frame([[maybe_unused]] const FiberSlot* after) {
#if SIMT_OWN_FIBER_SWITCH
    if (!after) return;  // a thread that has not blocked yet has no frame
    __builtin_prefetch(after->sp);
    __builtin_prefetch(static_cast<const std::byte*>(after->sp) + 64);
#endif
}

}  // namespace

// Every resume after a barrier comes through here: the range's usual case (pop_released) is kept
// small enough to be inlined where a thread gives up its fiber, the queue's is out of line.
inline FiberSlot* Worker::pop_released() {
    BlockState& b = block;
    if (b.released_next < b.released_end) {
        ThreadState& ts = *b.released_next;
        if (waits_at_barrier(ts)) [[likely]] {
            ++b.released_next;
            stop_waiting(b, ts);
            if (b.released_next < b.released_end) prefetch_frame(b.released_next->fiber);
            enter(ts);
            return ts.fiber;
        }
    }
    return nullptr;
}

inline FiberSlot* Worker::pop_ready() {
    if (FiberSlot* next = pop_released()) [[likely]]
        return next;
    return pop_queued();
}

FiberSlot* Worker::pop_queued() {
    BlockState& b = block;
    // Past the threads of the range that no longer wait at the barrier (they exited).
    while (b.released_next < b.released_end && !waits_at_barrier(*b.released_next))
        ++b.released_next;
    if (b.released_next < b.released_end) return pop_ready();
    if (b.ready_head == b.ready.size()) return nullptr;
    ThreadState* t = b.ready[b.ready_head++];
    if (b.ready_head == b.ready.size()) {
        b.ready.clear();
        b.ready_head = 0;
    } else {
        prefetch_frame(b.ready[b.ready_head]->fiber);
    }
    enter(*t);
    return t->fiber;
}

void BlockState::number_threads() {
    // A thread's coordinates depend only on the block's shape: set once per shape, not per block.
    if (thread_storage.size() < nthreads) {
        thread_storage.resize(nthreads);
        numbered_for = {0, 0, 0};
        statuses_live_from = nthreads;  // new entries are `done`
    }
    threads = thread_storage.data();
    const dim3 d = grid->k.block;
    if (numbered_for.x == d.x && numbered_for.y == d.y && numbered_for.z == d.z) return;
    unsigned t = 0;
    for (unsigned z = 0; z < d.z; ++z)
        for (unsigned y = 0; y < d.y; ++y)
            for (unsigned x = 0; x < d.x; ++x, ++t) {
                threads[t].idx = {x, y, z};
                threads[t].linear = t;
            }
    numbered_for = d;
}

void BlockState::reset(GridRun& g, std::uint64_t block_linear) {
    const KernelLaunch& k = g.k;
    grid = &g;
    others = g.turns;
    linear = block_linear;
    idx = {static_cast<unsigned>(linear % k.grid.x),
           static_cast<unsigned>(linear / k.grid.x % k.grid.y),
           static_cast<unsigned>(linear / (std::uint64_t(k.grid.x) * k.grid.y))};
    nthreads = k.block.x * k.block.y * k.block.z;
    number_threads();
    // Per thread, only what a thread that never blocks leaves behind is reset (`wait` is read
    // only while a thread waits), and only where an earlier block may have written it; `active`
    // and `group` only after a warp intrinsic set them.
    const std::size_t reset = std::min<std::size_t>(nthreads, statuses_live_from);
    for (std::size_t t = 0; t < reset; ++t) threads[t].status = Status::live;
    if (statuses_live_from <= nthreads) statuses_live_from = 0;
    statuses_written = nthreads;
    if (lanes_grouped) {
        for (ThreadState& ts : thread_storage) ts.active = ts.group = 0;
        lanes_grouped = false;
    }
    warps.resize((nthreads + 31) / 32);
    for (WarpState& w : warps) w.open.clear();
    tiles.clear();
    next_lazy = 0;
    live = nthreads;
    waiting = 0;
    arrived = bar_true = 0;
    bar_mismatch = false;
    grid_arrived = 0;
    grid_mismatch = false;
    ready.clear();
    ready_head = 0;
    released_next = released_end = nullptr;
    aborted = false;
    error.clear();
    error_code = cudaErrorLaunchFailure;
    error_finding.reset();
    findings.clear();
    shared_bytes = 0;
    still_rounds = 0;
    schedule.begin_block(g.cfg, linear, nthreads);
    order = schedule.start_order();
    // A plain run needs threads started in order and nothing that watches every access (the
    // checkers that do, the profiler) or every thread's exit; a cooperative launch's blocks
    // wait at grid.sync() through code that reads the block's counts first.
    plain = schedule.in_order() && !ThreadSchedule::interleaves(g.cfg) && !g.shadow &&
            !k.cooperative;
    plain_running = false;
}

void Worker::run_lazy() {
    const KernelLaunch& k = block.grid->k;
    k.run(k.closure.get(), block);
}

void thread_threw(ThreadState& ts) {
    Worker& w = *tls::worker;
    BlockState& b = w.block;
    try {
        throw;
    } catch (const BlockAborted&) {
    } catch (const boost::context::detail::forced_unwind&) {
        throw;
    } catch (const std::exception& e) {
        w.abort_block("simt: kernel threw an exception in thread " + coord(ts.idx) + " block " +
                      coord(b.idx) + ": " + e.what());
    } catch (...) {
        w.abort_block("simt: kernel threw a non-standard exception in thread " + coord(ts.idx) +
                      " block " + coord(b.idx));
    }
}

void settle_plain_run_slow(LazyThreads& b, unsigned running) {
    // A fault in a kernel free of calls comes with the thread before the run (PlainRun says
    // why): the piece under way has started at least.
    running = std::max(running, b.next_lazy);
    for (unsigned t = b.run_first; t < running; ++t) b.threads[t].status = Status::done;
    b.live -= running - b.next_lazy;
    b.next_lazy = running + 1;
    b.plain_running = false;
}

void thread_exited_while_others_wait() {
    Worker& w = *tls::worker;
    BlockState& b = w.block;
    if (b.arrived == b.live && !b.bar_mismatch && !b.aborted) w.release_barrier();
}

uint3& thread_index() { return threadIdx; }

RunningCall running_call() {
    const KernelLaunch& k = tls::worker->block.grid->k;
    return {k.closure.get(), k.run};
}

// The usual case (a released thread resumes) is loads and stores, and the other leaves by a tail
// call, so this frame saves no registers.
FiberLeave park_after_threads() {
    Worker& w = *tls::worker;
    FiberSlot* next = w.pop_released();
    if (!next) [[unlikely]]
        return w.park();
    w.idle[w.idle_count++] = w.current;
    return w.leave_for(next);
}

FiberLeave Worker::park() {
    FiberSlot* next = pop_ready();
    if (!next && block.waiting != 0) next = unblock();
    idle[idle_count++] = current;
    return leave_for(next ? next : &main);
}

namespace {

/// One more step of the worker, for the watchdog: a plain add, not a locked one (only this
/// worker writes it). Taken where a block moves on: a block starts, a barrier or a warp meeting
/// releases its threads, a thread yields. A thread that blocks is no step: the block moves on
/// only when something releases it (a thread that starts is counted by the thread loop).
void step(WorkerWatch& w) {
    w.steps.store(w.steps.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}

}  // namespace

// Like park_after_threads: the usual cases (a parked fiber starts the next thread, a released
// thread resumes) are loads and stores; the others wait here, the long way.
FiberLeave Worker::block_leave(ThreadState& ts) {
    BlockState& b = block;
    ts.fiber = current;
    // Start every thread before resuming any: a thread that resumes then sees the lanes that
    // exit early as exited (__activemask), as it would on hardware where they run alongside.
    FiberSlot* next;
    if (b.next_lazy < b.nthreads) {
        if (idle_count == 0) [[unlikely]] {
            block_current_slow();
            return {};
        }
        next = idle[--idle_count];
        // The next thread to start will take the fiber parked before this one: its frame is
        // as cold as a blocked thread's (on this machine, one worker: a kernel of one
        // __syncthreads 36.7 -> 32.1 ns a thread, the transpose 60.4 -> 55.8).
        if (idle_count != 0) prefetch_frame(idle[idle_count - 1]);
    } else {
        next = pop_released();
        if (!next) [[unlikely]] {
            block_current_slow();
            return {};
        }
    }
    return leave_for(next);
}

void Worker::block_current(ThreadState& ts) { wait_by(block_leave(ts)); }

void Worker::block_current_slow() {
    BlockState& b = block;
    FiberSlot* next = b.next_lazy < b.nthreads ? acquire() : pop_ready();
    if (!next) next = unblock();
    switch_to(next);
    after_resume();
}

FiberSlot* Worker::unblock() {
    // Every thread has started and none can run. Before calling it a deadlock: lanes waiting in
    // coalesced_threads() can now be grouped, a block whose every live thread waits at
    // grid.sync() waits for the other blocks of its cooperative launch, and threads that spin on
    // memory wait for it to change (block/spin.cpp).
    BlockState& b = block;
    if (resolve_coalesced(*this)) return pop_ready();
    if (b.grid_arrived != 0 && b.grid_arrived == b.waiting && !b.grid_mismatch) grid_barrier();
    else if (!wake_spinners()) deadlock();
    return pop_ready();
}

void Worker::yield_current(ThreadState& ts) {
    step(watch);
    ts.fiber = current;
    // Prefer a thread that has not started: that is what exposes a lost update.
    FiberSlot* next = block.next_lazy < block.nthreads ? acquire() : pop_ready();
    switch_to(next);
    after_resume();
}

void Worker::make_ready(ThreadState& ts) {
    BlockState& b = block;
    step(watch);
    stop_waiting(b, ts);
    b.ready.push_back(&ts);
}

void Worker::release_barrier() {
    BlockState& b = block;
    step(watch);
    checks_barrier_release(b, b.bar_site);
    spin_forget(b, 0, b.nthreads);
    b.result_count = static_cast<int>(b.bar_true);
    b.result_participants = static_cast<int>(b.arrived);
    b.arrived = 0;
    b.bar_true = 0;
    // Every thread of the range was resumed before this barrier could fill, so a range left
    // holds none that waits here; with nothing in `ready`, the range keeps the release order.
    if (b.schedule.in_order() && b.ready_head == b.ready.size()) {
        b.released_next = b.threads;
        b.released_end = b.threads + b.nthreads;
        return;
    }
    b.schedule.release(b.nthreads, [&](unsigned t) {
        ThreadState& ts = b.threads[t];
        if (waits_at_barrier(ts)) make_ready(ts);
    });
}

void Worker::abort_block(std::string message, cudaError_t code) {
    BlockState& b = block;
    if (b.aborted) return;
    if (b.plain_running) {
        // A bad pointer in a kernel free of calls: nothing need record which thread of the plain
        // run made the access (thread_loop.hpp), only the piece of up to 32 it was in.
        if (code == cudaErrorIllegalAddress) {
            const unsigned from = b.next_lazy, x = b.threads[from].idx.x, dx = b.grid->k.block.x;
            const unsigned to = from + std::min(32u, dx - x) - 1;
            message += "\n  the thread named may not be the one that faulted: built UNCHECKED, a "
                       "block's threads after the first run as one loop that need not record "
                       "which thread runs; it was one of threads " + coord(b.threads[from].idx) +
                       ".." + coord(b.threads[to].idx) + " (build the program checked to have "
                       "the exact one)";
        }
        settle_plain_run(b, tls::thread ? tls::thread->linear : b.next_lazy);
    }
    b.aborted = true;
    b.error = std::move(message);
    b.error_code = code;
    b.next_lazy = b.nthreads;
    for (unsigned t = 0; t < b.nthreads; ++t)
        if (b.threads[t].status == Status::waiting) make_ready(b.threads[t]);
}

void Worker::fail_thread(std::string message, cudaError_t code) {
    abort_block(std::move(message), code);
    leave_thread();
}

void Worker::leave_thread() {
    tls_atomic_note = nullptr;  // the note of an atomic whose hook this thread leaves half way
    // A thread can leave while it waits: a warp collective's last lane does every lane's loads
    // after its own arrival (a fault there, or the end of a parallel attempt). abort_block then
    // made it ready with the others, and resumed it would switch to a fiber it no longer has.
    if (ThreadState* ts = tls::thread) {
        BlockState& b = block;
        auto queued = b.ready.begin() + static_cast<std::ptrdiff_t>(b.ready_head);
        b.ready.erase(std::remove(queued, b.ready.end(), ts), b.ready.end());
    }
#if SIMT_OWN_FIBER_SWITCH
    if (current == &main) throw BlockAborted{};  // not on a thread's fiber: nothing to leave
    BlockState& b = block;
    if (ThreadState* ts = tls::thread) {
        ts->status = Status::done;
        --b.live;
    }
    tls::thread = nullptr;
    // The fiber starts over on its own stack: its loop finds no thread left to start (the block
    // is aborted), and parks. This frame, deeper on the same stack, is never returned to.
    FiberSlot* self = current;
    restart_fiber(*self);
    void* abandoned;
    simt_fiber_switch(&abandoned, self->sp);
    __builtin_unreachable();
#else
    // Boost's fibers (sanitizer builds, where raw accesses are not instrumented): unwind.
    throw BlockAborted{};
#endif
}

std::vector<WaitGroup> waiting_groups(const BlockState& b) {
    std::vector<WaitGroup> groups;
    for (unsigned t = 0; t < b.nthreads; ++t) {
        const ThreadState& ts = b.threads[t];
        if (ts.status != Status::waiting || b.released(t)) continue;
        auto g = std::find_if(groups.begin(), groups.end(), [&](const WaitGroup& g) {
            return std::strcmp(g.what, ts.what) == 0 && same_site(g.site, ts.site);
        });
        if (g == groups.end())
            groups.push_back({ts.wait == WaitKind::block, ts.what, ts.site, {t}});
        else g->ids.push_back(t);
    }
    return groups;
}

DeadlockDraft::Waiting waiting_of(const WaitGroup& g) {
    DeadlockDraft::Waiting w;
    w.what = g.what;
    w.site = g.site;
    w.ranks.assign(g.ids.begin(), g.ids.end());
    return w;
}

void Worker::deadlock() {
    BlockState& b = block;
    std::vector<WaitGroup> groups = waiting_groups(b);
    Deadlock what;
    what.set = true;
    what.block = b.idx;
    what.shape = b.grid->k.block;
    what.launch = b.grid->k.site;
    for (const WaitGroup& g : groups) {
        DeadlockDraft::Waiting w = waiting_of(g);
        if (b.threads[g.ids.front()].wait == WaitKind::spin) spun_on(b, g.ids.front(), w);
        what.waiting.push_back(std::move(w));
    }
    for (unsigned w = 0; w < b.warps.size(); ++w)
        for (const WarpMeeting& m : b.warps[w].open) {
            DeadlockDraft::Meeting missing{"warp", m.site, {}};
            for (unsigned l = 0; l < 32; ++l)
                if ((m.mask >> l & 1) && !(m.arrived >> l & 1)) missing.ranks.push_back(w * 32 + l);
            if (!missing.ranks.empty()) what.meetings.push_back(std::move(missing));
        }
    for (const TileMeeting& m : b.tiles) {
        DeadlockDraft::Meeting missing{"tile", m.site, {}};
        for (unsigned r = 0; r < m.size; ++r)
            if (!m.came[r]) missing.ranks.push_back(m.first + r);
        what.meetings.push_back(std::move(missing));
    }
    what.exited = b.nthreads - b.live;
    bool divergent = groups.size() > 1 && std::all_of(groups.begin(), groups.end(),
                                                      [](const WaitGroup& g) { return g.block; });
    if (!groups.empty()) checks_deadlock(b, groups.front().site, divergent, what);
    abort_block(deadlock_message(what));
}

void Worker::run_block(GridRun& g, std::uint64_t linear) {
    set_stack_size(g.cfg.stack_size);
    step(watch);
    const KernelLaunch& k = g.k;
    BlockState& b = block;
    tls::reachable_devices = static_cast<std::uint16_t>(
        (1u << k.device) | peer_device_bits[k.device].load(std::memory_order_relaxed));
    b.reset(g, linear);
    checks_block_begin(b);

    blockIdx = b.idx;
    blockDim = k.block;
    gridDim = k.grid;
    tls::block_epoch = ++epoch;
    tls::shadow_checks.store(g.shadow, std::memory_order_relaxed);
    tls::interleave = ThreadSchedule::interleaves(g.cfg);
    tls_atomic_note = nullptr;
    if (k.shared_bytes > dyn_shared.shadow_cells) checks_freed(dyn_shared);  // remade at its size
    dyn_shared.bytes = dyn_shared.size = k.shared_bytes;
    if (k.shared_bytes) std::memset(dyn_shared.base, arena::poison_byte, k.shared_bytes);

    current = &main;
    switch_to(acquire());
    b.statuses_live_from = std::max<std::size_t>(b.statuses_live_from, b.statuses_written);
    tls::thread = nullptr;
    checks_block_end(b);
}

}  // namespace simt::sim::detail
