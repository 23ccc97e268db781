// simt::launch: the one launch path from host arguments to a grid of fibers.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "simt/common/launch_limits.hpp"
#include "simt/sim/host/device_array.hpp"
#include "simt/sim/host/stream.hpp"
#include "simt/sim/vector_types.hpp"

namespace simt {

/// The optional part of a launch: dynamic shared memory, the stream, and the opt-in to more than
/// 48 KiB of shared memory per block (cudaFuncAttributeMaxDynamicSharedMemorySize).
struct LaunchOptions {
    std::size_t shared_bytes = 0;
    const Stream* stream = nullptr;
    bool shared_optin = false;
};

}  // namespace simt

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

template <class T>
struct view_of_host {  // which kernel parameter types a host std::vector may stand in for
    static constexpr bool value = false;
};
template <class U>
struct view_of_host<ptr<U>> {
    static constexpr bool value = true;
    using element = std::remove_const_t<U>;
};
template <class U>
struct view_of_host<span<U>> : view_of_host<ptr<U>> {};
template <class U>
struct view_of_host<mdspan<U, 1>> : view_of_host<ptr<U>> {};

template <class T>
struct is_host_vector : std::false_type {};
template <class T, class A>
struct is_host_vector<std::vector<T, A>> : std::true_type {};

/// Device copies of host vectors passed to a launch, and the copies back after it, as Numba
/// does for NumPy arrays: simple for a learner, and as slow as two copies per launch.
struct Staging {
    std::vector<std::shared_ptr<void>> arrays;
    std::vector<std::function<void()>> copy_back;
};

template <class>
inline constexpr bool always_false = false;

template <class P, class A>
P convert_arg(Staging& st, A&& a, Loc site) {
    using Arg = std::remove_cvref_t<A>;
    if constexpr (is_host_vector<Arg>::value && view_of_host<P>::value) {
        using T = typename view_of_host<P>::element;
        static_assert(std::is_same_v<typename Arg::value_type, T>,
                      "a host std::vector passed to a kernel must hold the parameter's element type");
        auto dev = std::make_shared<DeviceArray<T>>(to_device(a, site));
        name_allocation(dev->data().allocation(), "host vector passed to simt::launch");
        st.arrays.push_back(dev);
        if constexpr (!std::is_const_v<std::remove_reference_t<A>>)
            st.copy_back.push_back([dev, &a] { dev->copy_to_host(std::span<T>(a)); });
        return P(*dev);
    } else if constexpr (std::is_convertible_v<A&&, P>) {
        return P(std::forward<A>(a));
    } else {
        static_assert(always_false<A>,
                      "simt::launch: an argument cannot be converted to the kernel's parameter "
                      "type (pass a DeviceArray, a view, a std::vector or a value)");
    }
}

}  // namespace simt::sim::detail

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
        sim::detail::Staging st;
        auto closure = std::make_shared<sim::detail::Closure<P...>>(sim::detail::Closure<P...>{
            kernel_, {sim::detail::convert_arg<std::decay_t<P>>(st, std::forward<A>(args), site_)...}});
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
