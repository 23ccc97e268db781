// cuBLAS beyond the course subset, as solvers and batched codes use it: gemm over a batch (an
// array of device pointers, and strided), the batched LU factorisation and inverse
// (getrfBatched, getriBatched), trsm, syrk and geam, in float and double, each against a CPU loop
// or the identity its result must satisfy; then the statuses of bad arguments. Prints PASS.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
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
    if (got.size() != want.size()) return false;
    for (size_t i = 0; i < want.size(); ++i)
        if (!(std::fabs(double(got[i]) - double(want[i])) <=
              tolerance * (1 + std::fabs(double(want[i])))))
            return false;
    return true;
}

/// Numbers in [-4, 4], the same for a seed on every machine.
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
    CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

template <class T>
static std::vector<T> to_host(const T* d, size_t n) {
    std::vector<T> h(n);
    CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
}

// The calls, by type.
static cublasStatus_t gemm_batched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                   int m, int n, int k, const float* a, const float* const A[],
                                   int lda, const float* const B[], int ldb, const float* b,
                                   float* const C[], int ldc, int count) {
    return cublasSgemmBatched(h, ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc, count);
}
static cublasStatus_t gemm_batched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                   int m, int n, int k, const double* a, const double* const A[],
                                   int lda, const double* const B[], int ldb, const double* b,
                                   double* const C[], int ldc, int count) {
    return cublasDgemmBatched(h, ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc, count);
}
static cublasStatus_t gemm_strided(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                   int m, int n, int k, const float* a, const float* A, int lda,
                                   long long sa, const float* B, int ldb, long long sb,
                                   const float* b, float* C, int ldc, long long sc, int count) {
    return cublasSgemmStridedBatched(h, ta, tb, m, n, k, a, A, lda, sa, B, ldb, sb, b, C, ldc, sc,
                                     count);
}
static cublasStatus_t gemm_strided(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                   int m, int n, int k, const double* a, const double* A, int lda,
                                   long long sa, const double* B, int ldb, long long sb,
                                   const double* b, double* C, int ldc, long long sc, int count) {
    return cublasDgemmStridedBatched(h, ta, tb, m, n, k, a, A, lda, sa, B, ldb, sb, b, C, ldc, sc,
                                     count);
}
static cublasStatus_t getrf(cublasHandle_t h, int n, float* const A[], int lda, int* P, int* info,
                            int count) {
    return cublasSgetrfBatched(h, n, A, lda, P, info, count);
}
static cublasStatus_t getrf(cublasHandle_t h, int n, double* const A[], int lda, int* P, int* info,
                            int count) {
    return cublasDgetrfBatched(h, n, A, lda, P, info, count);
}
static cublasStatus_t getri(cublasHandle_t h, int n, const float* const A[], int lda, const int* P,
                            float* const C[], int ldc, int* info, int count) {
    return cublasSgetriBatched(h, n, A, lda, P, C, ldc, info, count);
}
static cublasStatus_t getri(cublasHandle_t h, int n, const double* const A[], int lda,
                            const int* P, double* const C[], int ldc, int* info, int count) {
    return cublasDgetriBatched(h, n, A, lda, P, C, ldc, info, count);
}
static cublasStatus_t trsm(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,
                           cublasOperation_t t, cublasDiagType_t diag, int m, int n,
                           const float* a, const float* A, int lda, float* B, int ldb) {
    return cublasStrsm(h, side, uplo, t, diag, m, n, a, A, lda, B, ldb);
}
static cublasStatus_t trsm(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,
                           cublasOperation_t t, cublasDiagType_t diag, int m, int n,
                           const double* a, const double* A, int lda, double* B, int ldb) {
    return cublasDtrsm(h, side, uplo, t, diag, m, n, a, A, lda, B, ldb);
}
static cublasStatus_t syrk(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t t, int n,
                           int k, const float* a, const float* A, int lda, const float* b,
                           float* C, int ldc) {
    return cublasSsyrk(h, uplo, t, n, k, a, A, lda, b, C, ldc);
}
static cublasStatus_t syrk(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t t, int n,
                           int k, const double* a, const double* A, int lda, const double* b,
                           double* C, int ldc) {
    return cublasDsyrk(h, uplo, t, n, k, a, A, lda, b, C, ldc);
}
static cublasStatus_t geam(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                           int n, const float* a, const float* A, int lda, const float* b,
                           const float* B, int ldb, float* C, int ldc) {
    return cublasSgeam(h, ta, tb, m, n, a, A, lda, b, B, ldb, C, ldc);
}
static cublasStatus_t geam(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                           int n, const double* a, const double* A, int lda, const double* b,
                           const double* B, int ldb, double* C, int ldc) {
    return cublasDgeam(h, ta, tb, m, n, a, A, lda, b, B, ldb, C, ldc);
}

