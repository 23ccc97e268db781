// simt::DeviceArray<T>: device memory owned by the host, with a shape of 1 to 3 dimensions.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include <cstddef>
#include <initializer_list>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "simt/common/errors.hpp"
#include "simt/common/shape.hpp"
#include "simt/common/type_name.hpp"
#include "simt/sim/memory/mdspan.hpp"
#include "simt/sim/memory/span.hpp"

namespace simt::sim::detail {
/// Allocates device memory (256-byte aligned, like cudaMalloc), poisoned and uninitialised.
Allocation* allocate(std::size_t bytes, std::size_t elem_size, const char* elem_type, Loc site);
/// Frees it; the record stays so that later accesses are reported as use after free.
void release(Allocation* a);
/// Host-to-device and device-to-host copies; both wait for queued kernels first, like cudaMemcpy.
void copy_in(Allocation* a, const void* src, std::size_t bytes);
void copy_out(const Allocation* a, void* dst, std::size_t bytes);
}  // namespace simt::sim::detail

namespace simt {

/// Device memory the host owns, like a Numba device array. Move-only; freed when destroyed.
/// Converts to ptr, span and mdspan for kernels; the host cannot dereference it.
/// In the simulator: starts poisoned and uninitialised; every kernel access is checked.
///   auto a = simt::to_device(std::vector<int>{1, 2, 3});
///   a.copy_to_host()                       // {1, 2, 3}
template <class T>
class DeviceArray {
    static_assert(std::is_trivially_copyable_v<T>, "device arrays hold trivially copyable types");

public:
    DeviceArray() = default;
    explicit DeviceArray(Shape s, sim::Loc site = sim::Loc::current())
        : a_(sim::detail::allocate(s.size() * sizeof(T), sizeof(T), simt::detail::type_name<T>(),
                                   site)),
          shape_(s) {}
    DeviceArray(DeviceArray&& o) noexcept : a_(o.a_), shape_(o.shape_) { o.a_ = nullptr; }
    DeviceArray& operator=(DeviceArray&& o) noexcept {
        if (this != &o) {
            reset();
            a_ = o.a_;
            shape_ = o.shape_;
            o.a_ = nullptr;
        }
        return *this;
    }
    ~DeviceArray() { reset(); }

    std::size_t size() const { return shape_.size(); }
    int rank() const { return shape_.rank; }
    std::size_t extent(int d) const { return shape_.ext[d]; }
    const Shape& shape() const { return shape_; }

    /// Waits for queued kernels, then copies the whole array to a new vector.
    std::vector<T> copy_to_host() const {
        std::vector<T> v(size());
        copy_to_host(std::span<T>(v));
        return v;
    }
    void copy_to_host(std::span<T> dst) const {
        if (dst.size() != size()) detail::shape_mismatch("copy_to_host", size(), dst.size());
        sim::detail::copy_out(a_, dst.data(), size() * sizeof(T));
    }
    void copy_from_host(std::span<const T> src) {
        if (src.size() != size()) detail::shape_mismatch("copy_from_host", size(), src.size());
        sim::detail::copy_in(a_, src.data(), size() * sizeof(T));
    }

    ptr<T> data() const { return ptr<T>(reinterpret_cast<T*>(a_->base), a_); }
    operator ptr<T>() const { return data(); }
    operator ptr<const T>() const { return data(); }
    operator span<T>() const { return span<T>(data(), size()); }
    operator span<const T>() const { return span<const T>(data(), size()); }
    template <int N>
    operator mdspan<T, N>() const { return view<T, N>(); }
    template <int N>
    operator mdspan<const T, N>() const { return view<const T, N>(); }

private:
    template <class U, int N>
    mdspan<U, N> view() const {
        if (N != shape_.rank) detail::rank_mismatch(simt::detail::type_name<T>(), N, shape_);
        std::size_t e[N];
        for (int d = 0; d < N; ++d) e[d] = shape_.ext[d];
        return mdspan<U, N>(ptr<U>(data()), e);
    }
    void reset() {
        if (a_) sim::detail::release(a_);
        a_ = nullptr;
    }

    sim::detail::Allocation* a_ = nullptr;
    Shape shape_{0};
};

/// An uninitialised device array, like cuda.device_array.
template <class T>
DeviceArray<T> device_array(Shape s, sim::Loc site = sim::Loc::current()) {
    return DeviceArray<T>(s, site);
}
/// A device array holding a copy of host data (shape defaults to 1-D).
template <class T>
DeviceArray<T> to_device(const std::vector<T>& host, sim::Loc site = sim::Loc::current()) {
    DeviceArray<T> a(Shape(host.size()), site);
    a.copy_from_host(host);
    return a;
}
template <class T>
DeviceArray<T> to_device(const std::vector<T>& host, Shape s, sim::Loc site = sim::Loc::current()) {
    if (s.size() != host.size()) detail::shape_mismatch("to_device", s.size(), host.size());
    DeviceArray<T> a(s, site);
    a.copy_from_host(host);
    return a;
}
/// An uninitialised device array with the same shape and type as `a`.
template <class T>
DeviceArray<T> device_array_like(const DeviceArray<T>& a, sim::Loc site = sim::Loc::current()) {
    return DeviceArray<T>(a.shape(), site);
}

}  // namespace simt
