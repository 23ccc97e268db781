// The runtime API's streams: creating, destroying, waiting for and querying them, and making
// one wait for an event.
#include "../launch/streams.hpp"
#include "cuda_api.hpp"

using namespace simt::sim::detail;

cudaError_t cudaStreamCreate(cudaStream_t* stream) {
    if (!stream) return fail(cudaErrorInvalidValue, "cudaStreamCreate: the pointer is null");
    *stream = new CUstream_st{};
    (*stream)->stream.impl().device = current_device();
    return cudaSuccess;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags) {
    if (flags & ~unsigned(cudaStreamNonBlocking)) {
        ApiErrorDraft e;
        e.problem = ApiErrorDraft::Problem::not_flags;
        e.call = "cudaStreamCreateWithFlags";
        e.value = flags;
        e.accepted = "is not cudaStreamDefault or cudaStreamNonBlocking";
        return fail(cudaErrorInvalidValue, api_error_text(e));
    }
    if (cudaError_t e = cudaStreamCreate(stream)) return e;
    (*stream)->stream.impl().blocking = !(flags & cudaStreamNonBlocking);
    return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
    if (!stream)
        return fail(cudaErrorInvalidResourceHandle,
                    "cudaStreamDestroy: the default stream cannot be destroyed");
    delete stream;  // queued work still runs: the queue lives while it has work
    return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
    // A capture records work and runs none of it: there is nothing to wait for, and CUDA ends the
    // capture's validity.
    if (stream && invalidate_capture(cuda_stream(stream), "cudaStreamSynchronize on the stream"))
        return fail(cudaErrorStreamCaptureUnsupported,
                    "cudaStreamSynchronize: the stream is capturing, and a capture runs nothing "
                    "to wait for; synchronize after cudaStreamEndCapture, or launch the graph "
                    "and synchronize that (the capture is now invalid)");
    return collect(
        [&] { (stream ? stream->stream : simt::Stream::default_stream()).synchronize(); });
}

cudaError_t cudaStreamQuery(cudaStream_t stream) {
    if (sticky()) return sticky();
    const simt::Stream* s = cuda_stream(stream);
    auto& impl = s ? s->impl() : simt::Stream::default_stream().impl();
    if (!impl.idle()) return cudaErrorNotReady;
    // Done: what the stream's work wrote happens before what the host does next, as after a
    // cudaStreamSynchronize.
    order_host_waits(impl.id);
    return cudaSuccess;
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned) {
    if (!event)
        return fail(cudaErrorInvalidResourceHandle, "cudaStreamWaitEvent: the event is null");
    (stream ? stream->stream : simt::Stream::default_stream()).wait(event->event);
    return cudaSuccess;
}