static const char* name(cublasOperation_t op) { return op == CUBLAS_OP_N ? "N" : "T"; }

/// alpha op(A) op(B) + beta C on the CPU, in double.
template <class T>
static std::vector<T> cpu_gemm(bool ta, bool tb, int m, int n, int k, T alpha, const T* A, int lda,
                               const T* B, int ldb, T beta, const T* C, int ldc) {
    std::vector<T> out(size_t(ldc) * n);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
            double s = 0;
            for (int l = 0; l < k; ++l)
                s += double(ta ? A[IDX2C(l, i, lda)] : A[IDX2C(i, l, lda)]) *
                     (tb ? B[IDX2C(j, l, ldb)] : B[IDX2C(l, j, ldb)]);
            out[IDX2C(i, j, ldc)] = T(alpha * s + beta * double(C[IDX2C(i, j, ldc)]));
        }
    for (int j = 0; j < n; ++j)
        for (int i = m; i < ldc; ++i) out[IDX2C(i, j, ldc)] = C[IDX2C(i, j, ldc)];
    return out;
}

/// An array of device pointers to matrices `stride` elements apart, itself in device memory.
template <class P>
static P* pointer_array(P first, int count, long long stride) {
    std::vector<P> h(count);
    for (int b = 0; b < count; ++b) h[b] = first + b * stride;
    return to_device(h);
}

// gemm over a batch of three non-square matrices, both ways of naming them, every transpose.
template <class T>
static void batched_gemm(cublasHandle_t handle, const char* type, double tol) {
    const int m = 5, n = 7, k = 4, count = 3;
    char text[200];
    for (cublasOperation_t ta : {CUBLAS_OP_N, CUBLAS_OP_T})
        for (cublasOperation_t tb : {CUBLAS_OP_N, CUBLAS_OP_T}) {
            bool a_t = ta != CUBLAS_OP_N, b_t = tb != CUBLAS_OP_N;
            // Leading dimensions past the rows, and strides past the matrices, that are never read.
            int lda = (a_t ? k : m) + 1, ldb = (b_t ? n : k) + 2, ldc = m + 3;
            long long sa = (long long)lda * (a_t ? m : k) + 5, sb = (long long)ldb * (b_t ? k : n),
                      sc = (long long)ldc * n + 1;
            std::vector<T> hA = numbers<T>(int(sa * count), 11), hB = numbers<T>(int(sb * count), 12),
                           hC = numbers<T>(int(sc * count), 13);
            std::vector<T> want = hC;
            T alpha = T(1.25), beta = T(-0.5);
            for (int b = 0; b < count; ++b) {
                std::vector<T> c = cpu_gemm(a_t, b_t, m, n, k, alpha, &hA[b * sa], lda, &hB[b * sb],
                                            ldb, beta, &hC[b * sc], ldc);
                std::copy(c.begin(), c.end(), want.begin() + b * sc);
            }
            T* dA = to_device(hA);
            T* dB = to_device(hB);
            T* dC = to_device(hC);
            CUBLAS_CHECK(gemm_strided(handle, ta, tb, m, n, k, &alpha, dA, lda, sa, dB, ldb, sb,
                                      &beta, dC, ldc, sc, count));
            std::snprintf(text, sizeof text,
                          "%s gemmStridedBatched %s%s of %d (%dx%d, k = %d) matches the CPU loop",
                          type, name(ta), name(tb), count, m, n, k);
            expect(close(to_host(dC, hC.size()), want, tol), text);

            // The same products through arrays of pointers.
            CHECK(cudaMemcpy(dC, hC.data(), hC.size() * sizeof(T), cudaMemcpyHostToDevice));
            const T** dAs = pointer_array<const T*>(dA, count, sa);
            const T** dBs = pointer_array<const T*>(dB, count, sb);
            T** dCs = pointer_array<T*>(dC, count, sc);
            CUBLAS_CHECK(gemm_batched(handle, ta, tb, m, n, k, &alpha, dAs, lda, dBs, ldb, &beta,
                                      dCs, ldc, count));
            std::snprintf(text, sizeof text,
                          "%s gemmBatched %s%s of %d through arrays of pointers matches the CPU loop",
                          type, name(ta), name(tb), count);
            expect(close(to_host(dC, hC.size()), want, tol), text);
            CHECK(cudaFree(dA));
            CHECK(cudaFree(dB));
            CHECK(cudaFree(dC));
            CHECK(cudaFree(dAs));
            CHECK(cudaFree(dBs));
            CHECK(cudaFree(dCs));
        }

    // A stride of 0 uses one A for every product, as codes that share weights do.
    std::vector<T> hA = numbers<T>(m * k, 14), hB = numbers<T>(k * n * 2, 15), hC(m * n * 2, T(0));
    T* dA = to_device(hA);
    T* dB = to_device(hB);
    T* dC = to_device(hC);
    T one = 1, zero = 0;
    CUBLAS_CHECK(gemm_strided(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, dA, m, 0, dB, k,
                              k * n, &zero, dC, m, m * n, 2));
    std::vector<T> want;
    for (int b = 0; b < 2; ++b) {
        std::vector<T> c = cpu_gemm(false, false, m, n, k, one, hA.data(), m, &hB[b * k * n], k,
                                    zero, &hC[b * m * n], m);
        want.insert(want.end(), c.begin(), c.end());
    }
    std::snprintf(text, sizeof text, "%s gemmStridedBatched with strideA = 0 shares one A", type);
    expect(close(to_host(dC, hC.size()), want, tol), text);
    CHECK(cudaFree(dA));
    CHECK(cudaFree(dB));
    CHECK(cudaFree(dC));
}

