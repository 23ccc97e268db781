// Host std::vectors passed to simt::launch: copied to the device before the launch, and back
// after it only where the kernel's parameter lets the kernel write.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not simt's private headers"
#endif
#include <cstddef>
#include <functional>
#include <memory>
#include <source_location>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "simt/core/errors.hpp"
#include "simt/host/device_array.hpp"

namespace simt::detail {

/// Which kernel parameter types a host std::vector may stand in for, their element type, and
/// whether the kernel may write through them (ptr<const T>, span<const T>: it may not).
template <class T>
struct view_of_host {
    static constexpr bool value = false;
};
template <class U>
struct view_of_host<ptr<U>> {
    static constexpr bool value = true;
    static constexpr bool writable = !std::is_const_v<U>;
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

template <class T>
struct is_device_array : std::false_type {};
template <class T>
struct is_device_array<DeviceArray<T>> : std::true_type {};

/// Device copies of host vectors passed to a launch, and the copies back after it, as Numba
/// does for NumPy arrays: simple for a learner, and as slow as the copies are.
struct Staging {
    std::vector<std::shared_ptr<void>> arrays;
    std::vector<std::function<void()>> copy_back;
};

template <class>
inline constexpr bool always_false = false;

/// Launch argument number `n` as the kernel parameter type P; `site` is the launch's, which the
/// staged copy is allocated at. A vector is copied back only when P is writable: what a kernel
/// cannot write need not cross back (a const vector cannot take the copy, so it never does).
template <class P, class A>
P convert_arg(Staging& st, A&& a, std::size_t n, std::source_location site) {
    using Arg = std::remove_cvref_t<A>;
    if constexpr (is_host_vector<Arg>::value && view_of_host<P>::value) {
        using T = typename view_of_host<P>::element;
        static_assert(
            std::is_same_v<typename Arg::value_type, T>,
            "a host std::vector passed to a kernel must hold the parameter's element type");
        auto dev = std::make_shared<DeviceArray<T>>(to_device(a, site));
        backend::memory::name_staged(dev->data());
        st.arrays.push_back(dev);
        if constexpr (view_of_host<P>::writable && !std::is_const_v<std::remove_reference_t<A>>)
            st.copy_back.push_back([dev, &a] { dev->copy_to_host(std::span<T>(a)); });
        return P(*dev);
    } else if constexpr (std::is_convertible_v<A&&, P>) {
        if constexpr (is_device_array<Arg>::value)
            if (!a.owns_memory())
                throw Error("simt::launch: argument " + std::to_string(n + 1) +
                            " is an empty DeviceArray (moved-from or default-constructed): it owns "
                            "no device memory");
        return P(std::forward<A>(a));
    } else {
        static_assert(always_false<A>,
                      "simt::launch: an argument cannot be converted to the kernel's parameter "
                      "type (pass a DeviceArray, a view, a std::vector or a value)");
    }
}

}  // namespace simt::detail
