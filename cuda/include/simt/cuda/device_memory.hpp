// The CUDA backend's memory policy for DeviceArray: cudaMalloc, cudaMemcpy, cudaFree.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the CUDA backend's headers"
#endif
#include <cstddef>
#include <source_location>

#include "simt/cuda/runtime.hpp"

namespace simt::cuda::detail {

/// An array is its device address (null for an array of size 0, which cudaMalloc cannot make).
/// Copies are cudaMemcpy on the default stream, so they wait for queued kernels first.
struct DeviceMemory {
    using handle = void*;

    template <class T>
    static handle allocate(std::size_t n, std::source_location) {
        require_device();
        void* p = nullptr;
        if (n > 0) check(cudaMalloc(&p, n * sizeof(T)), "cudaMalloc of a device array");
        return p;
    }
    static void release(handle h) {
        // A failed kernel makes cudaFree fail too; that error was or will be thrown elsewhere,
        // and a destructor must not throw.
        if (h) (void)cudaFree(h);
    }
    static void copy_in(handle h, const void* src, std::size_t bytes) {
        if (bytes > 0)
            check(cudaMemcpy(h, src, bytes, cudaMemcpyHostToDevice),
                  "copy_from_host (cudaMemcpy host to device)");
    }
    static void copy_out(handle h, void* dst, std::size_t bytes) {
        if (bytes > 0)
            check(cudaMemcpy(dst, h, bytes, cudaMemcpyDeviceToHost),
                  "copy_to_host (cudaMemcpy device to host)");
    }
    template <class T>
    static T* data(handle h) {
        return static_cast<T*>(h);
    }
    /// Staged host vectors need no name on the GPU: nothing reports on them.
    template <class T>
    static void name_staged(T*) {}
};

}  // namespace simt::cuda::detail