/// A well-conditioned n x n matrix that needs row swaps: a diagonally dominant one with its rows
/// reversed.
template <class T>
static std::vector<T> needs_pivots(int n, int seed) {
    std::vector<T> a = numbers<T>(n * n, seed), out(n * n);
    for (int i = 0; i < n; ++i) a[IDX2C(i, i, n)] += T(4 * n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) out[IDX2C(n - 1 - i, j, n)] = a[IDX2C(i, j, n)];
    return out;
}

// getrfBatched then getriBatched on a batch: P A = L U with cuBLAS's 1-based pivots, and
// A inv(A) = I; then a matrix with a zero column, whose second pivot is zero.
template <class T>
static void batched_lu(cublasHandle_t handle, const char* type, int n, double tol) {
    const int count = 3, lda = n + 1, size = lda * n;
    char text[200];
    std::vector<T> hA(size * count, T(0));
    for (int b = 0; b < count; ++b) {
        std::vector<T> a = needs_pivots<T>(n, 20 + b);
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) hA[b * size + IDX2C(i, j, lda)] = a[IDX2C(i, j, n)];
    }
    T* dA = to_device(hA);
    T* dC = to_device(std::vector<T>(size * count, T(0)));
    T** dAs = pointer_array<T*>(dA, count, size);
    T** dCs = pointer_array<T*>(dC, count, size);
    int *dP, *dInfo;
    CHECK(cudaMalloc(&dP, n * count * sizeof(int)));
    CHECK(cudaMalloc(&dInfo, count * sizeof(int)));
    CUBLAS_CHECK(getrf(handle, n, dAs, lda, dP, dInfo, count));
    std::vector<T> lu = to_host(dA, hA.size());
    std::vector<int> P = to_host(dP, n * count), info = to_host(dInfo, count);

    bool pivots_ok = true, product_ok = true;
    for (int b = 0; b < count; ++b) {
        // The row swaps, applied in order to A, give L U.
        std::vector<T> pa(hA.begin() + b * size, hA.begin() + (b + 1) * size);
        for (int j = 0; j < n; ++j) {
            int p = P[b * n + j];
            if (p < j + 1 || p > n) {
                pivots_ok = false;
                break;
            }
            for (int c = 0; c < n; ++c) std::swap(pa[IDX2C(j, c, lda)], pa[IDX2C(p - 1, c, lda)]);
        }
        if (!pivots_ok) break;
        const T* f = &lu[b * size];
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) {
                double s = 0;
                for (int l = 0; l <= std::min(i, j); ++l)
                    s += (l == i ? 1.0 : double(f[IDX2C(i, l, lda)])) * f[IDX2C(l, j, lda)];
                if (std::fabs(s - pa[IDX2C(i, j, lda)]) > tol * (1 + std::fabs(s)))
                    product_ok = false;
            }
    }
    std::snprintf(text, sizeof text,
                  "%s getrfBatched of %d %dx%d matrices: info 0, 1-based pivots, P A = L U", type,
                  count, n, n);
    expect(info == std::vector<int>(count, 0) && pivots_ok && product_ok, text);

    CHECK(cudaMemset(dInfo, 0xff, count * sizeof(int)));
    CUBLAS_CHECK(getri(handle, n, (const T* const*)dAs, lda, dP, dCs, lda, dInfo, count));
    std::vector<T> inv = to_host(dC, hA.size());
    info = to_host(dInfo, count);
    bool identity = true;
    for (int b = 0; b < count; ++b)
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) {
                double s = 0;
                for (int l = 0; l < n; ++l)
                    s += double(hA[b * size + IDX2C(i, l, lda)]) * inv[b * size + IDX2C(l, j, lda)];
                if (std::fabs(s - (i == j ? 1 : 0)) > tol) identity = false;
            }
    std::snprintf(text, sizeof text,
                  "%s getriBatched out of place: A inv(A) is the %dx%d identity, info 0", type, n,
                  n);
    expect(info == std::vector<int>(count, 0) && identity, text);

    // The second matrix has a zero second column: U(2,2) is 0, which both calls report.
    std::vector<T> singular = hA;
    for (int i = 0; i < n; ++i) singular[size + IDX2C(i, 1, lda)] = 0;
    CHECK(cudaMemcpy(dA, singular.data(), singular.size() * sizeof(T), cudaMemcpyHostToDevice));
    CUBLAS_CHECK(getrf(handle, n, dAs, lda, dP, dInfo, count));
    std::vector<int> rf_info = to_host(dInfo, count);
    CUBLAS_CHECK(getri(handle, n, (const T* const*)dAs, lda, dP, dCs, lda, dInfo, count));
    std::vector<int> ri_info = to_host(dInfo, count);
    std::snprintf(text, sizeof text,
                  "%s getrfBatched and getriBatched give info {0, 2, 0} for a zero second column "
                  "(got {%d, %d, %d} and {%d, %d, %d})",
                  type, rf_info[0], rf_info[1], rf_info[2], ri_info[0], ri_info[1], ri_info[2]);
    expect(rf_info == std::vector<int>({0, 2, 0}) && ri_info == rf_info, text);

    CHECK(cudaFree(dA));
    CHECK(cudaFree(dC));
    CHECK(cudaFree(dAs));
    CHECK(cudaFree(dCs));
    CHECK(cudaFree(dP));
    CHECK(cudaFree(dInfo));
}

