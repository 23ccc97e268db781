// The runtime API's events: recording, waiting for, querying and timing them.
#include <cmath>
#include <optional>

#include "cuda_api.hpp"
#include "../device/model.hpp"
#include "../launch/gpu_clock.hpp"
#include "../launch/streams.hpp"

using namespace simt::sim::detail;

cudaError_t cudaEventCreate(cudaEvent_t* event) {
    if (!event) return fail(cudaErrorInvalidValue, "cudaEventCreate: the pointer is null");
    *event = new CUevent_st{};
    return cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned) {
    return cudaEventCreate(event);
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
    if (!event) return fail(cudaErrorInvalidResourceHandle, "cudaEventRecord: the event is null");
    event->event.record(cuda_stream(stream));
    event->recorded = true;
    return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
    if (!event)
        return fail(cudaErrorInvalidResourceHandle, "cudaEventSynchronize: the event is null");
    return collect([&] { event->event.synchronize(); });
}

cudaError_t cudaEventQuery(cudaEvent_t event) {
    if (!event) return fail(cudaErrorInvalidResourceHandle, "cudaEventQuery: the event is null");
    return event->event.query() ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
    if (!ms || !start || !end) return fail(cudaErrorInvalidValue, "");
    if (!start->recorded || !end->recorded)
        return fail(cudaErrorInvalidResourceHandle,
                    "cudaEventElapsedTime: both events must have been recorded");
    if (!start->event.query() || !end->event.query()) return fail(cudaErrorNotReady, "");
    *ms = start->event.elapsed_ms(end->event);
    return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
    delete event;
    return cudaSuccess;
}

namespace simt::sim::detail {

cudaError_t gpu_clock_elapsed_time(float* ms, cudaEvent_t start, cudaEvent_t end) {
    float simulator_ms;  // the same checks and waits as cudaEventElapsedTime's
    if (cudaError_t e = cudaEventElapsedTime(&simulator_ms, start, end)) return e;
    auto op = [](cudaEvent_t e) {
        EventImpl& ev = *e->event.impl_shared();
        std::lock_guard lock(ev.m);
        return ev.clock_op;
    };
    const std::optional<double> t = clock_elapsed_ms(op(start), op(end));
    *ms = t ? static_cast<float>(*t) : std::nanf("");
    return cudaSuccess;
}

std::string gpu_clock_label() {
    const char* why = profile_counts_every_access() ? clock_unknown_why()
                                                     : "built UNCHECKED, nothing counted";
    return std::string(gpu_model().key) + (*why ? ", not predicted: " + std::string(why)
                                                : std::string(", predicted"));
}

}  // namespace simt::sim::detail
