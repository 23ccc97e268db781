// Cooperative launches: a thread per block, turns between grid.sync() calls, the grid barrier.
#include "cooperative.hpp"

#include <algorithm>
#include <thread>

#include "simt/sim/launch/grid_sync.hpp"
#include "simt/sim/cooperative/thread_group.hpp"
#include "../check/checker.hpp"
#include "../device/occupancy.hpp"
#include "grid.hpp"

namespace simt::sim::detail {

namespace {

constexpr const char* grid_sync_name = "grid_group::sync()";

void serve(CoopThreads& p, bool slab_stacks) {
    worker().slab_stacks = slab_stacks;  // before its first fiber: see Worker::slab_stacks
    std::unique_lock lock(p.m);
    for (;;) {
        p.cv.wait(lock, [&] { return !p.jobs.empty(); });
        std::function<void()> job = std::move(p.jobs.front());
        p.jobs.pop_front();
        --p.idle;
        lock.unlock();
        job();
        lock.lock();
        ++p.idle;
    }
}

/// Why block `w` must end: a thread of it ran past its slab stack (see Worker::slab_stacks), or
/// empty. Checked whenever the block stops running, before another block runs over the memory.
std::string overflowed_stack(Worker& w) {
    for (const auto& f : w.fibers)
        if (!stack_intact(*f)) {
            FaultDraft fault;
            fault.problem = FaultDraft::Problem::block_stack_overflow;
            fault.block = w.block.idx;
            fault.launch_site = w.block.grid->k.site;
            fault.bytes = w.stack_size;
            return fault_text(fault);
        }
    return {};
}

}  // namespace

void post(CoopThreads& p, bool slab_stacks, std::function<void()> job) {
    std::lock_guard lock(p.m);
    p.jobs.push_back(std::move(job));
    if (p.idle < p.jobs.size()) {
        ++p.idle;
        std::thread([&p, slab_stacks] { serve(p, slab_stacks); }).detach();
    }
    p.cv.notify_one();
}

unsigned blocks_per_multiprocessor(unsigned block_threads, std::size_t shared_bytes) {
    if (block_threads < 1 || block_threads > LaunchLimits::max_threads_per_block) return 0;
    if (shared_bytes > LaunchLimits::max_shared_bytes) {
        // Above 48 KiB a block launches only once the kernel opted in, as on a GPU.
        if (shared_bytes > dynamic_shared_optin()) return 0;
    }
    return static_cast<unsigned>(
        occupancy(device_properties(), static_cast<int>(block_threads), shared_bytes, 0, 0)
            .active_blocks);
}

std::uint64_t cooperative_grid_limit(unsigned block_threads, std::size_t shared_bytes) {
    return std::uint64_t(device_properties().multi_processor_count) *
           blocks_per_multiprocessor(block_threads, shared_bytes);
}

CoopGrid::CoopGrid(GridRun& g)
    : g_(g), turn_cv_(g.nblocks), state_(g.nblocks, State::unstarted) {}

void CoopGrid::run() {
    std::unique_lock lock(m_);
    jobs_left_ = g_.nblocks;
    lock.unlock();
    static CoopThreads& threads = *new CoopThreads;  // never destroyed: its threads stay parked
    for (std::uint64_t i = 0; i < g_.nblocks; ++i) post(threads, true, [this, i] { run_block(i); });
    lock.lock();
    cv_.wait(lock, [&] { return jobs_left_ == 0; });
}

void CoopGrid::run_block(std::uint64_t i) {
    std::unique_lock lock(m_);
    turn_cv_[i].wait(lock, [&] { return turn_ == i; });
    bool run = !abandoned_;  // a block not started when another failed never starts
    if (run) {
        state_[i] = State::running;
        lock.unlock();
        Worker& w = worker();
        w.run_block(g_, i);
        if (std::string overflow = overflowed_stack(w); !overflow.empty() && !w.block.aborted) {
            w.block.aborted = true;
            w.block.error = std::move(overflow);
            w.block.error_code = cudaErrorLaunchFailure;
        }
        bool failed = w.block.aborted && !w.block.error.empty();
        collect_block(g_, w.block, i);
        lock.lock();
        if (failed && !abandoned_) abandon({});  // the rest end at their next turn
    }
    state_[i] = State::ended;
    ++ended_;
    pass_turn(i);
    if (--jobs_left_ == 0) cv_.notify_all();
}

bool CoopGrid::arrive(BlockState& b, std::string& error) {
    std::unique_lock lock(m_);
    std::uint64_t i = b.linear;
    state_[i] = State::at_barrier;
    if (arrived_++ == 0) site_ = b.grid_site;
    pass_turn(i);
    turn_cv_[i].wait(lock, [&] { return turn_ == i; });
    state_[i] = State::running;
    if (!abandoned_) return true;
    error = deadlock_message(why_);
    if (why_.set && i == reporter_) checks_deadlock(b, b.grid_site, false, why_);
    return false;
}

bool CoopGrid::pending(std::uint64_t i) const {
    return state_[i] == State::unstarted || state_[i] == State::released ||
           (abandoned_ && state_[i] == State::at_barrier);
}

void CoopGrid::pass_turn(std::uint64_t from) {
    std::uint64_t n = g_.nblocks;
    auto give = [&](std::uint64_t first) {
        for (std::uint64_t j = first; j < n; ++j)
            if (pending(j)) {
                turn_ = j;
                turn_cv_[j].notify_one();
                return true;
            }
        return false;
    };
    if (give(from + 1)) return;
    // A round is over: every block has ended or waits at the barrier.
    if (arrived_ != 0 && !abandoned_) {
        if (ended_ != 0) {
            abandon(ended_early());
        } else {
            // Every block arrived. The new phase begins before any block resumes.
            checks_grid_synced(g_);
            std::fill(state_.begin(), state_.end(), State::released);
            arrived_ = 0;
        }
    }
    if (give(0)) return;
    turn_ = n;
}

void CoopGrid::abandon(Deadlock why) {
    abandoned_ = true;
    why_ = std::move(why);
    auto first = std::find(state_.begin(), state_.end(), State::at_barrier);
    reporter_ = static_cast<std::uint64_t>(first - state_.begin());
}

Deadlock CoopGrid::ended_early() const {
    std::vector<std::uint64_t> waiting, ended;
    for (std::uint64_t j = 0; j < state_.size(); ++j)
        (state_[j] == State::at_barrier ? waiting : ended).push_back(j);
    Deadlock d;
    d.set = d.grid = true;
    d.shape = g_.k.grid;
    d.launch = g_.k.site;
    d.waiting.push_back({grid_sync_name, site_, std::move(waiting)});
    d.ended = std::move(ended);
    return d;
}

void Worker::grid_barrier() {
    BlockState& b = block;
    if (std::string overflow = overflowed_stack(*this); !overflow.empty()) {
        abort_block(std::move(overflow));
        return;
    }
    std::string error;
    if (!b.grid->coop->arrive(b, error)) {
        abort_block(std::move(error));  // empty: another block's error is the launch's
        return;
    }
    b.grid_arrived = 0;
    checks_grid_sync(b, b.grid_site);
    b.schedule.release(b.nthreads, [&](unsigned t) {
        ThreadState& ts = b.threads[t];
        if (ts.status == Status::waiting && ts.wait == WaitKind::grid) make_ready(ts);
    });
}

void sync_grid(Loc loc, const char* what) {
    if (!tls::thread) called_on_host(what, loc, "barriers exist only inside kernels");
    Worker& w = *tls::worker;
    BlockState& b = w.block;
    ThreadState& ts = *tls::thread;
    if (!b.grid->coop)
        w.fail_thread(
            "simt: thread " + coord(ts.idx) + " of block " + coord(b.idx) + " calls " + what +
            " at " + where(loc) + ", but the kernel was launched at " + where(b.grid->k.site) +
            " with <<<...>>>: a grid-wide barrier needs every "
            "block resident at once, which only cudaLaunchCooperativeKernel promises (on "
            "a GPU this launch hangs or faults); launch it with "
            "cudaLaunchCooperativeKernel, or end the kernel there and launch a second one");
    if (b.grid_arrived == 0) {
        b.grid_site = loc;
        b.grid_mismatch = false;
    } else if (!same_site(b.grid_site, loc)) {
        b.grid_mismatch = true;  // threads of one block at two grid.sync() calls: a deadlock
    }
    ++b.grid_arrived;
    start_waiting(b, ts, WaitKind::grid, loc, what);
    w.block_current(ts);
}

void group_misuse(const std::string& message, Loc loc) {
    if (!tls::thread) throw simt::Error("simt: " + message + " at " + where(loc));
    Worker& w = *tls::worker;
    w.fail_thread("simt: thread " + coord(tls::thread->idx) + " of block " + coord(w.block.idx) +
                  " at " + where(loc) + ": " + message);
}

bool grid_is_cooperative() { return tls::thread && tls::worker->block.grid->k.cooperative; }

}  // namespace simt::sim::detail