// The reversed 3x3 identity: its pivots are exactly {3, 2, 3} and it is its own inverse.
template <class T>
static void lu_known_answer(cublasHandle_t handle, const char* type) {
    std::vector<T> a = {0, 0, 1, 0, 1, 0, 1, 0, 0};
    T* dA = to_device(a);
    T* dC = to_device(std::vector<T>(9, T(0)));
    T** dAs = to_device(std::vector<T*>{dA});
    T** dCs = to_device(std::vector<T*>{dC});
    int *dP, *dInfo;
    CHECK(cudaMalloc(&dP, 3 * sizeof(int)));
    CHECK(cudaMalloc(&dInfo, sizeof(int)));
    CUBLAS_CHECK(getrf(handle, 3, dAs, 3, dP, dInfo, 1));
    std::vector<int> P = to_host(dP, 3);
    CUBLAS_CHECK(getri(handle, 3, (const T* const*)dAs, 3, dP, dCs, 3, dInfo, 1));
    char text[160];
    std::snprintf(text, sizeof text,
                  "%s getrfBatched of the reversed identity pivots {3, 2, 3} (got {%d, %d, %d}) "
                  "and getriBatched returns it",
                  type, P[0], P[1], P[2]);
    expect(P == std::vector<int>({3, 2, 3}) && to_host(dC, 9) == a, text);
    CHECK(cudaFree(dA));
    CHECK(cudaFree(dC));
    CHECK(cudaFree(dAs));
    CHECK(cudaFree(dCs));
    CHECK(cudaFree(dP));
    CHECK(cudaFree(dInfo));
}

