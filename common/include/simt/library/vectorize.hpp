// simt::vectorize(f): a scalar function applied element by element on the device, like Numba's
// @vectorize(target='cuda'). Written with <simt/api.hpp> only: the same code in both backends.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "simt/api.hpp"
#include "simt/library/grid.hpp"

namespace simt::detail {

/// What one argument of a ufunc becomes in its kernel: arrays a read-only span, scalars a value.
template <class A>
struct ufunc_arg {
    using type = A;  // a scalar, broadcast to every element
    using element = A;
};
template <class T>
struct ufunc_arg<DeviceArray<T>> {
    using type = simt::span<const T>;
    using element = T;
};
template <class T, class Alloc>
struct ufunc_arg<std::vector<T, Alloc>> {
    using type = simt::span<const T>;
    using element = T;
};

template <class V>
SIMT_DEVICE_FN auto ufunc_element(const V& v, std::size_t i) {
    if constexpr (std::is_arithmetic_v<V>) {
        (void)i;
        return v;
    } else {
        return v[i];
    }
}

template <class F, class R, class... V>
__global__ void ufunc_kernel(F f, simt::span<R> out, V... in) {
    for (std::size_t i = simt::grid<1>(); i < out.size(); i += simt::gridsize<1>())
        out[i] = f(ufunc_element(in, i)...);
}

/// The number of elements of an argument, or 0 for a scalar.
template <class A>
std::size_t ufunc_size(const A& a) {
    if constexpr (is_device_array<A>::value || is_host_vector<A>::value)
        return a.size();
    else
        return 0;
}

}  // namespace simt::detail

namespace simt {

/// Names the output array of a ufunc call: `hypot(a, b, simt::out(result))`.
template <class T>
struct Out {
    DeviceArray<T>& array;
};
template <class T>
Out<T> out(DeviceArray<T>& a) {
    return {a};
}

/// A ufunc: call it with DeviceArrays, host vectors or scalars (broadcast), all arrays of one
/// size. With any DeviceArray argument it returns a DeviceArray; with host vectors only, a host
/// vector (copied in and out, as Numba does with NumPy arrays); with simt::out(a), it writes a.
template <class F>
class Ufunc {
public:
    explicit Ufunc(F f) : f_(f) {}

    template <class... A>
    auto operator()(const A&... args) const {
        using R = std::invoke_result_t<F, typename detail::ufunc_arg<A>::element...>;
        std::size_t n = size_of(args...);
        DeviceArray<R> result{Shape(n)};
        run(result, args...);
        if constexpr ((detail::is_device_array<A>::value || ...))
            return result;
        else
            return result.copy_to_host();
    }

    /// `f(a, b, simt::out(c))`: writes into c, which must have the arguments' size.
    template <class A1, class R>
    void operator()(const A1& a1, Out<R> o) const { into(o, a1); }
    template <class A1, class A2, class R>
    void operator()(const A1& a1, const A2& a2, Out<R> o) const { into(o, a1, a2); }
    template <class A1, class A2, class A3, class R>
    void operator()(const A1& a1, const A2& a2, const A3& a3, Out<R> o) const {
        into(o, a1, a2, a3);
    }

private:
    template <class R, class... A>
    void into(Out<R> o, const A&... args) const {
        std::size_t n = size_of(args...);
        if (o.array.size() != n)
            throw Error("simt::vectorize: the output array has " + std::to_string(o.array.size()) +
                        " elements but the arguments have " + std::to_string(n));
        run(o.array, args...);
    }

    template <class... A>
    static std::size_t size_of(const A&... args) {
        std::size_t n = 0;
        bool any = false;
        auto check = [&](std::size_t s, bool is_array) {
            if (!is_array) return;
            if (any && s != n)
                throw Error("simt::vectorize: array arguments differ in size (" +
                            std::to_string(n) + " and " + std::to_string(s) + ")");
            n = s;
            any = true;
        };
        (check(detail::ufunc_size(args),
               detail::is_device_array<A>::value || detail::is_host_vector<A>::value), ...);
        if (!any) throw Error("simt::vectorize: call a ufunc with at least one array");
        return n;
    }

    /// A device view of each argument; host vectors are copied into `keep`, which outlives the
    /// launch.
    template <class A>
    static auto view(const A& a, std::vector<std::shared_ptr<void>>& keep) {
        if constexpr (detail::is_host_vector<A>::value) {
            auto d = std::make_shared<DeviceArray<typename A::value_type>>(to_device(a));
            keep.push_back(d);
            return typename detail::ufunc_arg<A>::type(*d);
        } else {
            return typename detail::ufunc_arg<A>::type(a);
        }
    }

    template <class R, class... A>
    void run(DeviceArray<R>& result, const A&... args) const {
        std::vector<std::shared_ptr<void>> keep;
        const unsigned threads = 256;
        std::size_t blocks = (result.size() + threads - 1) / threads;
        unsigned grid = static_cast<unsigned>(blocks < 1024 ? (blocks ? blocks : 1) : 1024);
        launch(detail::ufunc_kernel<F, R, typename detail::ufunc_arg<A>::type...>, grid, threads)(
            f_, span<R>(result), view(args, keep)...);
        if (!keep.empty()) synchronize();  // copies of host vectors must outlive the kernel
    }

    F f_;
};

/// Makes a ufunc from a scalar `[] __host__ __device__ (...)` lambda or function object.
///   auto hypot = simt::vectorize([] __host__ __device__ (float a, float b) { return std::sqrt(a*a
///   + b*b); }); auto c = hypot(a, b);   // a, b: DeviceArray<float> -> c: DeviceArray<float>
template <class F>
Ufunc<F> vectorize(F f) {
    return Ufunc<F>(f);
}

}  // namespace simt
