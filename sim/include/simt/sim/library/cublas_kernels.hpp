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
/// C is not read when beta is 0, A and B not when alpha is 0. With `fill` lower or upper, only
/// that triangle of C is computed and the other is left alone (syrk is this product of A with
/// its own transpose).
template <class T>
[[gnu::noinline]] void gemm_kernel(bool ta, bool tb, int m, int n, int k, Scalar<T> alpha,
                                   const T* A, int lda, const T* B, int ldb, Scalar<T> beta, T* C,
                                   int ldc, cublasFillMode_t fill = CUBLAS_FILL_MODE_FULL) {
    T a = alpha.get(), b = beta.get();
    for (int j = blockIdx.y * blockDim.y + threadIdx.y; j < n; j += gridDim.y * blockDim.y)
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < m; i += gridDim.x * blockDim.x) {
            if ((fill == CUBLAS_FILL_MODE_LOWER && i < j) ||
                (fill == CUBLAS_FILL_MODE_UPPER && i > j))
                continue;
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

/// Matrix b of a batch: read from an array of device pointers (gemmBatched's; a checked read of
/// the program's array) ...
template <class P>
struct PointerArray {
    const P* array;
    P operator()(int b) const { return array[b]; }
};
/// ... or at a stride from the first (gemmStridedBatched's).
template <class P>
struct Strided {
    P first;
    long long stride;
    P operator()(int b) const { return first + b * stride; }
};

/// gemm_kernel on each matrix of a batch, blockIdx.z walking the batch.
template <class T, class BatchA, class BatchB, class BatchC>
[[gnu::noinline]] void gemm_batch_kernel(bool ta, bool tb, int m, int n, int k, Scalar<T> alpha,
                                         BatchA A, int lda, BatchB B, int ldb, Scalar<T> beta,
                                         BatchC C, int ldc, int batch) {
    for (int b = blockIdx.z; b < batch; b += gridDim.z)
        gemm_kernel(ta, tb, m, n, k, alpha, A(b), lda, B(b), ldb, beta, C(b), ldc);
}

/// LU factorisation with partial pivoting of each n x n matrix of a batch, in place, one thread
/// per matrix (LAPACK's getf2, unblocked): P A = L U with L's unit diagonal not stored. pivots
/// (n per matrix, or null for no pivoting) gets the 1-based row each row j was swapped with;
/// info[b] the 1-based index of the first zero pivot, or 0. A zero pivot leaves its column as it
/// is and the factorisation goes on, as LAPACK's does.
template <class T>
[[gnu::noinline]] void getrf_kernel(int n, T* const* matrices, int lda, int* pivots, int* info,
                                    int batch) {
    for (int b = thread_id(); b < batch; b += thread_total()) {
        T* A = matrices[b];
        auto at = [=](int i, int j) -> T& { return A[i + static_cast<long long>(j) * lda]; };
        int* pivot = pivots ? pivots + static_cast<long long>(b) * n : nullptr;
        int first_zero = 0;
        for (int j = 0; j < n; ++j) {
            int p = j;
            if (pivot) {
                // The first of the largest magnitudes, as LAPACK's i?amax picks it.
                T largest = std::fabs(at(j, j));
                for (int i = j + 1; i < n; ++i)
                    if (std::fabs(at(i, j)) > largest) {
                        largest = std::fabs(at(i, j));
                        p = i;
                    }
                pivot[j] = p + 1;
            }
            T d = at(p, j);
            if (d == T(0)) {
                if (first_zero == 0) first_zero = j + 1;
                continue;
            }
            if (p != j)
                for (int c = 0; c < n; ++c) std::swap(at(j, c), at(p, c));
            for (int i = j + 1; i < n; ++i) {
                T l = at(i, j) /= d;
                for (int c = j + 1; c < n; ++c) at(i, c) -= l * at(j, c);
            }
        }
        info[b] = first_zero;
    }
}

/// The inverse of each matrix from its LU factors (getrf_kernel's), out of place, one thread per
/// matrix: C = U^-1 L^-1 P, by applying the row swaps to the identity and solving with L, then
/// U, column by column. A zero on U's diagonal sets info[b] to its 1-based index and leaves C
/// alone.
template <class T>
[[gnu::noinline]] void getri_kernel(int n, const T* const* factors, int lda, const int* pivots,
                                    T* const* inverses, int ldc, int* info, int batch) {
    for (int b = thread_id(); b < batch; b += thread_total()) {
        const T* A = factors[b];
        T* C = inverses[b];
        auto lu = [=](int i, int j) { return A[i + static_cast<long long>(j) * lda]; };
        auto at = [=](int i, int j) -> T& { return C[i + static_cast<long long>(j) * ldc]; };
        int singular = 0;
        for (int i = 0; i < n && singular == 0; ++i)
            if (lu(i, i) == T(0)) singular = i + 1;
        info[b] = singular;
        if (singular != 0) continue;
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) at(i, j) = i == j ? T(1) : T(0);
        if (pivots)
            for (int j = 0; j < n; ++j) {
                int p = pivots[static_cast<long long>(b) * n + j] - 1;
                if (p != j)
                    for (int c = 0; c < n; ++c) std::swap(at(j, c), at(p, c));
            }
        for (int c = 0; c < n; ++c) {
            for (int i = 1; i < n; ++i) {
                T v = at(i, c);
                for (int k = 0; k < i; ++k) v -= lu(i, k) * at(k, c);
                at(i, c) = v;
            }
            for (int i = n - 1; i >= 0; --i) {
                T v = at(i, c);
                for (int k = i + 1; k < n; ++k) v -= lu(i, k) * at(k, c);
                at(i, c) = v / lu(i, i);
            }
        }
    }
}

