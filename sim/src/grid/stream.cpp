// Streams and events: each stream is an in-order queue served by its own OS thread.
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <thread>

#include "../check/checker.hpp"

namespace simt::sim::detail {

/// One queue. Its thread joins the TBB arena for each launch; a kernel error is kept (sticky)
/// until a synchronizing call collects it, and later launches on the stream are skipped, as a
/// CUDA context refuses work after a kernel fault.
class StreamImpl {
public:
    StreamImpl() : id(new_stream_id()), thread_([this] { loop(); }) {}
    ~StreamImpl() {
        {
            std::lock_guard lock(m_);
            stop_ = true;
        }
        cv_.notify_all();
        thread_.join();
    }

    /// `marker` work (events) runs even after an error, so waiting on it never hangs.
    void enqueue(std::function<void()> fn, bool marker = false) {
        {
            std::lock_guard lock(m_);
            queue_.push_back({std::move(fn), marker});
        }
        cv_.notify_all();
    }

    void wait_idle() {
        std::unique_lock lock(m_);
        idle_cv_.wait(lock, [&] { return queue_.empty() && !busy_; });
    }

    void synchronize() {
        wait_idle();
        order_host_waits(id);
        std::lock_guard lock(m_);
        if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
    }

    const unsigned id;  ///< its place in the launch order's clocks

    std::exception_ptr take_error() {
        std::lock_guard lock(m_);
        return std::exchange(error_, nullptr);
    }

private:
    struct Task {
        std::function<void()> fn;
        bool marker;
    };

    void loop() {
        std::unique_lock lock(m_);
        for (;;) {
            cv_.wait(lock, [&] { return stop_ || !queue_.empty(); });
            if (queue_.empty()) return;
            Task t = std::move(queue_.front());
            queue_.pop_front();
            bool skip = error_ && !t.marker;
            busy_ = true;
            lock.unlock();
            std::exception_ptr err;
            if (!skip) {
                try {
                    t.fn();
                } catch (...) {
                    err = std::current_exception();
                }
            }
            lock.lock();
            if (err && !error_) error_ = err;
            busy_ = false;
            if (queue_.empty()) idle_cv_.notify_all();
        }
    }

    std::mutex m_;
    std::condition_variable cv_, idle_cv_;
    std::deque<Task> queue_;
    bool busy_ = false, stop_ = false;
    std::exception_ptr error_;
    std::thread thread_;
};

struct EventImpl {
    std::mutex m;
    std::condition_variable cv;
    bool recorded = false, done = false;
    std::chrono::steady_clock::time_point when;
    std::vector<std::uint32_t> clock;  ///< the recording stream's launch clock
};

namespace {

/// Every live stream, so that simt::synchronize() can wait for all of them.
struct Registry {
    std::mutex m;
    std::vector<std::weak_ptr<StreamImpl>> streams;
    std::shared_ptr<StreamImpl> default_stream = std::make_shared<StreamImpl>();

    std::vector<std::shared_ptr<StreamImpl>> live() {
        std::lock_guard lock(m);
        std::vector<std::shared_ptr<StreamImpl>> out{default_stream};
        std::erase_if(streams, [](auto& w) { return w.expired(); });
        for (auto& w : streams)
            if (auto s = w.lock()) out.push_back(std::move(s));
        return out;
    }

    ~Registry() {
        // Work still queued at exit runs to completion, and an error no one collected is
        // printed rather than lost.
        for (auto& s : live()) {
            s->wait_idle();
            if (auto e = s->take_error()) {
                try {
                    std::rethrow_exception(e);
                } catch (const std::exception& ex) {
                    std::fprintf(stderr, "%s\nsimt: (this error was never collected: call "
                                         "simt::synchronize() after launching)\n", ex.what());
                    std::fflush(stderr);
                    std::_Exit(1);
                }
            }
        }
        checks_exit();
        print_summary();
    }
};

Registry& registry() {
    static Registry r;
    return r;
}

}  // namespace

void enqueue_launch(const Stream* s, KernelLaunch k) {
    StreamImpl& impl = s ? s->impl() : Stream::default_stream().impl();
    k.stream = impl.id;
    order_launch(k);
    auto shared = std::make_shared<KernelLaunch>(std::move(k));
    impl.enqueue([shared] { run_grid(*shared); });
}

void arm_exit_report() { registry(); }

void wait_all_quietly() {
    for (auto& s : registry().live()) s->wait_idle();
    order_host_waits_all();
}

}  // namespace simt::sim::detail

namespace simt {

using sim::detail::registry;

Stream::Stream() : impl_(std::make_shared<sim::detail::StreamImpl>()) {
    auto& r = registry();
    std::lock_guard lock(r.m);
    r.streams.push_back(impl_);
}

Stream Stream::default_stream() { return Stream(registry().default_stream); }

void Stream::synchronize() const { impl_->synchronize(); }

void Stream::wait(const Event& e) const {
    auto ev = e.impl_shared();
    {
        std::lock_guard lock(ev->m);
        sim::detail::order_stream_waits(impl_->id, ev->clock);
    }
    impl_->enqueue([ev] {
        std::unique_lock lock(ev->m);
        ev->cv.wait(lock, [&] { return !ev->recorded || ev->done; });
    }, true);
}

Event::Event() : impl_(std::make_shared<sim::detail::EventImpl>()) {}

void Event::record(const Stream* s) {
    sim::detail::StreamImpl& stream = s ? s->impl() : Stream::default_stream().impl();
    {
        std::lock_guard lock(impl_->m);
        impl_->recorded = true;
        impl_->done = false;
        impl_->clock = sim::detail::order_event_record(stream.id);
    }
    auto ev = impl_;
    stream.enqueue([ev] {
        {
            std::lock_guard lock(ev->m);
            ev->when = std::chrono::steady_clock::now();
            ev->done = true;
        }
        ev->cv.notify_all();
    }, true);
}

void Event::synchronize() const {
    std::unique_lock lock(impl_->m);
    impl_->cv.wait(lock, [&] { return !impl_->recorded || impl_->done; });
    sim::detail::order_host_waits_event(impl_->clock);
}

bool Event::query() const {
    std::lock_guard lock(impl_->m);
    bool reached = !impl_->recorded || impl_->done;
    if (reached) sim::detail::order_host_waits_event(impl_->clock);  // like cudaEventQuery
    return reached;
}

float Event::elapsed_ms(const Event& end) const {
    synchronize();
    end.synchronize();
    if (!impl_->recorded || !end.impl_->recorded)
        throw Error("simt::Event::elapsed_ms: both events must have been recorded");
    return std::chrono::duration<float, std::milli>(end.impl_->when - impl_->when).count();
}

void synchronize() {
    std::exception_ptr first;
    for (auto& s : registry().live()) {
        s->wait_idle();
        if (auto e = s->take_error(); e && !first) first = e;
    }
    sim::detail::order_host_waits_all();
    if (first) std::rethrow_exception(first);
}

}  // namespace simt
