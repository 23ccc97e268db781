// Device memory as kernels see it under nvcc: simt::ptr<T> is T*; span, mdspan and shared are
// plain structs whose accessors inline to the address arithmetic a raw pointer would do.
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

#include "simt/common/type_name.hpp"

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

/// Extent d of an array type, usable in device code: int[4][8] gives 4 for d = 0, 8 for d = 1.
template <class A>
SIMT_DEVICE_FN constexpr std::size_t extent_of(int d) {
    return d == 0 ? std::extent_v<A, 0> : d == 1 ? std::extent_v<A, 1> : std::extent_v<A, 2>;
}

/// The element at index i of a row-major view with extents ext: the one place views index.
template <class T, int N>
SIMT_DEVICE_FN T& element_at(T* p, const Index (&i)[N], const std::size_t* ext, const char* view) {
    check_index<T, N>(view, i, ext);
    std::ptrdiff_t offset = value_of(i[0]);
    for (int d = 1; d < N; ++d) offset = offset * static_cast<std::ptrdiff_t>(ext[d]) + value_of(i[d]);
    return p[offset];
}

}  // namespace simt::cuda::detail

namespace simt {

/// A 1-D view of device memory: `s[i]`, `s.size()`. Under nvcc a pointer and a size.
template <class T>
class span {
public:
    using element_type = T;

    span() = default;
    SIMT_DEVICE_FN span(T* p, std::size_t n) noexcept : p_(p), n_(n) {}
    template <class U>
        requires(std::is_convertible_v<U*, T*> && !std::is_same_v<U, T>)
    SIMT_DEVICE_FN span(span<U> o) noexcept : p_(o.data()), n_(o.size()) {}

    SIMT_DEVICE_FN T& operator[](cuda::detail::Index i) const {
        return cuda::detail::element_at<T, 1>(p_, {i}, &n_, "span");
    }
    SIMT_DEVICE_FN std::size_t size() const noexcept { return n_; }
    SIMT_DEVICE_FN bool empty() const noexcept { return n_ == 0; }
    SIMT_DEVICE_FN T* data() const noexcept { return p_; }
    /// The `count` elements from `offset` (clamped to the end).
    SIMT_DEVICE_FN span subspan(std::size_t offset, std::size_t count = std::size_t(-1)) const noexcept {
        std::size_t o = offset < n_ ? offset : n_;
        std::size_t c = count < n_ - o ? count : n_ - o;
        return span(p_ + o, c);
    }

private:
    T* p_ = nullptr;
    std::size_t n_ = 0;
};

/// A row-major N-D view: `m(i, j)`, `m.extent(0)`. Under nvcc a pointer and N extents.
template <class T, int N>
class mdspan {
    static_assert(N >= 1 && N <= 3, "simt::mdspan has 1, 2 or 3 dimensions");

public:
    using element_type = T;

    mdspan() = default;
    SIMT_DEVICE_FN mdspan(T* p, const std::size_t (&ext)[N]) noexcept : p_(p) {
        for (int d = 0; d < N; ++d) ext_[d] = ext[d];
    }
    template <class U>
        requires(std::is_convertible_v<U*, T*> && !std::is_same_v<U, T>)
    SIMT_DEVICE_FN mdspan(mdspan<U, N> o) noexcept : p_(o.data()) {
        for (int d = 0; d < N; ++d) ext_[d] = o.extent(d);
    }

    SIMT_DEVICE_FN T& operator()(cuda::detail::Index i) const requires(N == 1) { return at({i}); }
    SIMT_DEVICE_FN T& operator[](cuda::detail::Index i) const requires(N == 1) { return at({i}); }
    SIMT_DEVICE_FN T& operator()(cuda::detail::Index i, cuda::detail::Index j) const requires(N == 2) {
        return at({i, j});
    }
    SIMT_DEVICE_FN T& operator()(cuda::detail::Index i, cuda::detail::Index j,
                                 cuda::detail::Index k) const requires(N == 3) {
        return at({i, j, k});
    }

