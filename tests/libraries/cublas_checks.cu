// cuBLAS as a course uses it: vectors and column-major matrices copied in with cublasSetVector /
// cublasSetMatrix, level-1, gemv and gemm (non-square, every transpose) in float and double,
// each checked against a plain CPU loop; then the statuses of bad arguments, and what gemv
// takes that its documentation refuses. Prints PASS.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "../cuda/check_cuda.h"
#define CUBLAS_CHECK(call)                                                         \
    do {                                                                           \
        cublasStatus_t st_ = (call);                                               \
        if (st_ != CUBLAS_STATUS_SUCCESS) {                                        \
            std::printf("%s:%d: cuBLAS error %d\n", __FILE__, __LINE__, int(st_)); \
            std::exit(1);                                                          \
        }                                                                          \
    } while (0)

#define IDX2C(i, j, ld) (((j) * (ld)) + (i))

static int failures = 0;

static void expect(bool ok, const char* what) {
    std::printf("%s: %s\n", ok ? "ok" : "FAILED", what);
    if (!ok) ++failures;
}

template <class T>
static bool close(const std::vector<T>& got, const std::vector<T>& want, double tolerance) {
    for (size_t i = 0; i < want.size(); ++i)
        if (std::fabs(double(got[i]) - double(want[i])) >
            tolerance * (1 + std::fabs(double(want[i]))))
            return false;
    return true;
}

template <class T>
static std::vector<T> numbers(int n, int seed) {
    std::vector<T> v(n);
    unsigned s = seed;
    for (int i = 0; i < n; ++i) {
        s = s * 1664525u + 1013904223u;
        v[i] = T(int(s >> 16) % 2001 - 1000) / T(250);
    }
    return v;
}

template <class T>
static T* to_device(const std::vector<T>& h) {
    T* d;
    CHECK(cudaMalloc(&d, h.size() * sizeof(T)));
    CUBLAS_CHECK(cublasSetVector(int(h.size()), sizeof(T), h.data(), 1, d, 1));
    return d;
}

template <class T>
static std::vector<T> to_host(const T* d, int n) {
    std::vector<T> h(n);
    CUBLAS_CHECK(cublasGetVector(n, sizeof(T), d, 1, h.data(), 1));
    return h;
}

// The four level-1 calls, by type.
static cublasStatus_t axpy(cublasHandle_t h, int n, const float* a, const float* x, int incx,
                           float* y, int incy) {
    return cublasSaxpy(h, n, a, x, incx, y, incy);
}
static cublasStatus_t axpy(cublasHandle_t h, int n, const double* a, const double* x, int incx,
                           double* y, int incy) {
    return cublasDaxpy(h, n, a, x, incx, y, incy);
}
static cublasStatus_t dot(cublasHandle_t h, int n, const float* x, const float* y, float* r) {
    return cublasSdot(h, n, x, 1, y, 1, r);
}
static cublasStatus_t dot(cublasHandle_t h, int n, const double* x, const double* y, double* r) {
    return cublasDdot(h, n, x, 1, y, 1, r);
}
static cublasStatus_t nrm2(cublasHandle_t h, int n, const float* x, float* r) {
    return cublasSnrm2(h, n, x, 1, r);
}
static cublasStatus_t nrm2(cublasHandle_t h, int n, const double* x, double* r) {
    return cublasDnrm2(h, n, x, 1, r);
}
static cublasStatus_t scal(cublasHandle_t h, int n, const float* a, float* x, int incx) {
    return cublasSscal(h, n, a, x, incx);
}
static cublasStatus_t scal(cublasHandle_t h, int n, const double* a, double* x, int incx) {
    return cublasDscal(h, n, a, x, incx);
}
static cublasStatus_t gemv(cublasHandle_t h, cublasOperation_t t, int m, int n, const float* a,
                           const float* A, int lda, const float* x, const float* b, float* y) {
    return cublasSgemv(h, t, m, n, a, A, lda, x, 1, b, y, 1);
}
static cublasStatus_t gemv(cublasHandle_t h, cublasOperation_t t, int m, int n, const double* a,
                           const double* A, int lda, const double* x, const double* b, double* y) {
    return cublasDgemv(h, t, m, n, a, A, lda, x, 1, b, y, 1);
}
static cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                           int n, int k, const float* a, const float* A, int lda, const float* B,
                           int ldb, const float* b, float* C, int ldc) {
    return cublasSgemm(h, ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc);
}
static cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                           int n, int k, const double* a, const double* A, int lda, const double* B,
                           int ldb, const double* b, double* C, int ldc) {
    return cublasDgemm(h, ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc);
}

