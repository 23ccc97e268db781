// The CUDA runtime API over the simulator: what <cuda_runtime.h> declares, with CUDA's names,
// signatures, error codes and last-error rules, so that a program written for nvcc builds here
// unchanged. Device pointers are the simulator's allocations; streams and events are simt's.
//
// Error rules, as CUDA's: every call returns a cudaError_t and also records a failure as the
// calling host thread's last error (cudaGetLastError returns and clears it, cudaPeekAtLastError
// only returns it). A kernel that fails (an exception, a deadlock, a stack overflow, a timeout)
// makes the error sticky: every later call returns cudaErrorLaunchFailure until cudaDeviceReset.
// simt also prints what went wrong, with file:line, when the error is first seen, so that a
// program that checks nothing still says why.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp> or <cuda_runtime.h>, not the simulator's headers"
#endif
#include <cstddef>
#include <memory>
#include <source_location>
#include <type_traits>
#include <utility>

#include "simt/core/type_name.hpp"
#include "simt/sim/grid/launch.hpp"
#include "simt/sim/host/stream.hpp"
#include "simt/sim/vector_types.hpp"

// What helper headers written for the toolkit test for.
#define __CUDA_RUNTIME_H__
#define __DRIVER_TYPES_H__
#define CUDART_VERSION 12000
#define CUDA_VERSION 12000

/// CUDA's error codes (the subset the simulator can return), with the toolkit's values.
enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidSymbol = 13,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorInvalidDeviceFunction = 98,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidDevice = 101,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorIllegalState = 401,
    cudaErrorNotReady = 600,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchFailure = 719,
    cudaErrorCooperativeLaunchTooLarge = 720,
    cudaErrorNotSupported = 801,
    cudaErrorStreamCaptureUnsupported = 900,
    cudaErrorUnknown = 999,
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4,
};

/// A stream or an event is a handle to simt's own; 0 is the default stream.
struct CUstream_st {
    simt::Stream stream;
};
struct CUevent_st {
    simt::Event event;
    bool recorded = false;
};
typedef CUstream_st* cudaStream_t;
typedef CUevent_st* cudaEvent_t;

#define cudaStreamDefault 0x0
#define cudaStreamNonBlocking 0x1
#define cudaEventDefault 0x0
#define cudaEventBlockingSync 0x1
#define cudaEventDisableTiming 0x2
#define cudaHostAllocDefault 0x0
#define cudaMemAttachGlobal 0x1

/// The device description, with the fields courses print; the simulator fills them with the
/// limits it enforces.
struct cudaDeviceProp {
    char name[256];
    std::size_t totalGlobalMem;
    std::size_t sharedMemPerBlock;
    std::size_t sharedMemPerBlockOptin;
    std::size_t sharedMemPerMultiprocessor;
    int regsPerBlock;
    int warpSize;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int clockRate;
    std::size_t totalConstMem;
    int major;
    int minor;
    int multiProcessorCount;
    int maxThreadsPerMultiProcessor;
    int maxBlocksPerMultiProcessor;
    int memoryClockRate;
    int memoryBusWidth;
    int l2CacheSize;
    int concurrentKernels;
    int asyncEngineCount;
    int unifiedAddressing;
    int managedMemory;
    int cooperativeLaunch;
};

enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1,
    cudaDevAttrMaxBlockDimX = 2,
    cudaDevAttrMaxBlockDimY = 3,
    cudaDevAttrMaxBlockDimZ = 4,
    cudaDevAttrMaxGridDimX = 5,
    cudaDevAttrMaxGridDimY = 6,
    cudaDevAttrMaxGridDimZ = 7,
    cudaDevAttrMaxSharedMemoryPerBlock = 8,
    cudaDevAttrWarpSize = 10,
    cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrComputeCapabilityMajor = 75,
    cudaDevAttrComputeCapabilityMinor = 76,
    cudaDevAttrCooperativeLaunch = 95,
    cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
};

// Memory.
cudaError_t cudaMalloc(void** ptr, std::size_t bytes,
                       std::source_location site = std::source_location::current());
cudaError_t cudaMallocManaged(void** ptr, std::size_t bytes, unsigned flags = cudaMemAttachGlobal,
                              std::source_location site = std::source_location::current());
cudaError_t cudaFree(void* ptr, std::source_location site = std::source_location::current());
cudaError_t cudaMallocHost(void** ptr, std::size_t bytes);
cudaError_t cudaHostAlloc(void** ptr, std::size_t bytes, unsigned flags);
cudaError_t cudaFreeHost(void* ptr);
// The trailing `site` (defaulted: a program never passes it) names the caller's line in messages.
cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                       std::source_location site = std::source_location::current());
cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t stream = nullptr,
                            std::source_location site = std::source_location::current());
cudaError_t cudaMemset(void* ptr, int value, std::size_t bytes,
                       std::source_location site = std::source_location::current());
