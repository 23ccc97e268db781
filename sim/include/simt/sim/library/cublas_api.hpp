// cuBLAS's common subset with the toolkit's signatures: the handle and its stream, the copy
// helpers, and saxpy/daxpy, dot, scal, nrm2, gemv, gemm and its batched forms (an array of
// pointers, or strided), trsm, syrk, geam, and the batched LU factorisation and inverse
// (getrfBatched, getriBatched) in single and double precision, column-major as in cuBLAS. Each
// operation is a kernel queued on the handle's stream; results returned to a host pointer (dot,
// nrm2 in pointer mode host) wait for it, as cuBLAS does.
//
// Arguments are checked as NVIDIA's cuBLAS was seen to check them on a GPU (an H100 with CUDA
// 13, docs/gpu-verification.md), which is less than its documentation lists: a null handle is
// CUBLAS_STATUS_NOT_INITIALIZED; gemm's negative sizes and small leading dimensions and gemv's
// lda < m are CUBLAS_STATUS_INVALID_VALUE, but gemv with m or n < 0 does nothing and succeeds,
// and gemv, axpy and dot take a stride of 0 (every element is the first). The copy helpers
// refuse non-positive element sizes, strides and leading dimensions with
// CUBLAS_STATUS_INVALID_VALUE; a leading dimension below the rows, or n < 0, fails the copy
// itself: CUBLAS_STATUS_MAPPING_ERROR. Level-1 functions do nothing for n <= 0, as BLAS (dot and
// nrm2 then return 0, nrm2 also for incx <= 0). The batched gemms take gemm's checks and refuse
// a negative batch count. getrfBatched, getriBatched, trsm, syrk and geam refuse what NVIDIA's
// documentation lists (negative sizes and counts, leading dimensions below the rows, enumerators
// out of range, a null alpha or beta, geam in place with a transpose or another leading
// dimension); no GPU has confirmed these yet.
//
// Every function takes a defaulted last parameter, the caller's source location, which a
// program never passes: reports about the kernel name the line of the cuBLAS call.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp> and <cublas_v2.h>, not the simulator's headers"
#endif
#include <algorithm>
#include <memory>
#include <source_location>
#include <vector>

#define SIMT_CUBLAS_SITE std::source_location site = std::source_location::current()

inline cublasStatus_t cublasCreate(cublasHandle_t* handle) {
    if (!handle) return CUBLAS_STATUS_INVALID_VALUE;
    *handle = new cublasContext;
    return CUBLAS_STATUS_SUCCESS;
}

/// Releases the handle after the device has finished its work, as cuBLAS does.
inline cublasStatus_t cublasDestroy(cublasHandle_t handle) {
    if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
    cudaDeviceSynchronize();
    delete handle;
    return CUBLAS_STATUS_SUCCESS;
}

inline cublasStatus_t cublasSetStream(cublasHandle_t handle, cudaStream_t stream) {
    if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
    handle->stream = stream;
    return CUBLAS_STATUS_SUCCESS;
}

inline cublasStatus_t cublasGetStream(cublasHandle_t handle, cudaStream_t* stream) {
    if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!stream) return CUBLAS_STATUS_INVALID_VALUE;
    *stream = handle->stream;
    return CUBLAS_STATUS_SUCCESS;
}

inline cublasStatus_t cublasSetPointerMode(cublasHandle_t handle, cublasPointerMode_t mode) {
    if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (mode != CUBLAS_POINTER_MODE_HOST && mode != CUBLAS_POINTER_MODE_DEVICE)
        return CUBLAS_STATUS_INVALID_VALUE;
    handle->pointer_mode = mode;
    return CUBLAS_STATUS_SUCCESS;
}

inline cublasStatus_t cublasGetPointerMode(cublasHandle_t handle, cublasPointerMode_t* mode) {
    if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!mode) return CUBLAS_STATUS_INVALID_VALUE;
    *mode = handle->pointer_mode;
    return CUBLAS_STATUS_SUCCESS;
}

inline cublasStatus_t cublasGetVersion(cublasHandle_t handle, int* version) {
    if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!version) return CUBLAS_STATUS_INVALID_VALUE;
    *version = CUBLAS_VERSION;
    return CUBLAS_STATUS_SUCCESS;
}

