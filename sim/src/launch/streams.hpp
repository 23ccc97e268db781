// Streams and events of the simulator: in-order queues, each served by its own OS thread.
#pragma once
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "../check/checker.hpp"
#include "gpu_clock.hpp"

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

    /// Whether everything queued so far has run (cudaStreamQuery). An event's record still
    /// running is no work: the work before it is done, and what waited on it may already go on.
    bool idle() {
        std::lock_guard lock(m_);
        return queue_.empty() && (!busy_ || running_marker_);
    }

    void wait_idle() {
        std::unique_lock lock(m_);
        idle_cv_.wait(lock, [&] { return queue_.empty() && !busy_; });
    }

    void synchronize() {
        wait_idle();
        order_host_waits(id);
        clock_host_waits_stream(*this);
        std::lock_guard lock(m_);
        if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
    }

    const unsigned id;  ///< its place in the launch order's clocks
    /// A stream the legacy default stream synchronises with (cudaStreamCreate's; false for
    /// cudaStreamNonBlocking): work queued on either waits for what the other has queued.
    bool blocking = true;
    int device = 0;       ///< the simulated device it belongs to (SIMT_DEVICES)
    bool legacy = false;  ///< a device's stream 0 (device 0's is the registry's default_stream)

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
            running_marker_ = t.marker;
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
    bool running_marker_ = false;  ///< the task running is an event's record (`marker`)
    std::exception_ptr error_;
    std::thread thread_;
};

struct EventImpl {
    std::mutex m;
    std::condition_variable cv;
    /// Records made (cudaEventRecord), and the latest of them whose stream has reached it. A
    /// wait is for the record made before it (cudaStreamWaitEvent's rule), not a later one.
    std::uint64_t records = 0, reached = 0;
    std::chrono::steady_clock::time_point when;
    bool recorded() const { return records != 0; }
    /// The latest record reached, or none made: what a host wait or a query waits for.
    bool done() const { return reached >= records; }
    std::vector<std::uint32_t> clock;  ///< the recording stream's launch clock
    ClockOp clock_op = 0;  ///< the latest record's place on the GPU's clock (gpu_clock.hpp)
};

/// Every live stream, so that simt::synchronize() can wait for all of them.
struct StreamRegistry {
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
};

/// Work queued on `impl` follows what the legacy default stream's rule says it must
/// (stream.cpp has the rule); for launches, event records and, on the GPU's clock, copies.
void order_with_legacy_default(StreamImpl& impl);

/// Waits for every stream, then rethrows the first error not yet collected: simt::synchronize()
/// without moving the host on the GPU's clock, for the simulator's own waits (a copy waits for
/// every stream, as it runs on the host).
void wait_for_streams();

}  // namespace simt::sim::detail
