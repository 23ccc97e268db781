// Device memory as kernels see it under nvcc: simt::ptr<T> is T*, and the accessor and storage
// policies of span, mdspan and shared inline to the address arithmetic a raw pointer would do.
//
// With SIMT_CUDA_BOUNDS_CHECK defined, every span, mdspan and shared index is checked: a bad
// one prints the view, index, extent, thread, block and file:line, then traps (the launch fails
// and the host sees a CudaError). simt::ptr stays a raw pointer and cannot be checked.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the CUDA backend's headers"
#endif
#include <concepts>
#include <cstddef>
#include <cstdio>
#include <type_traits>

#include "simt/core/keywords.hpp"
#include "simt/core/type_name.hpp"

namespace simt {

/// A pointer into device memory. Under nvcc it is exactly T*.
template <class T>
using ptr = T*;

}  // namespace simt

namespace simt::cuda::detail {

#if defined(SIMT_CUDA_BOUNDS_CHECK)
/// An index that remembers the line that used it: the default arguments are evaluated where the
/// user wrote `a[i]`, as in the simulator.
struct Index {
    std::ptrdiff_t value;
    const char* file;
    unsigned line;

    template <std::integral I>
    SIMT_DEVICE_FN Index(I i, const char* f = __builtin_FILE(), unsigned l = __builtin_LINE())
        : value(static_cast<std::ptrdiff_t>(i)), file(f), line(l) {}
};
SIMT_DEVICE_FN std::ptrdiff_t value_of(Index i) { return i.value; }

/// Prints what went wrong and where, then stops the kernel (the host gets a CudaError).
__device__ __noinline__ inline void out_of_bounds(const char* view, const char* type, int rank,
                                                  const std::ptrdiff_t* idx,
                                                  const std::size_t* ext, const char* file,
                                                  unsigned line) {
    long long i[3] = {0, 0, 0};
    unsigned long long e[3] = {0, 0, 0};
    for (int d = 0; d < rank; ++d) i[d] = idx[d], e[d] = ext[d];
    const char* fmt[3] = {
        "simt: out-of-bounds: index %lld%.0lld%.0lld of %s<%s> with extent %llu%.0llu%.0llu, "
        "in thread (%u,%u,%u) of block (%u,%u,%u) at %s:%u\n",
        "simt: out-of-bounds: index (%lld, %lld)%.0lld of %s<%s> with extents (%llu, %llu)%.0llu, "
        "in thread (%u,%u,%u) of block (%u,%u,%u) at %s:%u\n",
        "simt: out-of-bounds: index (%lld, %lld, %lld) of %s<%s> with extents (%llu, %llu, %llu), "
        "in thread (%u,%u,%u) of block (%u,%u,%u) at %s:%u\n"};
    printf(fmt[rank - 1], i[0], i[1], i[2], view, type, e[0], e[1], e[2], threadIdx.x,
           threadIdx.y, threadIdx.z, blockIdx.x, blockIdx.y, blockIdx.z, file, line);
    __trap();
}

template <class T, int N>
SIMT_DEVICE_FN void check_index(const char* view, const Index (&i)[N], const std::size_t* ext) {
    bool bad = false;
    for (int d = 0; d < N; ++d)
        bad |= i[d].value < 0 || static_cast<std::size_t>(i[d].value) >= ext[d];
    if (bad) [[unlikely]] {
        std::ptrdiff_t idx[N];
        for (int d = 0; d < N; ++d) idx[d] = i[d].value;
        out_of_bounds(view, simt::detail::type_name<T>(), N, idx, ext, i[0].file, i[0].line);
    }
}
#else
using Index = std::ptrdiff_t;
SIMT_DEVICE_FN std::ptrdiff_t value_of(Index i) { return i; }
template <class T, int N>
SIMT_DEVICE_FN void check_index(const char*, const Index (&)[N], const std::size_t*) {}
#endif

/// The element at index i of a row-major view with extents ext: the one place views index.
template <class T, int N>
SIMT_DEVICE_FN T& element_at(T* p, const Index (&i)[N], const std::size_t* ext, const char* view) {
    check_index<T, N>(view, i, ext);
    std::ptrdiff_t offset = value_of(i[0]);
    for (int d = 1; d < N; ++d)
        offset = offset * static_cast<std::ptrdiff_t>(ext[d]) + value_of(i[d]);
    return p[offset];
}

/// The accessor policy of span, mdspan and shared under nvcc: the data is a plain T*, an index
/// a plain integer (or one that knows its line, with SIMT_CUDA_BOUNDS_CHECK).
template <class T>
struct RawAccessor {
    using data_handle_type = T*;
    using index_type = Index;
#if defined(SIMT_CUDA_BOUNDS_CHECK)
    static constexpr bool raw_shared = false;
#else
    /// Unchecked shared arrays index the C array itself: `tile[i][j]` is what nvcc sees.
    static constexpr bool raw_shared = true;
#endif

    template <int N>
    SIMT_DEVICE_FN static T& access(T* p, const Index (&i)[N], const std::size_t (&ext)[N],
                                    const char* view) {
        return element_at<T, N>(p, i, ext, view);
    }
};

/// The storage policy of simt::shared: the array alone, with no constructor (CUDA allows none
/// for __shared__ variables).
template <class A>
struct SharedStorage {
    using T = std::remove_all_extents_t<A>;
    static constexpr bool tracks_site = false;

    SIMT_DEVICE_FN T* handle() { return reinterpret_cast<T*>(&data_); }
    SIMT_DEVICE_FN A& array() { return data_; }

    alignas(16) A data_;
};

}  // namespace simt::cuda::detail