// The copy helpers: n elements of elemSize bytes at a stride, or a rows x cols block of
// column-major matrices; a copy the runtime refuses (e.g. past the end of an allocation) is
// CUBLAS_STATUS_MAPPING_ERROR, and the simulator says why.
namespace simt::sim::detail::blas {
inline cublasStatus_t copy_2d(void* dst, long long dst_pitch, const void* src, long long src_pitch,
                              long long width, long long height, cudaMemcpyKind kind,
                              cudaStream_t stream, std::source_location site) {
    if (width == 0 || height == 0) return CUBLAS_STATUS_SUCCESS;
    if (stream && cudaStreamSynchronize(stream) != cudaSuccess) return CUBLAS_STATUS_MAPPING_ERROR;
    cudaError_t e = cudaMemcpy2D(
        dst, static_cast<std::size_t>(dst_pitch), src, static_cast<std::size_t>(src_pitch),
        static_cast<std::size_t>(width), static_cast<std::size_t>(height), kind, site);
    return e == cudaSuccess ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_MAPPING_ERROR;
}
inline cublasStatus_t copy_vector(int n, int elemSize, const void* x, int incx, void* y, int incy,
                                  cudaMemcpyKind kind, cudaStream_t stream,
                                  std::source_location site) {
    if (elemSize <= 0 || incx <= 0 || incy <= 0) return CUBLAS_STATUS_INVALID_VALUE;
    if (n < 0) return CUBLAS_STATUS_MAPPING_ERROR;
    return copy_2d(y, static_cast<long long>(incy) * elemSize, x,
                   static_cast<long long>(incx) * elemSize, elemSize, n, kind, stream, site);
}
inline cublasStatus_t copy_matrix(int rows, int cols, int elemSize, const void* A, int lda, void* B,
                                  int ldb, cudaMemcpyKind kind, cudaStream_t stream,
                                  std::source_location site) {
    if (rows < 0 || cols < 0 || elemSize <= 0 || lda <= 0 || ldb <= 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    // A pitch below the row's width is cudaMemcpy2D's cudaErrorInvalidPitchValue.
    return copy_2d(B, static_cast<long long>(ldb) * elemSize, A,
                   static_cast<long long>(lda) * elemSize, static_cast<long long>(rows) * elemSize,
                   cols, kind, stream, site);
}
}  // namespace simt::sim::detail::blas

/// Copies n host elements x[0], x[incx], ... to devicePtr[0], devicePtr[incy], ...
inline cublasStatus_t cublasSetVector(int n, int elemSize, const void* x, int incx, void* devicePtr,
                                      int incy, SIMT_CUBLAS_SITE) {
    return simt::sim::detail::blas::copy_vector(n, elemSize, x, incx, devicePtr, incy,
                                                cudaMemcpyHostToDevice, nullptr, site);
}
inline cublasStatus_t cublasGetVector(int n, int elemSize, const void* x, int incx, void* y,
                                      int incy, SIMT_CUBLAS_SITE) {
    return simt::sim::detail::blas::copy_vector(n, elemSize, x, incx, y, incy,
                                                cudaMemcpyDeviceToHost, nullptr, site);
}
inline cublasStatus_t cublasSetMatrix(int rows, int cols, int elemSize, const void* A, int lda,
                                      void* B, int ldb, SIMT_CUBLAS_SITE) {
    return simt::sim::detail::blas::copy_matrix(rows, cols, elemSize, A, lda, B, ldb,
                                                cudaMemcpyHostToDevice, nullptr, site);
}
inline cublasStatus_t cublasGetMatrix(int rows, int cols, int elemSize, const void* A, int lda,
                                      void* B, int ldb, SIMT_CUBLAS_SITE) {
    return simt::sim::detail::blas::copy_matrix(rows, cols, elemSize, A, lda, B, ldb,
                                                cudaMemcpyDeviceToHost, nullptr, site);
}
// The Async forms copy after the stream's earlier work, and have finished when they return.
inline cublasStatus_t cublasSetVectorAsync(int n, int elemSize, const void* hostPtr, int incx,
                                           void* devicePtr, int incy, cudaStream_t stream,
                                           SIMT_CUBLAS_SITE) {
    return simt::sim::detail::blas::copy_vector(n, elemSize, hostPtr, incx, devicePtr, incy,
                                                cudaMemcpyHostToDevice, stream, site);
}
inline cublasStatus_t cublasGetVectorAsync(int n, int elemSize, const void* devicePtr, int incx,
                                           void* hostPtr, int incy, cudaStream_t stream,
                                           SIMT_CUBLAS_SITE) {
    return simt::sim::detail::blas::copy_vector(n, elemSize, devicePtr, incx, hostPtr, incy,
                                                cudaMemcpyDeviceToHost, stream, site);
}
inline cublasStatus_t cublasSetMatrixAsync(int rows, int cols, int elemSize, const void* A, int lda,
                                           void* B, int ldb, cudaStream_t stream,
                                           SIMT_CUBLAS_SITE) {
    return simt::sim::detail::blas::copy_matrix(rows, cols, elemSize, A, lda, B, ldb,
                                                cudaMemcpyHostToDevice, stream, site);
}
inline cublasStatus_t cublasGetMatrixAsync(int rows, int cols, int elemSize, const void* A, int lda,
                                           void* B, int ldb, cudaStream_t stream,
                                           SIMT_CUBLAS_SITE) {
    return simt::sim::detail::blas::copy_matrix(rows, cols, elemSize, A, lda, B, ldb,
                                                cudaMemcpyDeviceToHost, stream, site);
}

namespace simt::sim::detail::blas {

template <class T>
cublasStatus_t axpy(cublasHandle_t h, int n, const T* alpha, const T* x, int incx, T* y, int incy,
                    LibraryCall site) {
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!alpha) return CUBLAS_STATUS_INVALID_VALUE;
    if (n <= 0) return CUBLAS_STATUS_SUCCESS;
    Scalar<T> a = scalar(h, alpha);
    return launch(h, blocks_for(n), block_threads, site,
                  [=] { axpy_kernel(n, a, x, incx, y, incy); });
}

template <class T>
cublasStatus_t scal(cublasHandle_t h, int n, const T* alpha, T* x, int incx,
                    LibraryCall site) {
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!alpha) return CUBLAS_STATUS_INVALID_VALUE;
    if (n <= 0 || incx <= 0) return CUBLAS_STATUS_SUCCESS;
    Scalar<T> a = scalar(h, alpha);
    return launch(h, blocks_for(n), block_threads, site, [=] { scal_kernel(n, a, x, incx); });
}

