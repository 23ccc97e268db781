// <cub/util_allocator.cuh> in a simulator build: cub::CachingDeviceAllocator with CUB's calls.
// It caches nothing: every DeviceAllocate is a cudaMalloc and every DeviceFree a cudaFree, so that
// each block keeps its own record (a read past it, or after its free, is reported, and names the
// program's line), which a cache reusing blocks would hide.
#pragma once
#include <cub/util_type.cuh>

#include <map>
#include <mutex>

namespace cub {

struct CachingDeviceAllocator {
    static constexpr unsigned INVALID_BIN = static_cast<unsigned>(-1);
    static constexpr size_t INVALID_SIZE = static_cast<size_t>(-1);
    static constexpr int INVALID_DEVICE_ORDINAL = -1;

    bool debug = false;

    explicit CachingDeviceAllocator(unsigned = 8, unsigned = 3, unsigned = 7,
                                    size_t = INVALID_SIZE, bool = false, bool debug = false)
        : debug(debug) {}
    explicit CachingDeviceAllocator(bool, bool debug = false) : debug(debug) {}

    cudaError_t SetMaxCachedBytes(size_t) { return cudaSuccess; }

    cudaError_t DeviceAllocate(int device, void** d_ptr, size_t bytes,
                               cudaStream_t = nullptr, detail::Loc site = detail::Loc::current()) {
        int previous = 0;
        cudaGetDevice(&previous);
        if (device != INVALID_DEVICE_ORDINAL && device != previous) cudaSetDevice(device);
        cudaError_t e = cudaMalloc(d_ptr, bytes, site);
        if (device != INVALID_DEVICE_ORDINAL && device != previous) cudaSetDevice(previous);
        return e;
    }
    cudaError_t DeviceAllocate(void** d_ptr, size_t bytes, cudaStream_t stream = nullptr,
                               detail::Loc site = detail::Loc::current()) {
        return DeviceAllocate(INVALID_DEVICE_ORDINAL, d_ptr, bytes, stream, site);
    }
    cudaError_t DeviceFree(int, void* d_ptr) { return cudaFree(d_ptr); }
    cudaError_t DeviceFree(void* d_ptr) { return cudaFree(d_ptr); }
    cudaError_t FreeAllCached() { return cudaSuccess; }
};

}  // namespace cub
