// simt::DeviceArray<T> on the CUDA runtime: cudaMalloc, cudaMemcpy, cudaFree.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the CUDA backend's headers"
#endif
#include <cstddef>
#include <span>
#include <type_traits>
#include <vector>

#include "simt/common/shape.hpp"
#include "simt/common/type_name.hpp"
#include "simt/cuda/memory.hpp"
#include "simt/cuda/runtime.hpp"

namespace simt {

/// Device memory the host owns, like a Numba device array. Move-only; freed when destroyed.
/// Converts to ptr (T*), span and mdspan for kernels; the host cannot dereference it.
/// Copies wait for queued kernels first (cudaMemcpy on the default stream).
template <class T>
class DeviceArray {
    static_assert(std::is_trivially_copyable_v<T>, "device arrays hold trivially copyable types");

public:
    DeviceArray() = default;
    explicit DeviceArray(Shape s) : shape_(s) {
        cuda::detail::require_device();
        if (s.size() > 0)
            cuda::detail::check(cudaMalloc(reinterpret_cast<void**>(&p_), s.size() * sizeof(T)),
                                "cudaMalloc of a device array");
    }
    DeviceArray(DeviceArray&& o) noexcept : p_(o.p_), shape_(o.shape_) { o.p_ = nullptr; }
    DeviceArray& operator=(DeviceArray&& o) noexcept {
        if (this != &o) {
            reset();
            p_ = o.p_;
            shape_ = o.shape_;
            o.p_ = nullptr;
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
        if (size() > 0)
            cuda::detail::check(
                cudaMemcpy(dst.data(), p_, size() * sizeof(T), cudaMemcpyDeviceToHost),
                "copy_to_host (cudaMemcpy device to host)");
    }
    void copy_from_host(std::span<const T> src) {
        if (src.size() != size()) detail::shape_mismatch("copy_from_host", size(), src.size());
        if (size() > 0)
            cuda::detail::check(
                cudaMemcpy(p_, src.data(), size() * sizeof(T), cudaMemcpyHostToDevice),
                "copy_from_host (cudaMemcpy host to device)");
    }

    T* data() const { return p_; }
    operator T*() const { return p_; }
    operator const T*() const { return p_; }
    operator span<T>() const { return span<T>(p_, size()); }
    operator span<const T>() const { return span<const T>(p_, size()); }
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
        return mdspan<U, N>(p_, e);
    }
    void reset() {
        // A failed kernel makes cudaFree fail too; that error was or will be thrown elsewhere,
        // and a destructor must not throw.
        if (p_) (void)cudaFree(p_);
        p_ = nullptr;
    }

    T* p_ = nullptr;
    Shape shape_{0};
};

/// An uninitialised device array, like cuda.device_array.
template <class T>
DeviceArray<T> device_array(Shape s) {
    return DeviceArray<T>(s);
}
/// A device array holding a copy of host data (shape defaults to 1-D).
template <class T>
DeviceArray<T> to_device(const std::vector<T>& host) {
    DeviceArray<T> a{Shape(host.size())};
    a.copy_from_host(host);
    return a;
}
template <class T>
DeviceArray<T> to_device(const std::vector<T>& host, Shape s) {
    if (s.size() != host.size()) detail::shape_mismatch("to_device", s.size(), host.size());
    DeviceArray<T> a(s);
    a.copy_from_host(host);
    return a;
}
/// An uninitialised device array with the same shape and type as `a`.
template <class T>
DeviceArray<T> device_array_like(const DeviceArray<T>& a) {
    return DeviceArray<T>(a.shape());
}

}  // namespace simt