// trsm for each side, triangle, transpose and diagonal: the X it leaves in B satisfies
// op(A) X = alpha B (left) or X op(A) = alpha B (right). The triangle not named, and the
// diagonal when it is unit, hold 1000, which a read of them would show in X.
template <class T>
static void triangular_solve(cublasHandle_t handle, const char* type, double tol) {
    const int m = 6, n = 5;
    char text[200];
    for (cublasSideMode_t side : {CUBLAS_SIDE_LEFT, CUBLAS_SIDE_RIGHT})
        for (cublasFillMode_t uplo : {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER})
            for (cublasOperation_t t : {CUBLAS_OP_N, CUBLAS_OP_T})
                for (cublasDiagType_t diag : {CUBLAS_DIAG_NON_UNIT, CUBLAS_DIAG_UNIT}) {
                    bool left = side == CUBLAS_SIDE_LEFT, lower = uplo == CUBLAS_FILL_MODE_LOWER,
                         unit = diag == CUBLAS_DIAG_UNIT;
                    int order = left ? m : n, lda = order + 2, ldb = m + 1;
                    std::vector<T> hA = numbers<T>(lda * order, 30), hB = numbers<T>(ldb * n, 31);
                    std::vector<T> tri(order * order, T(0));  // the matrix trsm should see
                    for (int j = 0; j < order; ++j)
                        for (int i = 0; i < order; ++i) {
                            T& a = hA[IDX2C(i, j, lda)];
                            if (i == j) {
                                a = unit ? T(1000) : T(2 + i % 3);
                                tri[IDX2C(i, j, order)] = unit ? T(1) : a;
                            } else if ((i > j) == lower) {
                                a /= 8;
                                tri[IDX2C(i, j, order)] = a;
                            } else {
                                a = T(1000);
                            }
                        }
                    T* dA = to_device(hA);
                    T* dB = to_device(hB);
                    T alpha = T(-1.5);
                    CUBLAS_CHECK(trsm(handle, side, uplo, t, diag, m, n, &alpha, dA, lda, dB, ldb));
                    std::vector<T> X = to_host(dB, hB.size());
                    auto op_a = [&](int i, int j) {
                        return double(t == CUBLAS_OP_N ? tri[IDX2C(i, j, order)]
                                                       : tri[IDX2C(j, i, order)]);
                    };
                    bool ok = true;
                    for (int i = 0; i < m; ++i)
                        for (int j = 0; j < n; ++j) {
                            double s = 0;
                            for (int l = 0; l < order; ++l)
                                s += left ? op_a(i, l) * X[IDX2C(l, j, ldb)]
                                          : X[IDX2C(i, l, ldb)] * op_a(l, j);
                            double want = alpha * double(hB[IDX2C(i, j, ldb)]);
                            if (!(std::fabs(s - want) <= tol * (1 + std::fabs(want)))) ok = false;
                        }
                    for (int j = 0; j < n; ++j)  // the rows past m are B's padding, left alone
                        if (X[IDX2C(m, j, ldb)] != hB[IDX2C(m, j, ldb)]) ok = false;
                    std::snprintf(text, sizeof text,
                                  "%s trsm %s %s %s %s: %s = alpha B for a %dx%d B", type,
                                  left ? "left" : "right", lower ? "lower" : "upper", name(t),
                                  unit ? "unit" : "non-unit",
                                  left ? "op(A) X" : "X op(A)", m, n);
                    expect(ok, text);
                    CHECK(cudaFree(dA));
                    CHECK(cudaFree(dB));
                }
}