cudaError_t cudaMemsetAsync(void* ptr, int value, std::size_t bytes, cudaStream_t stream = nullptr,
                            std::source_location site = std::source_location::current());
cudaError_t cudaMemcpy2D(void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
                         std::size_t width, std::size_t height, cudaMemcpyKind kind,
                         std::source_location site = std::source_location::current());

namespace simt::sim::detail {
/// cudaMalloc and cudaMallocManaged, told the element type when the call shows it, so that reports
/// index the array by element ('d_a'[1000] of float) and not by byte.
cudaError_t cuda_malloc(void** ptr, std::size_t bytes, std::size_t elem_size, const char* elem_type,
                        bool managed, std::source_location site);
/// Scalars are elements; the members of a struct are checked byte by byte (two threads may
/// update different members of one element).
template <class T>
constexpr std::size_t cuda_elem_size = std::is_scalar_v<T> ? sizeof(T) : 1;
template <class T>
const char* cuda_elem_type() {
    if constexpr (std::is_scalar_v<T>) return simt::detail::type_name<T>();
    else return "byte";
}
}  // namespace simt::sim::detail

/// The typed overloads the toolkit's header also provides: cudaMalloc(&float_ptr, bytes).
template <class T>
cudaError_t cudaMalloc(T** ptr, std::size_t bytes,
                       std::source_location site = std::source_location::current()) {
    using namespace simt::sim::detail;
    return cuda_malloc(reinterpret_cast<void**>(ptr), bytes, cuda_elem_size<T>, cuda_elem_type<T>(),
                       false, site);
}
template <class T>
cudaError_t cudaMallocManaged(T** ptr, std::size_t bytes, unsigned = cudaMemAttachGlobal,
                              std::source_location site = std::source_location::current()) {
    using namespace simt::sim::detail;
    return cuda_malloc(reinterpret_cast<void**>(ptr), bytes, cuda_elem_size<T>, cuda_elem_type<T>(),
                       true, site);
}
template <class T>
cudaError_t cudaMallocHost(T** ptr, std::size_t bytes) {
    return cudaMallocHost(reinterpret_cast<void**>(ptr), bytes);
}

namespace simt::sim::detail {
/// cudaMemcpyToSymbol (`to_symbol`) and cudaMemcpyFromSymbol: `other` is the source or the
/// destination.
cudaError_t cuda_memcpy_symbol(const void* symbol, void* other, std::size_t bytes,
                               std::size_t offset, cudaMemcpyKind kind, bool to_symbol,
                               std::source_location site);
/// cudaGetSymbolAddress (`address` set) and cudaGetSymbolSize (`bytes` set).
cudaError_t cuda_symbol(const void* symbol, void** address, std::size_t* bytes,
                        std::source_location site);
}  // namespace simt::sim::detail

// `__device__` and `__constant__` variables (memory/symbol.hpp): `symbol` is the variable itself.
template <class T>
cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, std::size_t bytes,
                               std::size_t offset = 0, cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                               std::source_location site = std::source_location::current()) {
    return simt::sim::detail::cuda_memcpy_symbol(&symbol, const_cast<void*>(src), bytes, offset,
                                                 kind, true, site);
}
template <class T>
cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, std::size_t bytes,
                                 std::size_t offset = 0, cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                 std::source_location site = std::source_location::current()) {
    return simt::sim::detail::cuda_memcpy_symbol(&symbol, dst, bytes, offset, kind, false, site);
}
// The Async forms wait and copy at once, as cudaMemcpyAsync does here (runtime.cpp).
template <class T>
cudaError_t cudaMemcpyToSymbolAsync(const T& symbol, const void* src, std::size_t bytes,
                                    std::size_t offset = 0,
                                    cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                    cudaStream_t = nullptr,
                                    std::source_location site = std::source_location::current()) {
    return cudaMemcpyToSymbol(symbol, src, bytes, offset, kind, site);
}
template <class T>
cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const T& symbol, std::size_t bytes,
                                      std::size_t offset = 0,
                                      cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                      cudaStream_t = nullptr,
                                      std::source_location site = std::source_location::current()) {
    return cudaMemcpyFromSymbol(dst, symbol, bytes, offset, kind, site);
}
template <class T>
cudaError_t cudaGetSymbolAddress(void** address, const T& symbol,
                                 std::source_location site = std::source_location::current()) {
    return simt::sim::detail::cuda_symbol(&symbol, address, nullptr, site);
}
template <class T>
cudaError_t cudaGetSymbolSize(std::size_t* bytes, const T& symbol,
                              std::source_location site = std::source_location::current()) {
    return simt::sim::detail::cuda_symbol(&symbol, nullptr, bytes, site);
}

// The device and errors.
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaDeviceReset();
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device);

// Streams and events.
cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags = 0);
cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned flags);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = nullptr);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaEventDestroy(cudaEvent_t event);

