// The kernels behind simt's cuBLAS: plain CUDA kernels over raw device pointers, compiled in the
// program's own translation unit, so that every element they read or write goes through the
// same checks as the program's own kernels (bounds, initialisation, races with other streams).
// Each is a function of its own (not inlined), so that a report names the line of the access in
// it. They are written for clarity, not speed: one thread per output element, grid-stride loops,
// and reductions that sum per-thread partial results in a fixed order, so that a result does not
// depend on the schedule.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp> and <cublas_v2.h>, not the simulator's headers"
#endif
#include <algorithm>
#include <cmath>
#include <memory>
#include <source_location>
#include <utility>
#include <vector>

namespace simt::sim::detail::blas {

/// alpha or beta: the value itself (pointer mode host: read when the call is made, as cuBLAS does)
/// or a device pointer read by the kernel (pointer mode device).
template <class T>
struct Scalar {
    T value;
    const T* device;
    T get() const { return device ? *device : value; }
};

template <class T>
Scalar<T> scalar(cublasHandle_t handle, const T* p) {
    if (handle->pointer_mode == CUBLAS_POINTER_MODE_DEVICE) return {T{}, p};
    return {*p, nullptr};
}

/// Where element i of an n-element vector with stride inc is: BLAS walks a negative stride from
/// the far end.
inline long long at(int i, int inc, int n) {
    return inc >= 0 ? static_cast<long long>(i) * inc : static_cast<long long>(n - 1 - i) * -inc;
}

inline int thread_id() { return blockIdx.x * blockDim.x + threadIdx.x; }
inline int thread_total() { return gridDim.x * blockDim.x; }

inline constexpr int block_threads = 256;
/// Blocks for n elements, one per thread up to a grid of 64 blocks, then grid-stride loops.
inline unsigned blocks_for(long long n) {
    return static_cast<unsigned>(
        std::clamp<long long>((n + block_threads - 1) / block_threads, 1, 64));
}

/// Queues `body` (one CUDA thread's work) as a kernel on the handle's stream; the launch is the
/// cuBLAS call, which reports of the kernel's accesses name with its line. A context already
/// failed by an earlier kernel runs nothing.
template <class F>
cublasStatus_t launch(cublasHandle_t handle, dim3 grid, dim3 block, LibraryCall call, F&& body) {
    if (cuda_sticky_error() != cudaSuccess) return CUBLAS_STATUS_EXECUTION_FAILED;
    simt::detail::cuda_launch(grid, block, 0, handle->stream,
                              library_call_site(call.site, call.function))(std::forward<F>(body));
    return CUBLAS_STATUS_SUCCESS;
}

template <class T>
[[gnu::noinline]] void axpy_kernel(int n, Scalar<T> alpha, const T* x, int incx, T* y, int incy) {
    T a = alpha.get();
    if (a == T(0)) return;
    for (int i = thread_id(); i < n; i += thread_total())
        y[at(i, incy, n)] += a * x[at(i, incx, n)];
}

template <class T>
[[gnu::noinline]] void scal_kernel(int n, Scalar<T> alpha, T* x, int incx) {
    T a = alpha.get();
    for (int i = thread_id(); i < n; i += thread_total()) x[static_cast<long long>(i) * incx] *= a;
}

/// Each thread's share of x . y, into partial[thread].
template <class T>
[[gnu::noinline]] void dot_kernel(int n, const T* x, int incx, const T* y, int incy, T* partial) {
    T sum = 0;
    for (int i = thread_id(); i < n; i += thread_total())
        sum += x[at(i, incx, n)] * y[at(i, incy, n)];
    partial[thread_id()] = sum;
}

/// One thread adds the partial sums in order and stores the result (host or device memory).
template <class T>
[[gnu::noinline]] void sum_kernel(const T* partial, int count, T* result) {
    T sum = 0;
    for (int i = 0; i < count; ++i) sum += partial[i];
    *result = sum;
}

/// Each thread's share of ||x|| as (scale, sum of squares / scale^2), LAPACK's way, so that
/// neither overflows nor underflows where the norm itself does not.
template <class T>
[[gnu::noinline]] void nrm2_kernel(int n, const T* x, int incx, T* partial) {
    T scale = 0, ssq = 1;
    for (int i = thread_id(); i < n; i += thread_total()) {
        T v = std::fabs(x[static_cast<long long>(i) * incx]);
        if (v == T(0)) continue;
        if (scale < v) {
            ssq = 1 + ssq * (scale / v) * (scale / v);
            scale = v;
        } else {
            ssq += (v / scale) * (v / scale);
        }
    }
    partial[2 * thread_id()] = scale;
    partial[2 * thread_id() + 1] = ssq;
}

template <class T>
[[gnu::noinline]] void nrm2_combine_kernel(const T* partial, int count, T* result) {
    T scale = 0, ssq = 1;
    for (int i = 0; i < count; ++i) {
        T s = partial[2 * i], q = partial[2 * i + 1];
        if (s == T(0)) continue;
        if (scale < s) {
            ssq = q + ssq * (scale / s) * (scale / s);
            scale = s;
        } else {
            ssq += q * (s / scale) * (s / scale);
        }
    }
    *result = scale * std::sqrt(ssq);
}

/// y = alpha op(A) x + beta y, one thread per element of y; y is not read when beta is 0.
template <class T>
[[gnu::noinline]] void gemv_kernel(bool transposed, int m, int n, Scalar<T> alpha, const T* A,
                                   int lda, const T* x, int incx, Scalar<T> beta, T* y, int incy) {
    int rows = transposed ? n : m, inner = transposed ? m : n;
    T a = alpha.get(), b = beta.get();
    for (int r = thread_id(); r < rows; r += thread_total()) {
        T sum = 0;
        if (a != T(0))
            for (int k = 0; k < inner; ++k) {
                long long element = transposed ? k + static_cast<long long>(r) * lda
                                               : r + static_cast<long long>(k) * lda;
                sum += A[element] * x[at(k, incx, inner)];
            }
        T& out = y[at(r, incy, rows)];
        out = b == T(0) ? a * sum : a * sum + b * out;
    }
}

/// C = alpha op(A) op(B) + beta C (m x n, inner dimension k), one thread per element of C;
/// C is not read when beta is 0, A and B not when alpha is 0.
template <class T>
[[gnu::noinline]] void gemm_kernel(bool ta, bool tb, int m, int n, int k, Scalar<T> alpha,
                                   const T* A, int lda, const T* B, int ldb, Scalar<T> beta, T* C,
                                   int ldc) {
    T a = alpha.get(), b = beta.get();
    for (int j = blockIdx.y * blockDim.y + threadIdx.y; j < n; j += gridDim.y * blockDim.y)
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < m; i += gridDim.x * blockDim.x) {
            T sum = 0;
            if (a != T(0))
                for (int l = 0; l < k; ++l) {
                    T av = ta ? A[l + static_cast<long long>(i) * lda]
                              : A[i + static_cast<long long>(l) * lda];
                    T bv = tb ? B[j + static_cast<long long>(l) * ldb]
                              : B[l + static_cast<long long>(j) * ldb];
                    sum += av * bv;
                }
            T& out = C[i + static_cast<long long>(j) * ldc];
            out = b == T(0) ? a * sum : a * sum + b * out;
        }
}

}  // namespace simt::sim::detail::blas