/// Runs `partials_kernel(partial)` over `count` per-thread slots, then `combine(partial, result)`
/// on one thread; in pointer mode host, waits for both, as the result is the caller's variable.
template <class T, class Partials, class Combine>
cublasStatus_t reduce(cublasHandle_t h, int n, int slots_per_thread, T* result,
                      LibraryCall site, Partials partials_kernel, Combine combine) {
    unsigned blocks = blocks_for(n);
    int threads = static_cast<int>(blocks) * block_threads;
    // The partial sums are the library's own scratch memory, never the program's: host memory,
    // which the checks leave alone, kept alive by the two kernels that use it.
    auto partial =
        std::make_shared<std::vector<T>>(static_cast<std::size_t>(threads) * slots_per_thread);
    cublasStatus_t s =
        launch(h, blocks, block_threads, site, [=] { partials_kernel(partial->data()); });
    if (s == CUBLAS_STATUS_SUCCESS)
        s = launch(h, 1, 1, site, [=] { combine(partial->data(), threads, result); });
    if (s == CUBLAS_STATUS_SUCCESS && h->pointer_mode == CUBLAS_POINTER_MODE_HOST &&
        cudaStreamSynchronize(h->stream) != cudaSuccess)
        s = CUBLAS_STATUS_EXECUTION_FAILED;
    return s;
}

/// A result of 0 for an empty vector, stored where the pointer mode says.
template <class T>
cublasStatus_t zero_result(cublasHandle_t h, T* result, LibraryCall site) {
    if (h->pointer_mode == CUBLAS_POINTER_MODE_HOST) {
        *result = 0;
        return CUBLAS_STATUS_SUCCESS;
    }
    return launch(h, 1, 1, site, [=] { *result = 0; });
}

template <class T>
cublasStatus_t dot(cublasHandle_t h, int n, const T* x, int incx, const T* y, int incy, T* result,
                   LibraryCall site) {
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!result) return CUBLAS_STATUS_INVALID_VALUE;
    if (n <= 0) return zero_result(h, result, site);
    return reduce<T>(
        h, n, 1, result, site, [=](T* partial) { dot_kernel(n, x, incx, y, incy, partial); },
        [](const T* partial, int count, T* out) { sum_kernel(partial, count, out); });
}