    SIMT_DEVICE_FN std::size_t extent(int d) const noexcept { return ext_[d]; }
    SIMT_DEVICE_FN std::size_t size() const noexcept {
        std::size_t s = 1;
        for (int d = 0; d < N; ++d) s *= ext_[d];
        return s;
    }
    static constexpr int rank() noexcept { return N; }
    SIMT_DEVICE_FN T* data() const noexcept { return p_; }

private:
    SIMT_DEVICE_FN T& at(const cuda::detail::Index (&i)[N]) const {
        return cuda::detail::element_at<T, N>(p_, i, ext_, "mdspan");
    }

    T* p_ = nullptr;
    std::size_t ext_[N] = {};
};

namespace cuda::detail {
/// `name[i][j]` of a checked shared array before its last index: remembers the indices so far.
template <class A, int K>
struct shared_path {
    using T = std::remove_all_extents_t<A>;
    static constexpr int R = std::rank_v<A>;

    T* base;
    Index idx[K];

    SIMT_DEVICE_FN decltype(auto) operator[](Index i) const {
        std::size_t ext[R];
        for (int d = 0; d < R; ++d) ext[d] = extent_of<A>(d);
        if constexpr (R == 2) {
            const Index all[2] = {idx[0], i};
            return element_at<T, 2>(base, all, ext, "shared");
        } else if constexpr (K == 2) {
            const Index all[3] = {idx[0], idx[K - 1], i};
            return element_at<T, 3>(base, all, ext, "shared");
        } else {
            return shared_path<A, 2>{base, {idx[0], i}};
        }
    }
};
}  // namespace cuda::detail

/// A shared-memory array: `__shared__ simt::shared<float[32][33]> tile;` then `tile[i][j]`.
/// Under nvcc a struct around the array itself, with no constructor (CUDA allows none).
template <class A>
class shared {
    static_assert(std::is_array_v<A> && std::extent_v<A> > 0,
                  "write simt::shared<T[N]>, shared<T[N][M]> or shared<T[N][M][K]>");
    static_assert(std::rank_v<A> <= 3, "simt::shared has at most 3 dimensions");

public:
    using value_type = std::remove_all_extents_t<A>;
    static constexpr int rank = std::rank_v<A>;

    shared() = default;
    shared(const shared&) = delete;
    shared& operator=(const shared&) = delete;

    SIMT_DEVICE_FN decltype(auto) operator[](cuda::detail::Index i) {
#if defined(SIMT_CUDA_BOUNDS_CHECK)
        if constexpr (rank == 1) {
            const std::size_t ext[1] = {std::extent_v<A>};
            return cuda::detail::element_at<value_type, 1>(first(), {i}, ext, "shared");
        } else {
            return cuda::detail::shared_path<A, 1>{first(), {i}};
        }
#else
        return data_[i];
#endif
    }
    /// A flat view of all the elements.
    SIMT_DEVICE_FN span<value_type> as_span() { return {first(), sizeof(A) / sizeof(value_type)}; }
    /// An N-D view with the array's own extents.
    SIMT_DEVICE_FN mdspan<value_type, rank> as_mdspan() {
        std::size_t ext[rank];
        for (int d = 0; d < rank; ++d) ext[d] = cuda::detail::extent_of<A>(d);
        return mdspan<value_type, rank>(first(), ext);
    }
    /// The address of element 0, for atomics: `atomicAdd(&bins[i], 1)` also works.
    SIMT_DEVICE_FN value_type* data() { return first(); }

private:
    SIMT_DEVICE_FN value_type* first() { return reinterpret_cast<value_type*>(&data_); }

    alignas(16) A data_;
};

namespace cuda::detail {
/// The block's dynamic shared memory: one extern array for every kernel of the program.
__device__ inline unsigned char* dynamic_shared_base() {
    extern __shared__ __align__(16) unsigned char simt_dynamic_shared[];
    return simt_dynamic_shared;
}
/// Its size in bytes, as launched (LaunchOptions::shared_bytes).
__device__ inline unsigned dynamic_shared_bytes() {
    unsigned n;
    asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(n));
    return n;
}
}  // namespace cuda::detail

/// The dynamic shared memory of the running block (LaunchOptions::shared_bytes), as T.
template <class T>
__device__ span<T> dynamic_shared() {
    return span<T>(reinterpret_cast<T*>(cuda::detail::dynamic_shared_base()),
                   cuda::detail::dynamic_shared_bytes() / sizeof(T));
}

}  // namespace simt