template <class T>
static void level1(cublasHandle_t handle, const char* type, double tol) {
    const int n = 1000;
    std::vector<T> x = numbers<T>(n, 1), y = numbers<T>(n, 2);
    T* d_x = to_device(x);
    T* d_y = to_device(y);
    char text[120];

    T alpha = T(2.5);
    CUBLAS_CHECK(axpy(handle, n, &alpha, d_x, 1, d_y, 1));
    std::vector<T> want(n);
    for (int i = 0; i < n; ++i) want[i] = alpha * x[i] + y[i];
    std::snprintf(text, sizeof text, "%s axpy of %d elements matches the CPU loop", type, n);
    expect(close(to_host(d_y, n), want, tol), text);

    // Strides: every other element of x, walked from the end (incx = -2), into y's first 100.
    CUBLAS_CHECK(cublasSetVector(n, sizeof(T), y.data(), 1, d_y, 1));
    CUBLAS_CHECK(axpy(handle, 100, &alpha, d_x, -2, d_y, 1));
    want = y;
    for (int i = 0; i < 100; ++i) want[i] = alpha * x[(99 - i) * 2] + y[i];
    std::snprintf(text, sizeof text, "%s axpy with a negative stride walks x from its far end",
                  type);
    expect(close(to_host(d_y, n), want, tol), text);

    T result = 0;
    CUBLAS_CHECK(dot(handle, n, d_x, d_x, &result));
    double sum = 0;
    for (int i = 0; i < n; ++i) sum += double(x[i]) * x[i];
    T norm = 0;
    CUBLAS_CHECK(nrm2(handle, n, d_x, &norm));
    std::snprintf(text, sizeof text, "%s dot %.4f (CPU %.4f) and nrm2 %.5f (CPU %.5f)", type,
                  double(result), sum, double(norm), std::sqrt(sum));
    expect(std::fabs(result - sum) <= tol * sum &&
               std::fabs(norm - std::sqrt(sum)) <= tol * std::sqrt(sum),
           text);

    T big = T(1e30);  // the squares overflow a float; the norm itself does not
    std::vector<T> huge = {big * 3, big * 4};
    T* d_huge = to_device(huge);
    CUBLAS_CHECK(nrm2(handle, 2, d_huge, &norm));
    std::snprintf(text, sizeof text, "%s nrm2 of (3e30, 4e30) is 5e30 without overflow: %g", type,
                  double(norm));
    expect(std::fabs(norm / big - 5) < 1e-5, text);

    T beta = T(-0.5);
    CUBLAS_CHECK(scal(handle, n / 2, &beta, d_x, 2));
    want = x;
    for (int i = 0; i < n / 2; ++i) want[2 * i] *= beta;
    std::snprintf(text, sizeof text, "%s scal of every other element", type);
    expect(close(to_host(d_x, n), want, tol), text);

    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_y));
    CHECK(cudaFree(d_huge));
}