template <class T>
cublasStatus_t nrm2(cublasHandle_t h, int n, const T* x, int incx, T* result,
                    LibraryCall site) {
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!result) return CUBLAS_STATUS_INVALID_VALUE;
    if (n <= 0 || incx <= 0) return zero_result(h, result, site);
    return reduce<T>(
        h, n, 2, result, site, [=](T* partial) { nrm2_kernel(n, x, incx, partial); },
        [](const T* partial, int count, T* out) { nrm2_combine_kernel(partial, count, out); });
}

inline bool valid_op(cublasOperation_t op) {
    return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C;
}

template <class T>
cublasStatus_t gemv(cublasHandle_t h, cublasOperation_t trans, int m, int n, const T* alpha,
                    const T* A, int lda, const T* x, int incx, const T* beta, T* y, int incy,
                    LibraryCall site) {
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!valid_op(trans) || lda < std::max(1, m) || !alpha || !beta)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (m <= 0 || n <= 0) return CUBLAS_STATUS_SUCCESS;
    bool t = trans != CUBLAS_OP_N;  // for real types, the conjugate transpose is the transpose
    Scalar<T> a = scalar(h, alpha), b = scalar(h, beta);
    return launch(h, blocks_for(t ? n : m), block_threads, site,
                  [=] { gemv_kernel(t, m, n, a, A, lda, x, incx, b, y, incy); });
}

/// gemm's refusals, which its batched forms share.
template <class T>
cublasStatus_t check_gemm(cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,
                          const T* alpha, int lda, int ldb, const T* beta, int ldc) {
    bool ta = transa != CUBLAS_OP_N, tb = transb != CUBLAS_OP_N;
    if (!valid_op(transa) || !valid_op(transb) || m < 0 || n < 0 || k < 0 ||
        lda < std::max(1, ta ? k : m) || ldb < std::max(1, tb ? n : k) || ldc < std::max(1, m) ||
        !alpha || !beta)
        return CUBLAS_STATUS_INVALID_VALUE;
    return CUBLAS_STATUS_SUCCESS;
}

/// The blocks of tile x tile threads over an m x n matrix (at most 1024 a side, then the kernel's
/// grid-stride loops), `depth` deep for a batch of matrices.
inline constexpr unsigned tile = 16;
inline dim3 matrix_grid(int m, int n, int depth = 1) {
    return dim3(std::min((m + tile - 1) / tile, 1024u), std::min((n + tile - 1) / tile, 1024u),
                static_cast<unsigned>(std::clamp(depth, 1, 64)));
}

template <class T>
cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m,
                    int n, int k, const T* alpha, const T* A, int lda, const T* B, int ldb,
                    const T* beta, T* C, int ldc, LibraryCall site) {
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (cublasStatus_t s = check_gemm(transa, transb, m, n, k, alpha, lda, ldb, beta, ldc);
        s != CUBLAS_STATUS_SUCCESS)
        return s;
    if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
    bool ta = transa != CUBLAS_OP_N, tb = transb != CUBLAS_OP_N;
    Scalar<T> a = scalar(h, alpha), b = scalar(h, beta);
    return launch(h, matrix_grid(m, n), dim3(tile, tile), site,
                  [=] { gemm_kernel(ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc); });
}

/// gemmBatched and gemmStridedBatched: gemm's checks, and a batch count that is not negative.
template <class T, class BatchA, class BatchB, class BatchC>
cublasStatus_t gemm_batched(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb,
                            int m, int n, int k, const T* alpha, BatchA A, int lda, BatchB B,
                            int ldb, const T* beta, BatchC C, int ldc, int batch,
                            LibraryCall site) {
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (cublasStatus_t s = check_gemm(transa, transb, m, n, k, alpha, lda, ldb, beta, ldc);
        s != CUBLAS_STATUS_SUCCESS)
        return s;
    if (batch < 0) return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0 || batch == 0) return CUBLAS_STATUS_SUCCESS;
    bool ta = transa != CUBLAS_OP_N, tb = transb != CUBLAS_OP_N;
    Scalar<T> a = scalar(h, alpha), b = scalar(h, beta);
    return launch(h, matrix_grid(m, n, batch), dim3(tile, tile), site, [=] {
        gemm_batch_kernel(ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc, batch);
    });
}