// syrk updates one triangle of C with alpha op(A) op(A)^T + beta C and leaves the other alone;
// geam adds (and transposes) matrices, also in place.
template <class T>
static void syrk_and_geam(cublasHandle_t handle, const char* type, double tol) {
    const int n = 6, k = 4, ldc = n + 1;
    char text[200];
    for (cublasFillMode_t uplo : {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER})
        for (cublasOperation_t t : {CUBLAS_OP_N, CUBLAS_OP_T}) {
            bool tr = t != CUBLAS_OP_N, lower = uplo == CUBLAS_FILL_MODE_LOWER;
            int lda = (tr ? k : n) + 1;
            std::vector<T> hA = numbers<T>(lda * (tr ? n : k), 40), hC = numbers<T>(ldc * n, 41);
            T alpha = T(0.5), beta = T(2);
            // op(A) op(A)^T is gemm with op(B) = op(A)^T, B = A.
            std::vector<T> want = cpu_gemm(tr, !tr, n, n, k, alpha, hA.data(), lda, hA.data(), lda,
                                           beta, hC.data(), ldc);
            for (int j = 0; j < n; ++j)
                for (int i = 0; i < n; ++i)
                    if ((i > j && !lower) || (i < j && lower))
                        want[IDX2C(i, j, ldc)] = hC[IDX2C(i, j, ldc)];
            T* dA = to_device(hA);
            T* dC = to_device(hC);
            CUBLAS_CHECK(syrk(handle, uplo, t, n, k, &alpha, dA, lda, &beta, dC, ldc));
            std::snprintf(text, sizeof text,
                          "%s syrk %s %s updates the %s triangle of C only, as the CPU loop", type,
                          lower ? "lower" : "upper", name(t), lower ? "lower" : "upper");
            expect(close(to_host(dC, hC.size()), want, tol), text);
            CHECK(cudaFree(dA));
            CHECK(cudaFree(dC));
        }

    // geam: C (m x n) = alpha A + beta B^T, then A^T alone (beta 0, B never read), then in place.
    const int m = 5, cols = 3;
    std::vector<T> hA = numbers<T>(m * cols, 50), hB = numbers<T>(cols * m, 51);
    T* dA = to_device(hA);
    T* dB = to_device(hB);
    T* dC = to_device(std::vector<T>(m * cols, T(0)));
    T* dT = to_device(std::vector<T>(cols * m, T(0)));
    T alpha = T(2), beta = T(-1), one = 1, zero = 0;
    CUBLAS_CHECK(geam(handle, CUBLAS_OP_N, CUBLAS_OP_T, m, cols, &alpha, dA, m, &beta, dB, cols,
                      dC, m));
    std::vector<T> want(m * cols);
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < m; ++i)
            want[IDX2C(i, j, m)] = alpha * hA[IDX2C(i, j, m)] + beta * hB[IDX2C(j, i, cols)];
    std::snprintf(text, sizeof text, "%s geam N T: C = alpha A + beta B^T matches the CPU loop",
                  type);
    expect(close(to_host(dC, want.size()), want, tol), text);

    CUBLAS_CHECK(geam(handle, CUBLAS_OP_T, CUBLAS_OP_N, cols, m, &one, dA, m, &zero, dT, cols, dT,
                      cols));
    std::vector<T> transposed(cols * m);
    for (int j = 0; j < m; ++j)
        for (int i = 0; i < cols; ++i) transposed[IDX2C(i, j, cols)] = hA[IDX2C(j, i, m)];
    std::snprintf(text, sizeof text, "%s geam with beta 0 transposes A", type);
    expect(to_host(dT, transposed.size()) == transposed, text);

    CUBLAS_CHECK(geam(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, cols, &one, dC, m, &alpha, dC, m, dC,
                      m));
    for (T& v : want) v *= 3;
    std::snprintf(text, sizeof text, "%s geam in place: C = C + 2 C", type);
    expect(close(to_host(dC, want.size()), want, tol), text);
    CHECK(cudaFree(dA));
    CHECK(cudaFree(dB));
    CHECK(cudaFree(dC));
    CHECK(cudaFree(dT));
}

