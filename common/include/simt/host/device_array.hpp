// simt::DeviceArray<T>: device memory the host owns, written once over the backend's memory policy.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not simt's private headers"
#endif
#include <cstddef>
#include <source_location>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "simt/core/errors.hpp"
#include "simt/core/shape.hpp"
#include "simt/core/type_name.hpp"
#include "simt/view/mdspan.hpp"
#include "simt/view/span.hpp"

namespace simt::detail {

/// The error every use of an array that owns nothing gives, naming the call.
[[noreturn]] inline void empty_array(const char* call) {
    throw Error(std::string("simt: ") + call +
                " on an empty DeviceArray (moved-from or default-constructed): it owns no device "
                "memory. Assign it an array first, e.g. a = simt::device_array<T>(n)");
}

}  // namespace simt::detail

namespace simt {

/// Device memory the host owns, like a Numba device array. Move-only; freed when destroyed.
/// Converts to ptr, span and mdspan for kernels; the host cannot dereference it. Copies wait
/// for queued kernels first, like cudaMemcpy. Using a moved-from or default-constructed array
/// throws simt::Error naming the call; an array of size 0 is an array and copies nothing.
/// In the simulator: starts poisoned and uninitialised; every kernel access is checked.
///   auto a = simt::to_device(std::vector<int>{1, 2, 3});
///   a.copy_to_host()                       // {1, 2, 3}
///
/// `M` is the backend's memory policy: a `handle` to an allocation, and allocate<T>(n, site),
/// release(h), copy_in(h, src, bytes), copy_out(h, dst, bytes), data<T>(h) (a simt::ptr<T>,
/// which each backend defines before this header: T* under nvcc, a fat pointer otherwise).
template <class T, class M>
class basic_device_array {
    static_assert(std::is_trivially_copyable_v<T>, "device arrays hold trivially copyable types");

public:
    basic_device_array() = default;
    explicit basic_device_array(Shape s,
                                std::source_location site = std::source_location::current())
        : h_(M::template allocate<T>(s.size(), site)), live_(true), shape_(s) {}
    basic_device_array(basic_device_array&& o) noexcept
        : h_(std::exchange(o.h_, {})), live_(std::exchange(o.live_, false)), shape_(o.shape_) {}
    basic_device_array& operator=(basic_device_array&& o) noexcept {
        if (this != &o) {
            reset();
            h_ = std::exchange(o.h_, {});
            live_ = std::exchange(o.live_, false);
            shape_ = o.shape_;
        }
        return *this;
    }
    ~basic_device_array() { reset(); }

    std::size_t size() const { return shape_.size(); }
    int rank() const { return shape_.rank; }
    std::size_t extent(int d) const { return shape_.ext[d]; }
    const Shape& shape() const { return shape_; }

    /// Waits for queued kernels, then copies the whole array to a new vector.
    std::vector<T> copy_to_host() const {
        if (!live_) detail::empty_array("copy_to_host()");
        std::vector<T> v(size());
        copy_to_host(std::span<T>(v));
        return v;
    }
    void copy_to_host(std::span<T> dst) const {
        if (!live_) detail::empty_array("copy_to_host(span)");
        if (dst.size() != size()) detail::shape_mismatch("copy_to_host", size(), dst.size());
        M::copy_out(h_, dst.data(), size() * sizeof(T));
    }
    void copy_from_host(std::span<const T> src) {
        if (!live_) detail::empty_array("copy_from_host(span)");
        if (src.size() != size()) detail::shape_mismatch("copy_from_host", size(), src.size());
        M::copy_in(h_, src.data(), size() * sizeof(T));
    }

    /// The device address as a simt::ptr (T* under nvcc).
    auto data() const {
        if (!live_) detail::empty_array("data()");
        return M::template data<T>(h_);
    }
    /// True unless moved-from or default-constructed.
    bool owns_memory() const noexcept { return live_; }

    operator ptr<T>() const { return checked("conversion to simt::ptr"); }
    operator ptr<const T>() const { return checked("conversion to simt::ptr"); }
    operator span<T>() const { return span<T>(checked("conversion to simt::span"), size()); }
    operator span<const T>() const {
        return span<const T>(checked("conversion to simt::span"), size());
    }
    template <int N>
    operator mdspan<T, N>() const { return view<T, N>(); }
    template <int N>
    operator mdspan<const T, N>() const { return view<const T, N>(); }

private:
    ptr<T> checked(const char* call) const {
        if (!live_) detail::empty_array(call);
        return M::template data<T>(h_);
    }
    template <class U, int N>
    mdspan<U, N> view() const {
        auto p = checked("conversion to simt::mdspan");
        if (N != shape_.rank) detail::rank_mismatch(detail::type_name<T>(), N, shape_);
        std::size_t e[N];
        for (int d = 0; d < N; ++d) e[d] = shape_.ext[d];
        return mdspan<U, N>(p, e);
    }
    void reset() {
        if (live_) M::release(h_);
        h_ = {};
        live_ = false;
    }

    typename M::handle h_{};
    bool live_ = false;
    Shape shape_{0};
};

template <class T>
using DeviceArray = basic_device_array<T, detail::backend::memory>;

/// An uninitialised device array, like cuda.device_array: `device_array<float>(n)`,
/// `device_array<float>(rows, cols)`, `device_array<float>({d0, d1, d2})`.
template <class T>
DeviceArray<T> device_array(Shape s, std::source_location site = std::source_location::current()) {
    return DeviceArray<T>(s, site);
}
template <class T>
DeviceArray<T> device_array(std::size_t n0, std::size_t n1,
                            std::source_location site = std::source_location::current()) {
    return DeviceArray<T>(Shape{n0, n1}, site);
}
template <class T>
DeviceArray<T> device_array(std::size_t n0, std::size_t n1, std::size_t n2,
                            std::source_location site = std::source_location::current()) {
    return DeviceArray<T>(Shape{n0, n1, n2}, site);
}
/// A device array holding a copy of host data (shape defaults to 1-D).
template <class T>
DeviceArray<T> to_device(const std::vector<T>& host,
                         std::source_location site = std::source_location::current()) {
    DeviceArray<T> a(Shape(host.size()), site);
    a.copy_from_host(host);
    return a;
}
template <class T>
DeviceArray<T> to_device(const std::vector<T>& host, Shape s,
                         std::source_location site = std::source_location::current()) {
    if (s.size() != host.size()) detail::shape_mismatch("to_device", s.size(), host.size());
    DeviceArray<T> a(s, site);
    a.copy_from_host(host);
    return a;
}
/// An uninitialised device array with the same shape and type as `a`.
template <class T>
DeviceArray<T> device_array_like(const DeviceArray<T>& a,
                                 std::source_location site = std::source_location::current()) {
    if (!a.owns_memory()) detail::empty_array("device_array_like()");
    return DeviceArray<T>(a.shape(), site);
}

}  // namespace simt
