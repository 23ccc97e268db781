// Cooperative launches: a thread per block, turns between grid.sync() calls, the grid barrier.
#include "cooperative.hpp"

#include <algorithm>
#include <thread>

#include "simt/sim/grid/sync.hpp"
#include "simt/sim/cooperative/thread_group.hpp"
#include "../check/checker.hpp"
#include "../process.hpp"

namespace simt::sim::detail {

namespace {

constexpr const char* grid_sync_name = "grid_group::sync()";

void serve(CoopThreads& p) {
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

/// Runs `job` on a pool thread that takes it at once (a new one when none is idle).
void post(std::function<void()> job) {
    CoopThreads& p = process().coop_threads;
    std::lock_guard lock(p.m);
    p.jobs.push_back(std::move(job));
    if (p.idle < p.jobs.size()) {
        ++p.idle;
        std::thread([&p] { serve(p); }).detach();
    }
    p.cv.notify_one();
}

/// "(0,0,0), (2,0,0)..(5,0,0)" for a sorted list of block numbers of the grid `k` launched.
std::string block_list(const KernelLaunch& k, const std::vector<std::uint64_t>& ids) {
    auto idx = [&](std::uint64_t b) {
        return coord({static_cast<unsigned>(b % k.grid.x),
                      static_cast<unsigned>(b / k.grid.x % k.grid.y),
                      static_cast<unsigned>(b / (std::uint64_t(k.grid.x) * k.grid.y))});
    };
    std::string s;
    for (std::size_t i = 0, shown = 0; i < ids.size(); ++shown) {
        std::size_t j = i;
        while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
        if (shown == 6) return s + ", ...";
        if (!s.empty()) s += ", ";
        s += idx(ids[i]);
        if (j > i) s += ".." + idx(ids[j]);
        i = j + 1;
    }
    return s;
}

}  // namespace

unsigned blocks_per_multiprocessor(unsigned block_threads, std::size_t shared_bytes) {
    return block_threads >= 1 && block_threads <= LaunchLimits::max_threads_per_block &&
           shared_bytes <= LaunchLimits::max_shared_bytes_optin;
}

std::uint64_t cooperative_grid_limit(unsigned block_threads, std::size_t shared_bytes) {
    return std::uint64_t(device_properties().multi_processor_count) *
           blocks_per_multiprocessor(block_threads, shared_bytes);
}

CoopGrid::CoopGrid(GridRun& g) : g_(g), state_(g.nblocks, State::unstarted) {}

void CoopGrid::run() {
    std::unique_lock lock(m_);
    jobs_left_ = g_.nblocks;
    lock.unlock();
    for (std::uint64_t i = 0; i < g_.nblocks; ++i) post([this, i] { run_block(i); });
    lock.lock();
    cv_.wait(lock, [&] { return jobs_left_ == 0; });
}

void CoopGrid::run_block(std::uint64_t i) {
    std::unique_lock lock(m_);
    cv_.wait(lock, [&] { return turn_ == i; });
    bool run = !abandoned_;  // a block not started when another failed never starts
    if (run) {
        state_[i] = State::running;
        lock.unlock();
        Worker& w = worker();
        w.run_block(g_, i);
        bool failed = w.block.aborted && !w.block.error.empty();
        collect_block(g_, w.block, i);
        lock.lock();
        if (failed && !abandoned_) abandon("");  // the rest end at their next turn
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
    cv_.wait(lock, [&] { return turn_ == i; });
    state_[i] = State::running;
    if (!abandoned_) return true;
    error = why_;
    if (!why_.empty() && i == reporter_) checks_deadlock(b, b.grid_site, false, why_);
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
                cv_.notify_all();
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
    cv_.notify_all();
}

void CoopGrid::abandon(std::string message) {
    abandoned_ = true;
    why_ = std::move(message);
    auto first = std::find(state_.begin(), state_.end(), State::at_barrier);
    reporter_ = static_cast<std::uint64_t>(first - state_.begin());
}

std::string CoopGrid::ended_early() const {
    std::vector<std::uint64_t> waiting, ended;
    for (std::uint64_t j = 0; j < state_.size(); ++j)
        (state_[j] == State::at_barrier ? waiting : ended).push_back(j);
    const KernelLaunch& k = g_.k;
    return "simt: deadlock in the cooperative kernel launched at " + where(k.site) + ": " +
           grid_sync_name + " at " + where(site_) + " can never complete\n  " +
           std::to_string(waiting.size()) +
           (waiting.size() == 1 ? " block waits" : " blocks wait") +
           " there: " + block_list(k, waiting) + "\n  " + std::to_string(ended.size()) +
           (ended.size() == 1 ? " block" : " blocks") +
           " ended without reaching it: " + block_list(k, ended) +
           "\n  every block of the grid must call grid.sync() as many times as the others (on a "
           "GPU the waiting blocks would hang); move it out of code that only some blocks run";
}

void Worker::grid_barrier() {
    BlockState& b = block;
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
    if (!tls_thread)
        throw simt::Error("simt: " + std::string(what) + " called on the host at " + where(loc) +
                          "; barriers exist only inside kernels");
    Worker& w = *tls_worker;
    BlockState& b = w.block;
    ThreadState& ts = *tls_thread;
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
    ts.status = Status::waiting;
    ts.wait = WaitKind::grid;
    ts.site = loc;
    ts.what = what;
    ++b.waiting;
    w.block_current(ts);
}

void group_misuse(const std::string& message, Loc loc) {
    if (!tls_thread) throw simt::Error("simt: " + message + " at " + where(loc));
    Worker& w = *tls_worker;
    w.fail_thread("simt: thread " + coord(tls_thread->idx) + " of block " + coord(w.block.idx) +
                  " at " + where(loc) + ": " + message);
}

bool grid_is_cooperative() { return tls_thread && tls_worker->block.grid->k.cooperative; }

}  // namespace simt::sim::detail