// What cuBLAS documents as CUBLAS_STATUS_INVALID_VALUE, and a null handle.
static void statuses(cublasHandle_t handle) {
    float one = 1;
    float* d;
    CHECK(cudaMalloc(&d, 64 * sizeof(float)));
    CHECK(cudaMemset(d, 0, 64 * sizeof(float)));
    float** ds = to_device(std::vector<float*>{d});
    int* di;
    CHECK(cudaMalloc(&di, 8 * sizeof(int)));
    struct {
        const char* what;
        cublasStatus_t got, want;
    } cases[] = {
        {"gemmBatched with batchCount < 0",
         cublasSgemmBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, ds, 4, ds, 4, &one,
                            ds, 4, -1),
         CUBLAS_STATUS_INVALID_VALUE},
        {"gemmBatched with k < 0",
         cublasSgemmBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, -1, &one, ds, 4, ds, 4, &one,
                            ds, 4, 1),
         CUBLAS_STATUS_INVALID_VALUE},
        {"gemmStridedBatched with lda < m",
         cublasSgemmStridedBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, d, 3, 16, d, 4,
                                   16, &one, d, 4, 16, 2),
         CUBLAS_STATUS_INVALID_VALUE},
        {"gemmStridedBatched with ldc < m",
         cublasSgemmStridedBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, d, 4, 16, d, 4,
                                   16, &one, d, 2, 16, 2),
         CUBLAS_STATUS_INVALID_VALUE},
        {"getrfBatched with n < 0", cublasSgetrfBatched(handle, -1, ds, 4, di, di, 1),
         CUBLAS_STATUS_INVALID_VALUE},
        {"getrfBatched with batchSize < 0", cublasSgetrfBatched(handle, 4, ds, 4, di, di, -1),
         CUBLAS_STATUS_INVALID_VALUE},
        {"getriBatched with n < 0",
         cublasSgetriBatched(handle, -1, (const float* const*)ds, 4, di, ds, 4, di, 1),
         CUBLAS_STATUS_INVALID_VALUE},
        {"trsm with m < 0",
         cublasStrsm(handle, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                     CUBLAS_DIAG_NON_UNIT, -1, 4, &one, d, 4, d, 4),
         CUBLAS_STATUS_INVALID_VALUE},
        {"trsm left with lda < m",
         cublasStrsm(handle, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                     CUBLAS_DIAG_NON_UNIT, 4, 2, &one, d, 3, d, 4),
         CUBLAS_STATUS_INVALID_VALUE},
        {"trsm with ldb < m",
         cublasStrsm(handle, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
                     CUBLAS_DIAG_UNIT, 4, 2, &one, d, 2, d, 3),
         CUBLAS_STATUS_INVALID_VALUE},
        {"syrk with n < 0",
         cublasSsyrk(handle, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, -1, 4, &one, d, 4, &one, d, 4),
         CUBLAS_STATUS_INVALID_VALUE},
        {"syrk with ldc < n",
         cublasSsyrk(handle, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 4, 4, &one, d, 4, &one, d, 3),
         CUBLAS_STATUS_INVALID_VALUE},
        {"geam with ldc < m",
         cublasSgeam(handle, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, &one, d, 4, &one, d + 16, 4, d + 32,
                     3),
         CUBLAS_STATUS_INVALID_VALUE},
        {"geam in place with A transposed",
         cublasSgeam(handle, CUBLAS_OP_T, CUBLAS_OP_N, 4, 4, &one, d, 4, &one, d + 16, 4, d, 4),
         CUBLAS_STATUS_INVALID_VALUE},
        {"trsm with a null handle",
         cublasStrsm(nullptr, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                     CUBLAS_DIAG_NON_UNIT, 4, 4, &one, d, 4, d, 4),
         CUBLAS_STATUS_NOT_INITIALIZED},
        {"gemmStridedBatched with a batch of 0 does nothing",
         cublasSgemmStridedBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, d, 4, 16, d, 4,
                                   16, &one, d, 4, 16, 0),
         CUBLAS_STATUS_SUCCESS},
    };
    for (const auto& c : cases) {
        char text[200];
        std::snprintf(text, sizeof text, "%s returns %s (%d): %s", c.what,
                      cublasGetStatusName(c.got), int(c.got), cublasGetStatusString(c.got));
        expect(c.got == c.want, text);
    }
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(d));
    CHECK(cudaFree(ds));
    CHECK(cudaFree(di));
}

int main() {
    cublasHandle_t handle;
    CUBLAS_CHECK(cublasCreate(&handle));
    cudaStream_t stream;
    CHECK(cudaStreamCreate(&stream));
    CUBLAS_CHECK(cublasSetStream(handle, stream));

    batched_gemm<float>(handle, "float", 1e-4);
    batched_gemm<double>(handle, "double", 1e-12);
    for (int n : {4, 8}) {
        batched_lu<float>(handle, "float", n, 1e-4);
        batched_lu<double>(handle, "double", n, 1e-12);
    }
    lu_known_answer<float>(handle, "float");
    lu_known_answer<double>(handle, "double");
    triangular_solve<float>(handle, "float", 1e-4);
    triangular_solve<double>(handle, "double", 1e-12);
    syrk_and_geam<float>(handle, "float", 1e-4);
    syrk_and_geam<double>(handle, "double", 1e-12);
    statuses(handle);

    CUBLAS_CHECK(cublasDestroy(handle));
    CHECK(cudaStreamDestroy(stream));
    std::printf(failures == 0 ? "PASS\n" : "FAILED: %d checks\n", failures);
    return failures == 0 ? 0 : 1;
}
