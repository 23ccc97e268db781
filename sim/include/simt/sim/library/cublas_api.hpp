// cuBLAS's common subset with the toolkit's signatures: the handle and its stream, the copy
// helpers, and saxpy/daxpy, dot, scal, nrm2, gemv and gemm in single and double precision,
// column-major as in cuBLAS. Each operation is a kernel queued on the handle's stream; results
// returned to a host pointer (dot, nrm2 in pointer mode host) wait for it, as cuBLAS does.
//
// Arguments are checked as NVIDIA's cuBLAS was seen to check them on a GPU (an H100 with CUDA
// 13, docs/gpu-verification.md), which is less than its documentation lists: a null handle is
// CUBLAS_STATUS_NOT_INITIALIZED; gemm's negative sizes and small leading dimensions and gemv's
// lda < m are CUBLAS_STATUS_INVALID_VALUE, but gemv with m or n < 0 does nothing and succeeds,
// and gemv, axpy and dot take a stride of 0 (every element is the first). The copy helpers
// refuse non-positive element sizes, strides and leading dimensions with
// CUBLAS_STATUS_INVALID_VALUE; a leading dimension below the rows, or n < 0, fails the copy
// itself: CUBLAS_STATUS_MAPPING_ERROR. Level-1 functions do nothing for n <= 0, as BLAS (dot and
// nrm2 then return 0, nrm2 also for incx <= 0).
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

template <class T>
cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m,
                    int n, int k, const T* alpha, const T* A, int lda, const T* B, int ldb,
                    const T* beta, T* C, int ldc, LibraryCall site) {
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    bool ta = transa != CUBLAS_OP_N, tb = transb != CUBLAS_OP_N;
    if (!valid_op(transa) || !valid_op(transb) || m < 0 || n < 0 || k < 0 ||
        lda < std::max(1, ta ? k : m) || ldb < std::max(1, tb ? n : k) || ldc < std::max(1, m) ||
        !alpha || !beta)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
    Scalar<T> a = scalar(h, alpha), b = scalar(h, beta);
    constexpr unsigned tile = 16;
    dim3 grid(std::min((m + tile - 1) / tile, 1024u), std::min((n + tile - 1) / tile, 1024u));
    return launch(h, grid, dim3(tile, tile), site,
                  [=] { gemm_kernel(ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc); });
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