template <class T>
cublasStatus_t getrf_batched(cublasHandle_t h, int n, T* const A[], int lda, int* P, int* info,
                             int batch, LibraryCall site) {
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (n < 0 || lda < std::max(1, n) || batch < 0) return CUBLAS_STATUS_INVALID_VALUE;
    if (batch == 0) return CUBLAS_STATUS_SUCCESS;
    return launch(h, blocks_for(batch), block_threads, site,
                  [=] { getrf_kernel(n, A, lda, P, info, batch); });
}

template <class T>
cublasStatus_t getri_batched(cublasHandle_t h, int n, const T* const A[], int lda, const int* P,
                             T* const C[], int ldc, int* info, int batch, LibraryCall site) {
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (n < 0 || lda < std::max(1, n) || ldc < std::max(1, n) || batch < 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (batch == 0) return CUBLAS_STATUS_SUCCESS;
    return launch(h, blocks_for(batch), block_threads, site,
                  [=] { getri_kernel(n, A, lda, P, C, ldc, info, batch); });
}

inline bool valid_fill(cublasFillMode_t uplo) {
    return uplo == CUBLAS_FILL_MODE_LOWER || uplo == CUBLAS_FILL_MODE_UPPER;
}

template <class T>
cublasStatus_t trsm(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,
                    cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const T* alpha,
                    const T* A, int lda, T* B, int ldb, LibraryCall site) {
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    bool left = side == CUBLAS_SIDE_LEFT;
    if ((!left && side != CUBLAS_SIDE_RIGHT) || !valid_fill(uplo) || !valid_op(trans) ||
        (diag != CUBLAS_DIAG_NON_UNIT && diag != CUBLAS_DIAG_UNIT) || m < 0 || n < 0 ||
        lda < std::max(1, left ? m : n) || ldb < std::max(1, m) || !alpha)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
    bool lower = uplo == CUBLAS_FILL_MODE_LOWER, t = trans != CUBLAS_OP_N,
         unit = diag == CUBLAS_DIAG_UNIT;
    Scalar<T> a = scalar(h, alpha);
    return launch(h, blocks_for(left ? n : m), block_threads, site,
                  [=] { trsm_kernel(left, lower, t, unit, m, n, a, A, lda, B, ldb); });
}

/// syrk is gemm of op(A) with its own transpose, on one triangle of C.
template <class T>
cublasStatus_t syrk(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k,
                    const T* alpha, const T* A, int lda, const T* beta, T* C, int ldc,
                    LibraryCall site) {
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    bool t = trans != CUBLAS_OP_N;
    if (!valid_fill(uplo) || !valid_op(trans) || n < 0 || k < 0 ||
        lda < std::max(1, t ? k : n) || ldc < std::max(1, n) || !alpha || !beta)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (n == 0) return CUBLAS_STATUS_SUCCESS;
    Scalar<T> a = scalar(h, alpha), b = scalar(h, beta);
    return launch(h, matrix_grid(n, n), dim3(tile, tile), site,
                  [=] { gemm_kernel(t, !t, n, n, k, a, A, lda, A, lda, b, C, ldc, uplo); });
}

template <class T>
cublasStatus_t geam(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m,
                    int n, const T* alpha, const T* A, int lda, const T* beta, const T* B, int ldb,
                    T* C, int ldc, LibraryCall site) {
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    bool ta = transa != CUBLAS_OP_N, tb = transb != CUBLAS_OP_N;
    if (!valid_op(transa) || !valid_op(transb) || m < 0 || n < 0 ||
        lda < std::max(1, ta ? n : m) || ldb < std::max(1, tb ? n : m) || ldc < std::max(1, m) ||
        !alpha || !beta)
        return CUBLAS_STATUS_INVALID_VALUE;
    // In place, C may be A or B only untransposed and with C's leading dimension, so that each
    // thread reads the element it writes.
    if ((C == A && (ta || lda != ldc)) || (C == B && (tb || ldb != ldc)))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
    Scalar<T> a = scalar(h, alpha), b = scalar(h, beta);
    return launch(h, matrix_grid(m, n), dim3(tile, tile), site,
                  [=] { geam_kernel(ta, tb, m, n, a, A, lda, b, B, ldb, C, ldc); });
}

}  // namespace simt::sim::detail::blas

