// The GPU's time between two events, beside the simulator's own: what a lesson prints as "the
// kernel took". cuda/include/simt/cuda/gpu_time.hpp is the same API on a GPU, where both are the
// card's measurement.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include <string>

#include "simt/sim/api/runtime_api.hpp"

namespace simt {

namespace sim::detail {
void want_gpu_clock();
cudaError_t gpu_clock_elapsed_time(float* ms, cudaEvent_t start, cudaEvent_t end);
std::string gpu_clock_label();

/// Counting every access for the time model costs time, so the GPU's clock (sim/src/launch/
/// gpu_clock.hpp) runs only in a program that reads it. A call of gpu_elapsed_time or
/// gpu_time_label instantiates this member, whose initialisation turns the clock on before main:
/// the launches before the first event are counted too. The readers are templates so that the
/// member depends on their parameter: in a plain inline function it would be instantiated in
/// every file that includes this header, called or not.
template <class = void>
struct GpuClockWanted {
    static const bool at_start;
};
template <class T>
const bool GpuClockWanted<T>::at_start = (want_gpu_clock(), true);
}  // namespace sim::detail

/// cudaEventElapsedTime for the GPU's time: milliseconds from `start` to `end` on the GPU that
/// SIMT_DEVICE names, as the time model predicts them from the counts of every launch between
/// them and the speed of the link for every copy (docs/profiling.md, "The GPU's clock"). On a
/// GPU build, the card's own measurement. NaN where nothing can be predicted: gpu_time_label()
/// says why.
template <class Event = cudaEvent_t>
cudaError_t gpu_elapsed_time(float* ms, Event start, Event end) {
    if (!sim::detail::GpuClockWanted<Event>::at_start) sim::detail::want_gpu_clock();
    return sim::detail::gpu_clock_elapsed_time(ms, start, end);
}

/// What gpu_elapsed_time's milliseconds are, for a column's heading: "H100, predicted" in the
/// simulator, "NVIDIA H100 80GB HBM3, measured" on a GPU.
template <class Wanted = void>
std::string gpu_time_label() {
    if (!sim::detail::GpuClockWanted<Wanted>::at_start) sim::detail::want_gpu_clock();
    return sim::detail::gpu_clock_label();
}

/// The simulator's own milliseconds from `start` to `end` on this machine (cudaEventElapsedTime
/// here); NaN on a GPU build, which has no simulator.
inline cudaError_t simulator_elapsed_time(float* ms, cudaEvent_t start, cudaEvent_t end) {
    return cudaEventElapsedTime(ms, start, end);
}

}  // namespace simt