/// Solves op(A) X = alpha B (left) or X op(A) = alpha B (right) for X in place of B, A
/// triangular; one thread per column of B (left) or row (right), each one substitution. Only
/// A's `lower` or upper triangle is read, and its diagonal only when not `unit`; A is not read
/// when alpha is 0 (B becomes 0).
template <class T>
[[gnu::noinline]] void trsm_kernel(bool left, bool lower, bool trans, bool unit, int m, int n,
                                   Scalar<T> alpha, const T* A, int lda, T* B, int ldb) {
    int order = left ? m : n, systems = left ? n : m;
    // Each system is M x = alpha b: M = op(A) for a column of B; for a row, x op(A) = alpha b
    // is op(A)^T x = alpha b. M is lower triangular, and solved first row first, when the
    // stored triangle is lower and M does not transpose it, or upper and M does.
    bool m_transposes = left ? trans : !trans;
    bool forward = lower != m_transposes;
    T a = alpha.get();
    for (int s = thread_id(); s < systems; s += thread_total()) {
        auto x = [=](int i) -> T& {
            return left ? B[i + static_cast<long long>(s) * ldb]
                        : B[s + static_cast<long long>(i) * ldb];
        };
        auto M = [=](int i, int k) {
            return m_transposes ? A[k + static_cast<long long>(i) * lda]
                                : A[i + static_cast<long long>(k) * lda];
        };
        for (int step = 0; step < order; ++step) {
            int i = forward ? step : order - 1 - step;
            if (a == T(0)) {
                x(i) = 0;
                continue;
            }
            T v = a * x(i);
            for (int k = forward ? 0 : i + 1; k < (forward ? i : order); ++k) v -= M(i, k) * x(k);
            x(i) = unit ? v : v / M(i, i);
        }
    }
}

/// C = alpha op(A) + beta op(B), one thread per element of C; A is not read when alpha is 0, nor
/// B when beta is 0. C may be A or B (untransposed, same leading dimension): each element is
/// read and written by one thread.
template <class T>
[[gnu::noinline]] void geam_kernel(bool ta, bool tb, int m, int n, Scalar<T> alpha, const T* A,
                                   int lda, Scalar<T> beta, const T* B, int ldb, T* C, int ldc) {
    T a = alpha.get(), b = beta.get();
    for (int j = blockIdx.y * blockDim.y + threadIdx.y; j < n; j += gridDim.y * blockDim.y)
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < m; i += gridDim.x * blockDim.x) {
            T sum = 0;
            if (a != T(0))
                sum += a * (ta ? A[j + static_cast<long long>(i) * lda]
                               : A[i + static_cast<long long>(j) * lda]);
            if (b != T(0))
                sum += b * (tb ? B[j + static_cast<long long>(i) * ldb]
                               : B[i + static_cast<long long>(j) * ldb]);
            C[i + static_cast<long long>(j) * ldc] = sum;
        }
}

}  // namespace simt::sim::detail::blas
