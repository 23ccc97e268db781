// simt::launch(kernel, grid, block[, options])(args...): written once over the backend's enqueue.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not simt's private headers"
#endif
#include <cstddef>
#include <source_location>
#include <tuple>
#include <type_traits>
#include <utility>

#include "simt/core/launch_limits.hpp"
#include "simt/core/launch_options.hpp"
#include "simt/host/staging.hpp"

namespace simt {

/// What simt::launch returns: call it with the kernel's arguments to queue the launch.
/// `B` is the backend: B::dim3, B::enqueue(kernel, grid, block, options, site, arguments) and
/// B::wait(stream) (a null stream is the default one).
template <class B, class... P>
class basic_launcher {
    using dim = typename B::dim3;

public:
    basic_launcher(void (*k)(P...), dim g, dim b, LaunchOptions o, std::source_location site)
        : kernel_(k), grid_(g), block_(b), opts_(o), site_(site) {}

    template <class... A>
    void operator()(A&&... args) const {
        static_assert(sizeof...(A) == sizeof...(P),
                      "simt::launch: the number of arguments differs from the kernel's parameters");
        detail::validate_launch(grid_.x, grid_.y, grid_.z, block_.x, block_.y, block_.z,
                                opts_.shared_bytes, opts_.shared_optin, site_.file_name(),
                                site_.line());
        detail::Staging st;
        B::enqueue(kernel_, grid_, block_, opts_, site_,
                   convert(st, std::index_sequence_for<P...>{}, std::forward<A>(args)...));
        if (!st.copy_back.empty()) {
            B::wait(opts_.stream);
            for (auto& f : st.copy_back) f();
        }
    }

private:
    // Braces convert the arguments left to right.
    template <std::size_t... I, class... A>
    std::tuple<std::decay_t<P>...> convert(detail::Staging& st, std::index_sequence<I...>,
                                           A&&... args) const {
        return {detail::convert_arg<std::decay_t<P>>(st, std::forward<A>(args), I, site_)...};
    }

    void (*kernel_)(P...);
    dim grid_, block_;
    LaunchOptions opts_;
    std::source_location site_;
};

/// Queues `kernel` on a grid of `grid` blocks of `block` threads, like kernel<<<grid, block>>>:
/// `simt::launch(add, blocks, threads)(a, b, out);` returns at once; the work is asynchronous.
/// Throws LaunchError at once for a configuration CUDA would refuse (the same message in both
/// backends). In the simulator: the launch's file:line names it in reports.
///   simt::launch(fill, 4, 256)(a);   // a: DeviceArray<int> of 1024 -> every element written
template <class... P>
basic_launcher<detail::backend, P...> launch(
    void (*kernel)(P...), detail::backend::dim3 grid, detail::backend::dim3 block,
    LaunchOptions opts = {}, std::source_location site = std::source_location::current()) {
    return {kernel, grid, block, opts, site};
}

}  // namespace simt