inline cublasStatus_t cublasSaxpy(cublasHandle_t handle, int n, const float* alpha, const float* x,
                                  int incx, float* y, int incy, SIMT_CUBLAS_SITE) {
    return simt::sim::detail::blas::axpy(handle, n, alpha, x, incx, y, incy, {site, __func__});
}
inline cublasStatus_t cublasDaxpy(cublasHandle_t handle, int n, const double* alpha,
                                  const double* x, int incx, double* y, int incy,
                                  SIMT_CUBLAS_SITE) {
    return simt::sim::detail::blas::axpy(handle, n, alpha, x, incx, y, incy, {site, __func__});
}
inline cublasStatus_t cublasSscal(cublasHandle_t handle, int n, const float* alpha, float* x,
                                  int incx, SIMT_CUBLAS_SITE) {
    return simt::sim::detail::blas::scal(handle, n, alpha, x, incx, {site, __func__});
}
inline cublasStatus_t cublasDscal(cublasHandle_t handle, int n, const double* alpha, double* x,
                                  int incx, SIMT_CUBLAS_SITE) {
    return simt::sim::detail::blas::scal(handle, n, alpha, x, incx, {site, __func__});
}
inline cublasStatus_t cublasSdot(cublasHandle_t handle, int n, const float* x, int incx,
                                 const float* y, int incy, float* result, SIMT_CUBLAS_SITE) {
    return simt::sim::detail::blas::dot(handle, n, x, incx, y, incy, result, {site, __func__});
}
inline cublasStatus_t cublasDdot(cublasHandle_t handle, int n, const double* x, int incx,
                                 const double* y, int incy, double* result, SIMT_CUBLAS_SITE) {
    return simt::sim::detail::blas::dot(handle, n, x, incx, y, incy, result, {site, __func__});
}
inline cublasStatus_t cublasSnrm2(cublasHandle_t handle, int n, const float* x, int incx,
                                  float* result, SIMT_CUBLAS_SITE) {
    return simt::sim::detail::blas::nrm2(handle, n, x, incx, result, {site, __func__});
}
inline cublasStatus_t cublasDnrm2(cublasHandle_t handle, int n, const double* x, int incx,
                                  double* result, SIMT_CUBLAS_SITE) {
    return simt::sim::detail::blas::nrm2(handle, n, x, incx, result, {site, __func__});
}
inline cublasStatus_t cublasSgemv(cublasHandle_t handle, cublasOperation_t trans, int m, int n,
                                  const float* alpha, const float* A, int lda, const float* x,
                                  int incx, const float* beta, float* y, int incy,
                                  SIMT_CUBLAS_SITE) {
    return simt::sim::detail::blas::gemv(handle, trans, m, n, alpha, A, lda, x, incx, beta, y, incy,
                                         {site, __func__});
}
inline cublasStatus_t cublasDgemv(cublasHandle_t handle, cublasOperation_t trans, int m, int n,
                                  const double* alpha, const double* A, int lda, const double* x,
                                  int incx, const double* beta, double* y, int incy,
                                  SIMT_CUBLAS_SITE) {
    return simt::sim::detail::blas::gemv(handle, trans, m, n, alpha, A, lda, x, incx, beta, y, incy,
                                         {site, __func__});
}
inline cublasStatus_t cublasSgemm(cublasHandle_t handle, cublasOperation_t transa,
                                  cublasOperation_t transb, int m, int n, int k, const float* alpha,
                                  const float* A, int lda, const float* B, int ldb,
                                  const float* beta, float* C, int ldc, SIMT_CUBLAS_SITE) {
    return simt::sim::detail::blas::gemm(handle, transa, transb, m, n, k, alpha, A, lda, B, ldb,
                                         beta, C, ldc, {site, __func__});
}
inline cublasStatus_t cublasDgemm(cublasHandle_t handle, cublasOperation_t transa,
                                  cublasOperation_t transb, int m, int n, int k,
                                  const double* alpha, const double* A, int lda, const double* B,
                                  int ldb, const double* beta, double* C, int ldc,
                                  SIMT_CUBLAS_SITE) {
    return simt::sim::detail::blas::gemm(handle, transa, transb, m, n, k, alpha, A, lda, B, ldb,
                                         beta, C, ldc, {site, __func__});
}

