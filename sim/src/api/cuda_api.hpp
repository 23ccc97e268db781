// What the files of the CUDA runtime API share (api/error.cpp, memory.cpp, device.cpp,
// stream.cpp, event.cpp, launch.cpp): the last error and the current device of each host thread;
// fail, sticky and collect, which every call ends with; and how a pointer is found in device
// memory. Internal: no public header includes it.
//
// Copies and memsets wait for every stream before they run, as cudaMemcpy does on the legacy
// default stream; the Async forms do the same (a program may not rely on a copy overlapping a
// kernel), so the launch order the race checker decides with stays that of simt's own copies.
#pragma once
#include <atomic>
#include <cstddef>
#include <map>
#include <mutex>
#include <source_location>
#include <string>

#include <simt/simt.hpp>
#include "../memory/arena.hpp"
#include "../device/occupancy.hpp"
#include "../report/draft.hpp"

namespace simt::sim::detail {

/// CUDA keeps the last error per host thread, and so the current device. Functions rather than
/// extern thread_locals: another file's access then goes through no TLS wrapper, which
/// UBSan's null check misreads.
cudaError_t& last_error();
int& current_device();

/// Whether a program has used a device other than 0: reports then name each array's device.
extern std::atomic<bool> several_devices;

/// Stream 0 of devices 1 and up (device 0's is simt's default stream), made when first used.
CUstream_st* legacy_stream(int device);

/// The CUDA runtime API's state: cudaMalloc'd memory by address, and the error a failed kernel
/// left for every later call.
struct CudaRuntime {
    std::mutex m;
    std::map<const std::byte*, Allocation*> live;
    cudaError_t sticky = cudaSuccess;
};
/// Made on first use and never destroyed: a stream thread may free memory as the process ends.
inline CudaRuntime& runtime() {
    static CudaRuntime* r = new CudaRuntime;
    return *r;
}

/// The largest pitch a 2-D or 3-D copy takes (cudaDeviceProp::memPitch, cudaDevAttrMaxPitch).
inline constexpr std::size_t max_pitch = 2147483647;

/// cudaSetDeviceFlags' flags: kept to be read back, with nothing to change in the simulator.
unsigned& device_flags();

/// Prints `message` (when not empty) as simt's, and makes `e` the last error; returns e.
cudaError_t fail(cudaError_t e, const std::string& message);
/// A kernel failure, once: printed, then sticky for every later call, with the error a GPU
/// gives for it (an illegal address, a failed assert; else cudaErrorLaunchFailure).
cudaError_t kernel_failed(const simt::Error& e);
/// The sticky error of a failed kernel, made the last error too; cudaSuccess when none.
cudaError_t sticky();

/// Runs a host wait (a stream, an event, everything) and turns a kernel failure it collects into
/// the sticky error; returns the sticky error without waiting when there is one already.
template <class Wait>
cudaError_t collect(Wait wait) {
    if (sticky()) return sticky();
    try {
        wait();
    } catch (const simt::Error& e) {
        return kernel_failed(e);
    }
    return cudaSuccess;
}

/// Waits for all work, as cudaDeviceSynchronize does.
cudaError_t wait_all();

/// The live device memory holding `p` (from cudaMalloc, a DeviceArray, or a `__device__` or
/// `__constant__` variable), and p's offset in it; null when p is not in any.
Allocation* find(const void* p, std::size_t& offset);
/// An error's message without its "simt: ", which fail() prints.
std::string without_prefix(const char* message);
/// A refused launch's message as a <<<>>> launch shows it: without simt::launch's own name.
std::string launch_message(const char* message);
/// " at file:line" of `site`, for messages.
std::string at(const std::source_location& site);

/// One end of a copy: device memory (an allocation and an offset) or host memory.
struct End {
    Allocation* a = nullptr;
    std::size_t offset = 0;
};

/// Checks that `bytes` from `p` lie in one allocation when p is device memory, and that the
/// direction matches where the pointers point. A 2-D or 3-D copy's `region` spans the bytes.
cudaError_t resolve(const char* call, const char* role, const void* p, std::size_t bytes,
                    bool device_expected, bool known, End& end, const std::source_location& site,
                    const RegionShape& region = {});
/// The device variable `symbol` names, for a copy of `bytes` at `offset` into or out of it.
cudaError_t resolve_symbol(const char* call, const void* symbol, std::size_t bytes,
                           std::size_t offset, End& end, const std::source_location& site);
/// A host copy or memset wrote these bytes: initcheck counts them as written.
void note_written(const End& e, std::size_t bytes);

/// Marks the capture on `stream`, if it is capturing, invalid because of `why` (graph.cpp);
/// whether it was capturing.
bool invalidate_capture(const simt::Stream* stream, const std::string& why);

}  // namespace simt::sim::detail
