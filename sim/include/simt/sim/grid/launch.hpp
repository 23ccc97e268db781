// simt::launch: the one launch path from host arguments to a grid of fibers.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include <cstddef>
#include <cstdint>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "simt/common/launch_limits.hpp"
#include "simt/common/launch_options.hpp"
#include "simt/sim/host/device_array.hpp"
#include "simt/sim/host/stream.hpp"
#include "simt/sim/vector_types.hpp"

namespace simt::sim::detail {

/// A launch as the simulator queues it: the configuration and a type-erased kernel call.
struct KernelLaunch {
    dim3 grid, block;
    std::size_t shared_bytes = 0;
    bool shared_optin = false;
    void (*invoke)(const void* closure) = nullptr;
    std::shared_ptr<const void> closure;
    Loc site;
    std::uint32_t serial = 0;         ///< place in the process's launch order (set when queued)
    unsigned stream = 0;              ///< the ordering id of the stream it was queued on
    std::vector<std::uint32_t> hb;    ///< per stream, the last launch that happens before this one
};
void enqueue_launch(const Stream* s, KernelLaunch k);
void name_allocation(const Allocation* a, const char* name);

template <class... P>
struct Closure {
    void (*kernel)(P...);
    std::tuple<std::decay_t<P>...> args;
    static void invoke(const void* self) {
        auto& c = *static_cast<const Closure*>(self);
        std::apply(c.kernel, c.args);
    }
};

}  // namespace simt::sim::detail

namespace simt::detail {
/// A staged host vector's device copy is named as such in reports.
template <class T>
void note_staged(const DeviceArray<T>& a) {
    sim::detail::name_allocation(a.data().allocation(), "host vector passed to simt::launch");
}
}  // namespace simt::detail
#include "simt/common/staging.hpp"

namespace simt {

/// What simt::launch returns: call it with the kernel's arguments to queue the launch.
template <class... P>
class Launcher {
public:
    Launcher(void (*k)(P...), dim3 g, dim3 b, LaunchOptions o, sim::Loc site)
        : kernel_(k), grid_(g), block_(b), opts_(o), site_(site) {}

    template <class... A>
    void operator()(A&&... args) const {
        static_assert(sizeof...(A) == sizeof...(P),
                      "simt::launch: the number of arguments differs from the kernel's parameters");
        detail::validate_launch(grid_.x, grid_.y, grid_.z, block_.x, block_.y, block_.z,
                                opts_.shared_bytes, opts_.shared_optin);
        detail::Staging st;
        auto closure = std::make_shared<sim::detail::Closure<P...>>(sim::detail::Closure<P...>{
            kernel_, {detail::convert_arg<std::decay_t<P>>(st, std::forward<A>(args), site_)...}});
        sim::detail::KernelLaunch k{grid_,     block_, opts_.shared_bytes, opts_.shared_optin,
                                    &sim::detail::Closure<P...>::invoke, closure, site_};
        sim::detail::enqueue_launch(opts_.stream, std::move(k));
        if (!st.copy_back.empty()) {
            (opts_.stream ? *opts_.stream : Stream::default_stream()).synchronize();
            for (auto& f : st.copy_back) f();
        }
    }

private:
    void (*kernel_)(P...);
    dim3 grid_, block_;
    LaunchOptions opts_;
    sim::Loc site_;
};

/// Queues `kernel` on a grid of `grid` blocks of `block` threads, like kernel<<<grid, block>>>:
/// `simt::launch(add, blocks, threads)(a, b, out);` returns at once; the work is asynchronous.
/// Throws LaunchError at once for a configuration CUDA would refuse.
template <class... P>
Launcher<P...> launch(void (*kernel)(P...), dim3 grid, dim3 block, LaunchOptions opts = {},
                      sim::Loc site = sim::Loc::current()) {
    return Launcher<P...>(kernel, grid, block, opts, site);
}

}  // namespace simt