// Kernel attributes. The simulator runs any kernel with any register count; what it keeps is the
// opt-in to more than 48 KiB of dynamic shared memory, for every kernel at once (it cannot tell
// the kernel of a <<<>>> launch by its address: docs/porting.md).
enum cudaFuncAttribute {
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
    cudaFuncAttributePreferredSharedMemoryCarveout = 9,
};
enum cudaFuncCache {
    cudaFuncCachePreferNone = 0,
    cudaFuncCachePreferShared = 1,
    cudaFuncCachePreferL1 = 2,
    cudaFuncCachePreferEqual = 3,
};
enum cudaSharedMemConfig {
    cudaSharedMemBankSizeDefault = 0,
    cudaSharedMemBankSizeFourByte = 1,
    cudaSharedMemBankSizeEightByte = 2,
};
struct cudaFuncAttributes {
    std::size_t sharedSizeBytes;  ///< static shared memory: unknown until the kernel runs, 0
    std::size_t constSizeBytes;
    std::size_t localSizeBytes;
    int maxThreadsPerBlock;
    int numRegs;
    int ptxVersion;
    int binaryVersion;
    int cacheModeCA;
    int maxDynamicSharedSizeBytes;
    int preferredShmemCarveout;
};
namespace simt::sim::detail {
cudaError_t cuda_func_set_attribute(cudaFuncAttribute attr, int value, std::source_location site);
cudaError_t cuda_func_get_attributes(cudaFuncAttributes* attr);
}  // namespace simt::sim::detail
template <class F>
cudaError_t cudaFuncSetAttribute(F* /*kernel*/, cudaFuncAttribute attr, int value,
                                 std::source_location site = std::source_location::current()) {
    return simt::sim::detail::cuda_func_set_attribute(attr, value, site);
}
template <class F>
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, F* /*kernel*/) {
    return simt::sim::detail::cuda_func_get_attributes(attr);
}
// Cache and bank preferences change speed on a GPU, never results: nothing to do here.
template <class F>
cudaError_t cudaFuncSetCacheConfig(F*, cudaFuncCache) { return cudaSuccess; }
inline cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) { return cudaSuccess; }
inline cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig) { return cudaSuccess; }

// Profiler ranges (<cuda_profiler_api.h>): nothing to profile in the simulator.
inline cudaError_t cudaProfilerStart() { return cudaSuccess; }
inline cudaError_t cudaProfilerStop() { return cudaSuccess; }

namespace simt::sim::detail {

/// Checks a <<<>>> launch before it is queued: a configuration CUDA refuses is printed with the
/// launch's file:line and becomes the last error (cudaErrorInvalidConfiguration); a sticky error
/// refuses every launch. True when the launch may go ahead.
/// `shared_optin` is set when the dynamic shared memory is above 48 KiB but within what
/// cudaFuncSetAttribute allowed.
bool cuda_launch_allowed(dim3 grid, dim3 block, std::size_t shared_bytes, std::source_location site,
                         bool& shared_optin);
/// The stream a launch or copy goes to.
const simt::Stream* cuda_stream(cudaStream_t s);

/// A kernel call as the front end writes it: a closure that calls the kernel with the launch's
/// arguments, copied once when the launch is made (as CUDA copies them).
template <class F>
struct CallClosure {
    F call;
    static void run(const void* self, LazyThreads& block) {
        run_threads(static_cast<const CallClosure*>(self)->call, block);
    }
};

}  // namespace simt::sim::detail

namespace simt::detail {

/// What `kernel<<<grid, block, shared_bytes, stream>>>(args)` becomes in a simulator build (the
/// front end, sim/tools/cudafe, writes the call): the configuration here, then the kernel call.
class CudaLaunch {
public:
    CudaLaunch(dim3 grid, dim3 block, std::size_t shared_bytes, cudaStream_t stream,
               std::source_location site)
        : grid_(grid), block_(block), shared_bytes_(shared_bytes), stream_(stream), site_(site) {}

    template <class F>
    void operator()(F&& call) const {
        namespace sd = sim::detail;
        bool optin = false;
        if (!sd::cuda_launch_allowed(grid_, block_, shared_bytes_, site_, optin)) return;
        using C = sd::CallClosure<std::decay_t<F>>;
        auto closure = std::make_shared<const C>(C{std::forward<F>(call)});
        sd::enqueue_launch(sd::cuda_stream(stream_),
                           sd::KernelLaunch{grid_, block_, shared_bytes_, optin, &C::run,
                                            std::move(closure), site_});
    }

private:
    dim3 grid_, block_;
    std::size_t shared_bytes_;
    cudaStream_t stream_;
    std::source_location site_;
};

inline CudaLaunch cuda_launch(dim3 grid, dim3 block, std::size_t shared_bytes = 0,
                              cudaStream_t stream = nullptr,
                              std::source_location site = std::source_location::current()) {
    return {grid, block, shared_bytes, stream, site};
}

}  // namespace simt::detail
