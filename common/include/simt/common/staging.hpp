// Host std::vectors passed to simt::launch: copied to the device and back around the launch.
// Included by each backend's launch header once DeviceArray, ptr, span and mdspan exist, and
// after the backend has declared detail::note_staged(const DeviceArray<T>&).
#pragma once
#include <functional>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace simt::detail {

/// Which kernel parameter types a host std::vector may stand in for, and their element type.
template <class T>
struct view_of_host {
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

template <class T>
struct is_device_array : std::false_type {};
template <class T>
struct is_device_array<DeviceArray<T>> : std::true_type {};

/// Device copies of host vectors passed to a launch, and the copies back after it, as Numba
/// does for NumPy arrays: simple for a learner, and as slow as two copies per launch.
struct Staging {
    std::vector<std::shared_ptr<void>> arrays;
    std::vector<std::function<void()>> copy_back;
};

template <class>
inline constexpr bool always_false = false;

/// One launch argument as the kernel parameter type P. `site...` is where the launch was
/// written, for backends that name the staged copy after it (the simulator does).
template <class P, class A, class... Site>
P convert_arg(Staging& st, A&& a, const Site&... site) {
    using Arg = std::remove_cvref_t<A>;
    if constexpr (is_host_vector<Arg>::value && view_of_host<P>::value) {
        using T = typename view_of_host<P>::element;
        static_assert(std::is_same_v<typename Arg::value_type, T>,
                      "a host std::vector passed to a kernel must hold the parameter's element type");
        auto dev = std::make_shared<DeviceArray<T>>(to_device(a, site...));
        note_staged(*dev);
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

}  // namespace simt::detail