inline cublasStatus_t cublasSgemmBatched(cublasHandle_t handle, cublasOperation_t transa,
                                         cublasOperation_t transb, int m, int n, int k,
                                         const float* alpha, const float* const Aarray[], int lda,
                                         const float* const Barray[], int ldb, const float* beta,
                                         float* const Carray[], int ldc, int batchCount,
                                         SIMT_CUBLAS_SITE) {
    namespace blas = simt::sim::detail::blas;
    return blas::gemm_batched(handle, transa, transb, m, n, k, alpha,
                              blas::PointerArray<const float*>{Aarray}, lda,
                              blas::PointerArray<const float*>{Barray}, ldb, beta,
                              blas::PointerArray<float*>{Carray}, ldc, batchCount,
                              {site, __func__});
}
inline cublasStatus_t cublasDgemmBatched(cublasHandle_t handle, cublasOperation_t transa,
                                         cublasOperation_t transb, int m, int n, int k,
                                         const double* alpha, const double* const Aarray[],
                                         int lda, const double* const Barray[], int ldb,
                                         const double* beta, double* const Carray[], int ldc,
                                         int batchCount, SIMT_CUBLAS_SITE) {
    namespace blas = simt::sim::detail::blas;
    return blas::gemm_batched(handle, transa, transb, m, n, k, alpha,
                              blas::PointerArray<const double*>{Aarray}, lda,
                              blas::PointerArray<const double*>{Barray}, ldb, beta,
                              blas::PointerArray<double*>{Carray}, ldc, batchCount,
                              {site, __func__});
}
inline cublasStatus_t cublasSgemmStridedBatched(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,
    const float* alpha, const float* A, int lda, long long int strideA, const float* B, int ldb,
    long long int strideB, const float* beta, float* C, int ldc, long long int strideC,
    int batchCount, SIMT_CUBLAS_SITE) {
    namespace blas = simt::sim::detail::blas;
    return blas::gemm_batched(handle, transa, transb, m, n, k, alpha,
                              blas::Strided<const float*>{A, strideA}, lda,
                              blas::Strided<const float*>{B, strideB}, ldb, beta,
                              blas::Strided<float*>{C, strideC}, ldc, batchCount,
                              {site, __func__});
}
inline cublasStatus_t cublasDgemmStridedBatched(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,
    const double* alpha, const double* A, int lda, long long int strideA, const double* B, int ldb,
    long long int strideB, const double* beta, double* C, int ldc, long long int strideC,
    int batchCount, SIMT_CUBLAS_SITE) {
    namespace blas = simt::sim::detail::blas;
    return blas::gemm_batched(handle, transa, transb, m, n, k, alpha,
                              blas::Strided<const double*>{A, strideA}, lda,
                              blas::Strided<const double*>{B, strideB}, ldb, beta,
                              blas::Strided<double*>{C, strideC}, ldc, batchCount,
                              {site, __func__});
}
inline cublasStatus_t cublasSgetrfBatched(cublasHandle_t handle, int n, float* const A[], int lda,
                                          int* P, int* info, int batchSize, SIMT_CUBLAS_SITE) {
    return simt::sim::detail::blas::getrf_batched(handle, n, A, lda, P, info, batchSize,
                                                  {site, __func__});
}
inline cublasStatus_t cublasDgetrfBatched(cublasHandle_t handle, int n, double* const A[], int lda,
                                          int* P, int* info, int batchSize, SIMT_CUBLAS_SITE) {
    return simt::sim::detail::blas::getrf_batched(handle, n, A, lda, P, info, batchSize,
                                                  {site, __func__});
}
inline cublasStatus_t cublasSgetriBatched(cublasHandle_t handle, int n, const float* const A[],
                                          int lda, const int* P, float* const C[], int ldc,
                                          int* info, int batchSize, SIMT_CUBLAS_SITE) {
    return simt::sim::detail::blas::getri_batched(handle, n, A, lda, P, C, ldc, info, batchSize,
                                                  {site, __func__});
}
inline cublasStatus_t cublasDgetriBatched(cublasHandle_t handle, int n, const double* const A[],
                                          int lda, const int* P, double* const C[], int ldc,
                                          int* info, int batchSize, SIMT_CUBLAS_SITE) {
    return simt::sim::detail::blas::getri_batched(handle, n, A, lda, P, C, ldc, info, batchSize,
                                                  {site, __func__});
}
inline cublasStatus_t cublasStrsm(cublasHandle_t handle, cublasSideMode_t side,
                                  cublasFillMode_t uplo, cublasOperation_t trans,
                                  cublasDiagType_t diag, int m, int n, const float* alpha,
                                  const float* A, int lda, float* B, int ldb, SIMT_CUBLAS_SITE) {
    return simt::sim::detail::blas::trsm(handle, side, uplo, trans, diag, m, n, alpha, A, lda, B,
                                         ldb, {site, __func__});
}
inline cublasStatus_t cublasDtrsm(cublasHandle_t handle, cublasSideMode_t side,
                                  cublasFillMode_t uplo, cublasOperation_t trans,
                                  cublasDiagType_t diag, int m, int n, const double* alpha,
                                  const double* A, int lda, double* B, int ldb, SIMT_CUBLAS_SITE) {
    return simt::sim::detail::blas::trsm(handle, side, uplo, trans, diag, m, n, alpha, A, lda, B,
                                         ldb, {site, __func__});
}
inline cublasStatus_t cublasSsyrk(cublasHandle_t handle, cublasFillMode_t uplo,
                                  cublasOperation_t trans, int n, int k, const float* alpha,
                                  const float* A, int lda, const float* beta, float* C, int ldc,
                                  SIMT_CUBLAS_SITE) {
    return simt::sim::detail::blas::syrk(handle, uplo, trans, n, k, alpha, A, lda, beta, C, ldc,
                                         {site, __func__});
}
inline cublasStatus_t cublasDsyrk(cublasHandle_t handle, cublasFillMode_t uplo,
                                  cublasOperation_t trans, int n, int k, const double* alpha,
                                  const double* A, int lda, const double* beta, double* C, int ldc,
                                  SIMT_CUBLAS_SITE) {
    return simt::sim::detail::blas::syrk(handle, uplo, trans, n, k, alpha, A, lda, beta, C, ldc,
                                         {site, __func__});
}
inline cublasStatus_t cublasSgeam(cublasHandle_t handle, cublasOperation_t transa,
                                  cublasOperation_t transb, int m, int n, const float* alpha,
                                  const float* A, int lda, const float* beta, const float* B,
                                  int ldb, float* C, int ldc, SIMT_CUBLAS_SITE) {
    return simt::sim::detail::blas::geam(handle, transa, transb, m, n, alpha, A, lda, beta, B, ldb,
                                         C, ldc, {site, __func__});
}
inline cublasStatus_t cublasDgeam(cublasHandle_t handle, cublasOperation_t transa,
                                  cublasOperation_t transb, int m, int n, const double* alpha,
                                  const double* A, int lda, const double* beta, const double* B,
                                  int ldb, double* C, int ldc, SIMT_CUBLAS_SITE) {
    return simt::sim::detail::blas::geam(handle, transa, transb, m, n, alpha, A, lda, beta, B, ldb,
                                         C, ldc, {site, __func__});
}

#undef SIMT_CUBLAS_SITE

// The _v2 names that cublas_v2.h maps the functions to, for code that spells them out.
#define cublasCreate_v2 cublasCreate
#define cublasDestroy_v2 cublasDestroy
#define cublasSetStream_v2 cublasSetStream
#define cublasGetStream_v2 cublasGetStream
#define cublasSaxpy_v2 cublasSaxpy
#define cublasDaxpy_v2 cublasDaxpy
#define cublasSscal_v2 cublasSscal
#define cublasDscal_v2 cublasDscal
#define cublasSdot_v2 cublasSdot
#define cublasDdot_v2 cublasDdot
#define cublasSnrm2_v2 cublasSnrm2
#define cublasDnrm2_v2 cublasDnrm2
#define cublasSgemv_v2 cublasSgemv
#define cublasDgemv_v2 cublasDgemv
#define cublasSgemm_v2 cublasSgemm
#define cublasDgemm_v2 cublasDgemm
#define cublasStrsm_v2 cublasStrsm
#define cublasDtrsm_v2 cublasDtrsm
#define cublasSsyrk_v2 cublasSsyrk
#define cublasDsyrk_v2 cublasDsyrk
