// simt::Stream and simt::Event: in-order queues of launches and copies, and markers in them.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include <functional>
#include <memory>

namespace simt::sim::detail {
class StreamImpl;
struct EventImpl;
}  // namespace simt::sim::detail

namespace simt {

/// An in-order queue of work, like cudaStream_t. Launches on different streams may overlap.
/// Copies of a Stream name the same queue.
class Stream {
public:
    Stream();
    /// Waits for everything queued so far; rethrows a KernelError from that work.
    void synchronize() const;
    /// Work queued after this call waits until `e` has happened (cudaStreamWaitEvent).
    void wait(const class Event& e) const;
    sim::detail::StreamImpl& impl() const { return *impl_; }
    /// The stream a launch without LaunchOptions::stream goes to.
    static Stream default_stream();

private:
    explicit Stream(std::shared_ptr<sim::detail::StreamImpl> impl) : impl_(std::move(impl)) {}
    std::shared_ptr<sim::detail::StreamImpl> impl_;
};

/// A marker in a stream, with the time at which the stream reached it.
///   simt::Event start, stop; start.record(); /* launches */ stop.record();
///   stop.synchronize(); start.elapsed_ms(stop)   // milliseconds between the two
class Event {
public:
    Event();
    /// Places the marker at the end of `s` (the default stream when null).
    void record(const Stream* s = nullptr);
    void record(const Stream& s) { record(&s); }
    /// Waits until the stream has reached the marker.
    void synchronize() const;
    /// True once the stream has reached the marker.
    bool query() const;
    /// Milliseconds from this event to `end`; waits for both.
    float elapsed_ms(const Event& end) const;
    std::shared_ptr<sim::detail::EventImpl> impl_shared() const { return impl_; }

private:
    std::shared_ptr<sim::detail::EventImpl> impl_;
};

/// Waits for all work on all streams; rethrows the first KernelError not yet reported.
void synchronize();

}  // namespace simt