template <class T>
static void level2_3(cublasHandle_t handle, const char* type, double tol) {
    const int m = 37, n = 23, k = 29;
    char text[160];
    // gemv: A is m x n with lda = m + 3 (rows past m are never read).
    const int lda = m + 3;
    std::vector<T> A = numbers<T>(lda * n, 3), x = numbers<T>(m, 4), y = numbers<T>(m, 5);
    T* d_A;
    CHECK(cudaMalloc(&d_A, A.size() * sizeof(T)));
    CUBLAS_CHECK(cublasSetMatrix(m, n, sizeof(T), A.data(), lda, d_A, lda));
    T* d_x = to_device(x);
    T* d_y = to_device(y);
    for (cublasOperation_t op : {CUBLAS_OP_N, CUBLAS_OP_T}) {
        int rows = op == CUBLAS_OP_N ? m : n, cols = op == CUBLAS_OP_N ? n : m;
        T alpha = T(1.5), beta = T(0.25);
        CUBLAS_CHECK(cublasSetVector(m, sizeof(T), y.data(), 1, d_y, 1));
        CUBLAS_CHECK(gemv(handle, op, m, n, &alpha, d_A, lda, d_x, &beta, d_y));
        std::vector<T> want(y.begin(), y.begin() + rows);
        for (int r = 0; r < rows; ++r) {
            double s = 0;
            for (int c = 0; c < cols; ++c)
                s += double(op == CUBLAS_OP_N ? A[IDX2C(r, c, lda)] : A[IDX2C(c, r, lda)]) * x[c];
            want[r] = T(alpha * s + beta * y[r]);
        }
        std::snprintf(text, sizeof text, "%s gemv %s of a %dx%d matrix matches the CPU loop", type,
                      op == CUBLAS_OP_N ? "N" : "T", m, n);
        expect(close(to_host(d_y, rows), want, tol), text);
    }

    // gemm: C (m x n) = alpha op(A) op(B) + beta C for each pair of transposes.
    for (cublasOperation_t ta : {CUBLAS_OP_N, CUBLAS_OP_T})
        for (cublasOperation_t tb : {CUBLAS_OP_N, CUBLAS_OP_T}) {
            int a_rows = ta == CUBLAS_OP_N ? m : k, a_cols = ta == CUBLAS_OP_N ? k : m;
            int b_rows = tb == CUBLAS_OP_N ? k : n, b_cols = tb == CUBLAS_OP_N ? n : k;
            std::vector<T> hA = numbers<T>(a_rows * a_cols, 6), hB = numbers<T>(b_rows * b_cols, 7),
                           hC = numbers<T>(m * n, 8);
            T* dA = to_device(hA);
            T* dB = to_device(hB);
            T* dC = to_device(hC);
            T alpha = T(0.75), beta = T(-1);
            CUBLAS_CHECK(
                gemm(handle, ta, tb, m, n, k, &alpha, dA, a_rows, dB, b_rows, &beta, dC, m));
            std::vector<T> want(m * n);
            for (int i = 0; i < m; ++i)
                for (int j = 0; j < n; ++j) {
                    double s = 0;
                    for (int l = 0; l < k; ++l) {
                        T a = ta == CUBLAS_OP_N ? hA[IDX2C(i, l, a_rows)] : hA[IDX2C(l, i, a_rows)];
                        T b = tb == CUBLAS_OP_N ? hB[IDX2C(l, j, b_rows)] : hB[IDX2C(j, l, b_rows)];
                        s += double(a) * b;
                    }
                    want[IDX2C(i, j, m)] = T(alpha * s + beta * hC[IDX2C(i, j, m)]);
                }
            std::snprintf(text, sizeof text,
                          "%s gemm %s%s: (%dx%d) = op(A) op(B), k = %d, matches the CPU loop", type,
                          ta == CUBLAS_OP_N ? "N" : "T", tb == CUBLAS_OP_N ? "N" : "T", m, n, k);
            expect(close(to_host(dC, m * n), want, tol), text);
            CHECK(cudaFree(dA));
            CHECK(cudaFree(dB));
            CHECK(cudaFree(dC));
        }
    CHECK(cudaFree(d_A));
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_y));
}

static void statuses(cublasHandle_t handle) {
    float one = 1, r = 0;
    float* d;
    CHECK(cudaMalloc(&d, 64 * sizeof(float)));
    CHECK(cudaMemset(d, 0, 64 * sizeof(float)));
    struct {
        const char* what;
        cublasStatus_t got, want;
    } cases[] = {
        {"gemm with m < 0",
         cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, -1, 4, 4, &one, d, 4, d, 4, &one, d, 4),
         CUBLAS_STATUS_INVALID_VALUE},
        {"gemm with lda < m",
         cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, d, 3, d, 4, &one, d, 4),
         CUBLAS_STATUS_INVALID_VALUE},
        {"gemm T with lda < k",
         cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, 8, 2, 4, &one, d, 3, d, 4, &one, d, 8),
         CUBLAS_STATUS_INVALID_VALUE},
        {"gemm with ldc < m",
         cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, d, 4, d, 4, &one, d, 2),
         CUBLAS_STATUS_INVALID_VALUE},
        {"gemm with CUBLAS_OP_CONJG",
         cublasSgemm(handle, CUBLAS_OP_CONJG, CUBLAS_OP_N, 4, 4, 4, &one, d, 4, d, 4, &one, d, 4),
         CUBLAS_STATUS_INVALID_VALUE},
        {"gemv with lda < m", cublasSgemv(handle, CUBLAS_OP_N, 4, 4, &one, d, 2, d, 1, &one, d, 1),
         CUBLAS_STATUS_INVALID_VALUE},
        {"setVector with incx = 0", cublasSetVector(4, sizeof(float), &one, 0, d, 1),
         CUBLAS_STATUS_INVALID_VALUE},
        // The copy itself fails, as cudaMemcpy2D does with a pitch below the width.
        {"setMatrix with lda < rows", cublasSetMatrix(4, 2, sizeof(float), &one, 3, d, 4),
         CUBLAS_STATUS_MAPPING_ERROR},
        {"setMatrix with lda = 0", cublasSetMatrix(0, 2, sizeof(float), &one, 0, d, 4),
         CUBLAS_STATUS_INVALID_VALUE},
        {"saxpy with a null handle", cublasSaxpy(nullptr, 4, &one, d, 1, d, 1),
         CUBLAS_STATUS_NOT_INITIALIZED},
        {"sdot with a null handle", cublasSdot(nullptr, 4, d, 1, d, 1, &r),
         CUBLAS_STATUS_NOT_INITIALIZED},
        {"sgemm with a null handle",
         cublasSgemm(nullptr, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, d, 4, d, 4, &one, d, 4),
         CUBLAS_STATUS_NOT_INITIALIZED},
        {"cublasDestroy of a null handle", cublasDestroy(nullptr), CUBLAS_STATUS_NOT_INITIALIZED},
        {"saxpy with n = 0 does nothing", cublasSaxpy(handle, 0, &one, d, 1, d, 1),
         CUBLAS_STATUS_SUCCESS},
    };
    for (const auto& c : cases) {
        char text[200];
        std::snprintf(text, sizeof text, "%s returns %s (%d): %s", c.what,
                      cublasGetStatusName(c.got), int(c.got), cublasGetStatusString(c.got));
        expect(c.got == c.want, text);
    }
    r = 5;
    CUBLAS_CHECK(cublasSdot(handle, 0, d, 1, d, 1, &r));
    expect(r == 0, "sdot of 0 elements is 0");
    CHECK(cudaFree(d));
}

