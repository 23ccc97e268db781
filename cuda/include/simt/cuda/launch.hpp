// simt::launch on CUDA: the same validation and argument conversion as the simulator, then <<<>>>.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the CUDA backend's headers"
#endif
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "simt/common/launch_limits.hpp"
#include "simt/common/launch_options.hpp"
#include "simt/cuda/device_array.hpp"
#include "simt/cuda/runtime.hpp"
#include "simt/cuda/stream.hpp"

namespace simt::detail {
/// Staged host vectors need no name on the GPU: nothing reports on them.
template <class T>
void note_staged(const DeviceArray<T>&) {}
}  // namespace simt::detail
#include "simt/common/staging.hpp"

namespace simt {

/// What simt::launch returns: call it with the kernel's arguments to queue the launch.
template <class... P>
class Launcher {
public:
    Launcher(void (*k)(P...), dim3 g, dim3 b, LaunchOptions o)
        : kernel_(k), grid_(g), block_(b), opts_(o) {}

    template <class... A>
    void operator()(A&&... args) const {
        static_assert(sizeof...(A) == sizeof...(P),
                      "simt::launch: the number of arguments differs from the kernel's parameters");
        detail::validate_launch(grid_.x, grid_.y, grid_.z, block_.x, block_.y, block_.z,
                                opts_.shared_bytes, opts_.shared_optin);
        cuda::detail::require_device();
        detail::Staging st;
        // Braces convert the arguments left to right, as the simulator does.
        std::tuple<std::decay_t<P>...> converted{
            detail::convert_arg<std::decay_t<P>>(st, std::forward<A>(args))...};
        if (opts_.shared_optin)
            cuda::detail::check(
                cudaFuncSetAttribute(kernel_, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     static_cast<int>(opts_.shared_bytes)),
                "simt::launch (raising the kernel's dynamic shared memory limit)");
        cudaStream_t stream = opts_.stream ? opts_.stream->native() : nullptr;
        enqueue(stream, converted, std::index_sequence_for<P...>{});
        if (!st.copy_back.empty()) {
            cuda::detail::check(cudaStreamSynchronize(stream),
                                "simt::launch (waiting to copy host vectors back)");
            for (auto& f : st.copy_back) f();
        }
    }

private:
    template <std::size_t... I>
    void enqueue(cudaStream_t stream, std::tuple<std::decay_t<P>...>& args,
                 std::index_sequence<I...>) const {
        kernel_<<<grid_, block_, opts_.shared_bytes, stream>>>(std::get<I>(args)...);
        cuda::detail::check(cudaGetLastError(), "simt::launch");
    }

    void (*kernel_)(P...);
    dim3 grid_, block_;
    LaunchOptions opts_;
};

/// Queues `kernel` on a grid of `grid` blocks of `block` threads: kernel<<<grid, block>>>.
/// Returns at once; the work is asynchronous. Throws LaunchError for a configuration CUDA
/// would refuse, with the simulator's message, before CUDA sees it.
template <class... P>
Launcher<P...> launch(void (*kernel)(P...), dim3 grid, dim3 block, LaunchOptions opts = {}) {
    return Launcher<P...>(kernel, grid, block, opts);
}

}  // namespace simt
