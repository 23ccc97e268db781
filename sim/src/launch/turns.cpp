// The turns of a checked launch's blocks (turns.hpp states the rule).
#include "turns.hpp"

#include <algorithm>

#include "../state/worker.hpp"
#include "cooperative.hpp"
#include "grid.hpp"

namespace simt::sim::detail {

bool BlockTurns::can_start() const {
    // Blocks after a failed one are not started, as in every launch: the error reported is the
    // lowest failing block's, whatever ran meanwhile.
    return next_ < g_.nblocks && next_ <= g_.first_failed.load(std::memory_order_relaxed);
}

void BlockTurns::run() {
    std::unique_lock lock(m_);
    runner(lock);
    done_.wait(lock, [&] { return runners_ == 0 && waiting_.empty() && idle_.empty(); });
}

void BlockTurns::runner(std::unique_lock<std::mutex>& lock) {
    Worker& w = worker();
    while (can_start()) {
        std::uint64_t i = next_++;
        lock.unlock();
        w.run_block(g_, i);
        collect_block(g_, w.block, i);
        lock.lock();
        // A block waiting on memory this one changed goes on before the next block starts.
        auto changed = std::find_if(waiting_.begin(), waiting_.end(),
                                    [](Seat* s) { return spin_changed(*s->block); });
        if (changed == waiting_.end()) continue;
        Seat me;
        idle_.push_back(&me);
        (*changed)->go = true;
        (*changed)->cv.notify_one();
        me.cv.wait(lock, [&] { return me.go || me.quit; });
        idle_.erase(std::find(idle_.begin(), idle_.end(), &me));
        if (me.quit) {
            done_.notify_all();
            return;  // without the turn, which another thread holds
        }
    }
    pass_turn(nullptr);
}

void BlockTurns::wait_for_others(const BlockState& b) {
    std::unique_lock lock(m_);
    g_.blocks_waited = true;  // read by the block the turn goes to, under this lock
    Seat me;
    me.block = &b;
    waiting_.insert(std::find_if(waiting_.begin(), waiting_.end(),
                                 [&](Seat* s) { return s->block->linear > b.linear; }),
                    &me);
    pass_turn(&me);
    me.cv.wait(lock, [&] { return me.go; });
    waiting_.erase(std::find(waiting_.begin(), waiting_.end(), &me));
}

void BlockTurns::pass_turn(Seat* from) {
    auto give = [](Seat* s) {
        s->go = true;
        s->cv.notify_one();
    };
    // 1. A waiting block whose memory changed.
    for (Seat* s : waiting_)
        if (s != from && spin_changed(*s->block)) return give(s);
    // 2. The next block not yet started.
    if (can_start()) {
        if (!idle_.empty()) return give(idle_.front());
        ++runners_;
        static CoopThreads& threads = *new CoopThreads;  // never destroyed: its threads stay parked
        post(threads, false, [this] {
            std::unique_lock lock(m_);
            runner(lock);
            --runners_;
            done_.notify_all();
        });
        return;
    }
    for (Seat* s : idle_) {
        s->quit = true;
        s->cv.notify_one();
    }
    // 3. Nothing can go on for sure: the waiting blocks in turn, from the one after `from`.
    if (!waiting_.empty()) {
        auto next = from ? std::find_if(waiting_.begin(), waiting_.end(),
                                        [&](Seat* s) { return s->block->linear > from->block->linear; })
                         : waiting_.begin();
        return give(next != waiting_.end() ? *next : waiting_.front());
    }
    done_.notify_all();
}

}  // namespace simt::sim::detail