// What cuBLAS does rather than refuses, as an H100 showed: gemv with n < 0 leaves y alone, and
// a stride of 0 reads the first element of x each time.
static void lenient_gemv(cublasHandle_t handle) {
    std::vector<float> A(16, 1.0f), x = {1, 2, 3, 4}, y(4, -1.0f);
    float* d_A = to_device(A);
    float* d_x = to_device(x);
    float* d_y = to_device(y);
    float one = 1, zero = 0;
    cublasStatus_t s = cublasSgemv(handle, CUBLAS_OP_N, 4, -2, &one, d_A, 4, d_x, 1, &zero, d_y, 1);
    CHECK(cudaMemcpy(y.data(), d_y, sizeof(float) * 4, cudaMemcpyDeviceToHost));
    expect(s == CUBLAS_STATUS_SUCCESS && y == std::vector<float>(4, -1.0f),
           "gemv with n < 0 succeeds and leaves y alone");
    s = cublasSgemv(handle, CUBLAS_OP_N, 4, 4, &one, d_A, 4, d_x, 0, &zero, d_y, 1);
    CHECK(cudaMemcpy(y.data(), d_y, sizeof(float) * 4, cudaMemcpyDeviceToHost));
    expect(s == CUBLAS_STATUS_SUCCESS && y == std::vector<float>(4, 4.0f),
           "gemv with incx = 0 multiplies by x[0] repeated: every y is 4");
    CHECK(cudaFree(d_A));
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_y));
}

// Pointer mode device: alpha read by the kernel, the dot product left in device memory.
static void device_pointer_mode(cublasHandle_t handle) {
    std::vector<float> x = {1, 2, 3, 4}, y = {10, 20, 30, 40};
    float* d_x = to_device(x);
    float* d_y = to_device(y);
    float* d_scalars;
    float scalars[2] = {3, 0};
    CHECK(cudaMalloc(&d_scalars, sizeof scalars));
    CHECK(cudaMemcpy(d_scalars, scalars, sizeof scalars, cudaMemcpyHostToDevice));
    CUBLAS_CHECK(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE));
    CUBLAS_CHECK(cublasSaxpy(handle, 4, &d_scalars[0], d_x, 1, d_y, 1));  // y = (13, 26, 39, 52)
    CUBLAS_CHECK(cublasSdot(handle, 4, d_x, 1, d_y, 1, &d_scalars[1]));   // 13 + 52 + 117 + 208
    CUBLAS_CHECK(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST));
    CHECK(cudaMemcpy(scalars, d_scalars, sizeof scalars, cudaMemcpyDeviceToHost));
    char text[120];
    std::snprintf(text, sizeof text,
                  "pointer mode device: alpha and the dot product in device memory (%g)",
                  scalars[1]);
    expect(scalars[1] == 390, text);
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_y));
    CHECK(cudaFree(d_scalars));
}

int main() {
    cublasHandle_t handle;
    CUBLAS_CHECK(cublasCreate(&handle));
    cudaStream_t stream;
    CHECK(cudaStreamCreate(&stream));
    CUBLAS_CHECK(cublasSetStream(handle, stream));
    cudaStream_t got = nullptr;
    CUBLAS_CHECK(cublasGetStream(handle, &got));
    expect(got == stream, "cublasGetStream returns the stream set");

    level1<float>(handle, "float", 1e-4);
    level1<double>(handle, "double", 1e-12);
    level2_3<float>(handle, "float", 1e-4);
    level2_3<double>(handle, "double", 1e-12);
    statuses(handle);
    lenient_gemv(handle);
    device_pointer_mode(handle);

    CUBLAS_CHECK(cublasDestroy(handle));
    CHECK(cudaStreamDestroy(stream));
    std::printf(failures == 0 ? "PASS\n" : "FAILED: %d checks\n", failures);
    return failures == 0 ? 0 : 1;
}
