// The CUDA backend's launch policy: <<<>>> on a CUDA stream, errors as CudaError.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the CUDA backend's headers"
#endif
#include <cstddef>
#include <source_location>
#include <tuple>
#include <type_traits>
#include <utility>

#include "simt/core/launch_options.hpp"
#include "simt/cuda/runtime.hpp"
#include "simt/cuda/stream.hpp"

namespace simt::cuda::detail {

/// What simt::launch asks of the GPU: raise the shared memory limit where opted in, then
/// kernel<<<grid, block, shared_bytes, stream>>>; and wait for a stream.
struct LaunchPolicy {
    using dim3 = ::dim3;

    template <class... P>
    static void enqueue(void (*kernel)(P...), dim3 grid, dim3 block, const LaunchOptions& o,
                        std::source_location, std::tuple<std::decay_t<P>...>&& args) {
        require_device();
        if (o.shared_optin)
            check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(o.shared_bytes)),
                  "simt::launch (raising the kernel's dynamic shared memory limit)");
        cudaStream_t stream = o.stream ? o.stream->native() : nullptr;
        std::apply([&](auto&... a) { kernel<<<grid, block, o.shared_bytes, stream>>>(a...); },
                   args);
        check(cudaGetLastError(), "simt::launch");
    }
    static void wait(const Stream* s) {
        check(cudaStreamSynchronize(s ? s->native() : nullptr),
              "simt::launch (waiting to copy host vectors back)");
    }
};

}  // namespace simt::cuda::detail
