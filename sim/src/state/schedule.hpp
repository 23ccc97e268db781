// The schedule: the one place that decides who runs next.
//
// Every ordering choice the simulator makes is asked of this object: the order a block's threads
// start in, the order a barrier wakes them, the order a warp's lanes resume after a warp-level
// operation, how many cores a grid may use, and whether a thread is switched out in the middle
// of a read-modify-write. A new schedule (SIMT_SCHEDULE) is a new case here and in
// process/settings.cpp, nowhere else. Every random choice is seeded by block, never by worker, so a
// schedule and the findings it exposes are the same whatever the core count.
#pragma once
#include <algorithm>
#include <cstdint>
#include <random>
#include <simt/simt.hpp>
#include <vector>

namespace simt::sim::detail {

class ThreadSchedule {
public:
    /// Sets up the orders of one block of `nthreads` threads, numbered `block` in the grid.
    void begin_block(const Config& cfg, std::uint64_t block, unsigned nthreads) {
        kind_ = cfg.schedule;
        order_.clear();
        if (kind_ == Schedule::in_order) return;
        order_.resize(nthreads);
        for (unsigned t = 0; t < nthreads; ++t) order_[t] = nthreads - 1 - t;
        if (kind_ != Schedule::reverse) {
            rng_.seed(cfg.seed * 0x9E3779B97F4A7C15ull + block);
            std::shuffle(order_.begin(), order_.end(), rng_);
        }
    }

    /// True when threads start in their own order: thread n starts n-th.
    bool in_order() const { return order_.empty(); }

    /// The start order (element n: the thread that starts n-th), or null when in order.
    const unsigned* start_order() const { return in_order() ? nullptr : order_.data(); }

    /// Calls `wake(t)` for each thread of the block in the order a barrier releases them.
    template <class Wake>
    void release(unsigned nthreads, Wake wake) {
        if (in_order()) {
            for (unsigned t = 0; t < nthreads; ++t) wake(t);
            return;
        }
        if (kind_ != Schedule::reverse) std::shuffle(order_.begin(), order_.end(), rng_);
        for (unsigned t : order_) wake(t);
    }

    /// The lane that resumes i-th after a warp-level operation.
    unsigned lane(unsigned i) const { return kind_ == Schedule::reverse ? 31 - i : i; }

    /// Whether to let another thread run between the read and the write of a read-modify-write
    /// (asked only under interleave): at about half of them.
    bool switch_inside_rmw() { return rng_() % 2 == 0; }

    /// True when threads may be switched inside a read-modify-write.
    static bool interleaves(const Config& cfg) { return cfg.schedule == Schedule::interleave; }

    /// The cores a grid may use. Under interleave, lost updates must be reproducible for a seed;
    /// blocks running on two cores at once would add timing to the outcome, so that schedule
    /// runs blocks one at a time.
    static int workers(const Config& cfg) { return interleaves(cfg) ? 1 : cfg.workers; }

private:
    Schedule kind_ = Schedule::in_order;
    std::vector<unsigned> order_;  ///< start and release order; empty means in order
    std::mt19937_64 rng_;
};

}  // namespace simt::sim::detail
