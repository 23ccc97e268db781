// simt::reduce(f, array[, init]): a tree reduction on the device, like Numba's @cuda.reduce.
// Written with <simt/api.hpp> only, so it is the same code in both backends.
#pragma once
#include <cstddef>
#include <type_traits>
#include <vector>

#include "simt/api.hpp"

namespace simt::detail {

inline constexpr unsigned reduce_threads = 256;

/// Each block folds up to 2 * reduce_threads consecutive elements of `in` into one element of
/// `out`. `f` needs no identity: only elements that exist are combined, so a partial last block
/// is fine, and `f` may be any associative operation (sum, max, min, product...).
template <class T, class F>
__global__ void reduce_blocks(simt::span<const T> in, simt::span<T> out, F f) {
    __shared__ simt::shared<T[reduce_threads]> s;
    unsigned t = threadIdx.x;
    std::size_t first = std::size_t(blockIdx.x) * 2 * reduce_threads;
    std::size_t left = in.size() - first;  // elements this block covers
    unsigned count = left < reduce_threads ? static_cast<unsigned>(left) : reduce_threads;
    if (t < count) {
        T v = in[first + t];
        if (first + reduce_threads + t < in.size()) v = f(v, in[first + reduce_threads + t]);
        s[t] = v;
    }
    __syncthreads();
    // Valid values always form the prefix s[0..count): fold its upper half onto its lower half.
    for (unsigned stride = reduce_threads / 2; stride > 0; stride /= 2) {
        if (t < stride && t + stride < count) s[t] = f(s[t], s[t + stride]);
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

/// One pass: a partial result per block of 2 * reduce_threads elements.
template <class T, class F>
DeviceArray<T> reduce_pass(F f, const DeviceArray<T>& in) {
    const std::size_t per_block = 2 * reduce_threads;
    DeviceArray<T> partial(Shape((in.size() + per_block - 1) / per_block));
    launch(reduce_blocks<T, F>, static_cast<unsigned>(partial.size()), reduce_threads)(in, partial,
                                                                                       f);
    return partial;
}

}  // namespace simt::detail

namespace simt {

/// Reduces a device array with `f`, an associative `[] __host__ __device__ (T, T) -> T`, in
/// passes of a block-level tree until one value is left, and returns it (waiting for the device).
/// With `init`, the result is f(init, reduction). An empty array gives `init`, or T{} without it.
///   auto sum = simt::reduce([] __host__ __device__ (float a, float b) { return a + b; }, d);
template <class F, class T>
T reduce(F f, const DeviceArray<T>& a, T init) {
    return f(init, reduce(f, a));
}

template <class F, class T>
T reduce(F f, const DeviceArray<T>& a) {
    static_assert(std::is_invocable_r_v<T, F, T, T>, "simt::reduce needs f(T, T) -> T");
    if (a.size() == 0) return T{};
    DeviceArray<T> partial = detail::reduce_pass(f, a);
    while (partial.size() > 1) partial = detail::reduce_pass(f, partial);
    return partial.copy_to_host()[0];
}

/// The same for a host vector: copied to the device first, as Numba does with a NumPy array.
template <class F, class T>
T reduce(F f, const std::vector<T>& host) {
    return reduce(f, to_device(host));
}
template <class F, class T>
T reduce(F f, const std::vector<T>& host, T init) {
    return reduce(f, to_device(host), init);
}

}  // namespace simt
