// simt::Stream, simt::Event and simt::synchronize() on CUDA streams and events.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the CUDA backend's headers"
#endif
#include <memory>
#include <type_traits>

#include "simt/cuda/runtime.hpp"

namespace simt {

class Event;

/// An in-order queue of work, a cudaStream_t. Copies of a Stream name the same queue.
class Stream {
public:
    Stream() {
        cuda::detail::require_device();
        cudaStream_t s = nullptr;
        cuda::detail::check(cudaStreamCreate(&s), "cudaStreamCreate");
        s_ = std::shared_ptr<CUstream_st>(s, [](cudaStream_t p) { (void)cudaStreamDestroy(p); });
    }
    /// Waits for everything queued so far; throws CudaError if that work failed.
    void synchronize() const {
        cuda::detail::check(cudaStreamSynchronize(native()), "Stream::synchronize");
    }
    /// Work queued after this call waits until `e` has happened (cudaStreamWaitEvent).
    inline void wait(const Event& e) const;
    /// The CUDA stream, for interop with other CUDA code.
    cudaStream_t native() const { return s_.get(); }
    /// The stream a launch without LaunchOptions::stream goes to (CUDA's default stream).
    static Stream default_stream() { return Stream(nullptr); }

private:
    explicit Stream(std::nullptr_t) {}
    std::shared_ptr<CUstream_st> s_;
};

/// A marker in a stream, with the time at which the stream reached it.
class Event {
public:
    Event() {
        cuda::detail::require_device();
        cudaEvent_t e = nullptr;
        cuda::detail::check(cudaEventCreate(&e), "cudaEventCreate");
        e_ = std::shared_ptr<CUevent_st>(e, [](cudaEvent_t p) { (void)cudaEventDestroy(p); });
    }
    /// Places the marker at the end of `s` (the default stream when null).
    void record(const Stream* s = nullptr) {
        cuda::detail::check(cudaEventRecord(native(), s ? s->native() : nullptr), "Event::record");
    }
    void record(const Stream& s) { record(&s); }
    /// Waits until the stream has reached the marker.
    void synchronize() const {
        cuda::detail::check(cudaEventSynchronize(native()), "Event::synchronize");
    }
    /// True once the stream has reached the marker.
    bool query() const {
        cudaError_t e = cudaEventQuery(native());
        if (e == cudaErrorNotReady) return false;
        cuda::detail::check(e, "Event::query");
        return true;
    }
    /// Milliseconds from this event to `end`; waits for both.
    float elapsed_ms(const Event& end) const {
        synchronize();
        end.synchronize();
        float ms = 0;
        cudaError_t e = cudaEventElapsedTime(&ms, native(), end.native());
        // Both handles are live, so the runtime's "invalid resource handle" means an event that
        // was never recorded; say so, as the simulator does.
        cuda::detail::check(e, e == cudaErrorInvalidResourceHandle
                                   ? "Event::elapsed_ms (both events must have been recorded)"
                                   : "Event::elapsed_ms");
        return ms;
    }
    cudaEvent_t native() const { return e_.get(); }

private:
    std::shared_ptr<CUevent_st> e_;
};

inline void Stream::wait(const Event& e) const {
    cuda::detail::check(cudaStreamWaitEvent(native(), e.native(), 0), "Stream::wait");
}

/// Waits for all work on the device; throws CudaError if any of it failed.
inline void synchronize() {
    cuda::detail::require_device();
    cuda::detail::check(cudaDeviceSynchronize(), "simt::synchronize");
}

}  // namespace simt
