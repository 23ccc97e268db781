// Lesson 03: ufuncs. A function of scalars, applied to whole arrays by a kernel that runs one
// thread per element, as Numba's @vectorize(target='cuda') does. Four of them: a hypotenuse, a
// gaussian probability density, a polar distance built from __device__ helpers, and an addition
// of a column vector to a matrix (2-D broadcasting). The gaussian is timed against the CPU loop,
// and once more with the fast intrinsic __expf.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>
#include <simt/simt.hpp>  // simt::gpu_elapsed_time: the GPU's time, measured or predicted

// Stop at the runtime call that failed, with its line (lesson 01).
#define CHECK(call) check((call), #call, __FILE__, __LINE__)
void check(cudaError_t err, const char* call, const char* file, int line) {
    if (err == cudaSuccess) return;
    std::fprintf(stderr, "%s:%d: %s: %s\n", file, line, call, cudaGetErrorString(err));
    std::exit(EXIT_FAILURE);
}

// An argument of a ufunc is an array, read at the thread's index, or a scalar, which every
// element sees (broadcast). A pointer matches both; C++ picks the more specialised first one.
template <class T>
__device__ const T& element(T* array, int i) { return array[i]; }
template <class T>
__device__ T element(T scalar, int) { return scalar; }

// A column vector against a matrix of `cols` columns stored row after row (NumPy's b[:, None]
// against an m x cols array): element i of the matrix is in row i / cols, and every element of
// a row sees that row's value. The overload is more specialised than the scalar one, so C++
// picks it for a Column.
template <class T>
struct Column {
    const T* data;
    int cols;
};
template <class T>
__device__ T element(Column<T> column, int i) { return column.data[i / column.cols]; }

// What @vectorize writes for you: out[i] = F(in[i]...) for every i, in a grid-stride loop
// (lesson 05), so that any grid covers any n. F is a __device__ function, fixed when the kernel
// is compiled, so the call is inlined as if written in the loop.
template <auto F, class Out, class... In>
__global__ void ufunc(Out* out, int n, In... in) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        out[i] = F(element(in, i)...);
}

// The functions of one element. sqrtf, expf, cosf and sinf are the float versions; sqrt, exp,
// cos and sin of a double compute in double.
__device__ float hypotenuse(float a, float b) { return sqrtf(a * a + b * b); }

__device__ int add(int x, int y) { return x + y; }

__device__ float gaussian_pdf(float x, float mean, float sigma) {
    const float inv_sqrt_2pi = 0.3989422804014327f;
    float z = (x - mean) / sigma;
    return inv_sqrt_2pi / sigma * expf(-0.5f * z * z);
}

// __expf is a multiply by log2(e) and the hardware's approximate 2^x: 2 instructions, against
// about 10 for expf, and an error that grows with |x|. nvcc --use_fast_math makes every expf in
// the file an __expf.
__device__ float gaussian_pdf_fast(float x, float mean, float sigma) {
    const float inv_sqrt_2pi = 0.3989422804014327f;
    float z = (x - mean) / sigma;
    return inv_sqrt_2pi / sigma * __expf(-0.5f * z * z);
}

// Every launch of ufunc<F> above makes the compiler instantiate the template for that F and
// those argument types, where the launch is (implicit instantiation). An explicit
// instantiation compiles it here for the types named, whether or not a launch uses them: the
// C++ counterpart of giving Numba's @vectorize its signatures, which compiles eagerly instead of
// at the first call. This one is for a gaussian over doubles, which no launch below uses.
__device__ double gaussian_pdf_d(double x, double mean, double sigma) {
    double z = (x - mean) / sigma;
    return 0.3989422804014327 / sigma * exp(-0.5 * z * z);
}
template __global__ void ufunc<gaussian_pdf_d, double, double*, double, double>(double*, int, double*, double, double);

// Device functions call device functions; on a GPU they are inlined, so small helpers are free.
__device__ float polar_to_x(float rho, float theta) { return rho * cosf(theta); }
__device__ float polar_to_y(float rho, float theta) { return rho * sinf(theta); }

__device__ float polar_distance(float rho1, float theta1, float rho2, float theta2) {
    float dx = polar_to_x(rho1, theta1) - polar_to_x(rho2, theta2);
    float dy = polar_to_y(rho1, theta1) - polar_to_y(rho2, theta2);
    return sqrtf(dx * dx + dy * dy);
}

__device__ double polar_distance_d(double r1, double t1, double r2, double t2) {
    double dx = r1 * cos(t1) - r2 * cos(t2), dy = r1 * sin(t1) - r2 * sin(t2);
    return sqrt(dx * dx + dy * dy);
}

// Device memory holding a copy of a host vector.
template <class T>
T* to_device(const std::vector<T>& host) {
    T* d;
    CHECK(cudaMalloc(&d, host.size() * sizeof(T)));
    CHECK(cudaMemcpy(d, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

template <class T>
std::vector<T> to_host(const T* d, int n) {
    std::vector<T> host(n);
    CHECK(cudaMemcpy(host.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
}

int main() {
    const int n = 100000;
    const float pi = 3.14159265f;
    const int threads = 256, blocks = (n + threads - 1) / threads;

    // 1. hypot over two arrays: copied in, computed, copied out, as Numba does with host arrays.
    std::vector<float> a(n), b(n);
    for (int i = 0; i < n; ++i) a[i] = static_cast<float>(i % 7), b[i] = static_cast<float>(i % 5);
    float *d_a = to_device(a), *d_b = to_device(b), *d_h;
    CHECK(cudaMalloc(&d_h, n * sizeof(float)));
    ufunc<hypotenuse><<<blocks, threads>>>(d_h, n, d_a, d_b);
    CHECK(cudaGetLastError());
    std::vector<float> h = to_host(d_h, n);
    CHECK(cudaFree(d_a));
    CHECK(cudaFree(d_b));
    CHECK(cudaFree(d_h));

    // 1b. 2-D broadcasting, as the tutorial's add_ufunc(b_col, c): a column of 4 added to every
    //     column of a 4x4 matrix. The kernel sees 16 elements; a Column reads row i / 4.
    std::vector<int> col{11, 12, 13, 14}, mat(16);
    for (int i = 0; i < 16; ++i) mat[i] = i;
    int *d_col = to_device(col), *d_mat = to_device(mat), *d_sum;
    CHECK(cudaMalloc(&d_sum, 16 * sizeof(int)));
    ufunc<add><<<1, 32>>>(d_sum, 16, Column<int>{d_col, 4}, d_mat);
    CHECK(cudaGetLastError());
    std::vector<int> sum = to_host(d_sum, 16);
    for (int* d : {d_col, d_mat, d_sum}) CHECK(cudaFree(d));

    // 2. The gaussian density; mean and sigma are scalars, broadcast to every element. The input
    //    stays on the device and the result goes to an output array there (Numba's out=).
    std::vector<float> xs(n);
    for (int i = 0; i < n; ++i) xs[i] = -5.0f + 10.0f * i / n;
    float *d_x = to_device(xs), *d_density;
    CHECK(cudaMalloc(&d_density, n * sizeof(float)));
    ufunc<gaussian_pdf><<<blocks, threads>>>(d_density, n, d_x, 0.0f, 1.0f);
    CHECK(cudaGetLastError());
    std::vector<float> pdf = to_host(d_density, n);

    // 2b. Timed against the CPU loop, as the tutorial timed SciPy: each the mean of `repeats`
    //     runs, after one untimed run (for the device: the first launch loads the module).
    const int repeats = 3;
    std::vector<float> cpu_pdf(n);
    auto cpu_loop = [&] {
        for (int i = 0; i < n; ++i) {
            float z = xs[i];
            cpu_pdf[i] = 0.3989422804014327f * std::exp(-0.5f * z * z);
        }
    };
    cpu_loop();
    auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < repeats; ++r) cpu_loop();
    double cpu_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / repeats;
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    auto time_kernel = [&](auto launch) {
        launch();
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(start));
        for (int r = 0; r < repeats; ++r) launch();
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        float ms = 0;
        CHECK(simt::gpu_elapsed_time(&ms, start, stop));
        return ms / repeats;
    };
    float kernel_ms = time_kernel([&] { ufunc<gaussian_pdf><<<blocks, threads>>>(d_density, n, d_x, 0.0f, 1.0f); });
    float *d_fast;
    CHECK(cudaMalloc(&d_fast, n * sizeof(float)));
    float fast_ms = time_kernel([&] { ufunc<gaussian_pdf_fast><<<blocks, threads>>>(d_fast, n, d_x, 0.0f, 1.0f); });
    std::vector<float> pdf_fast = to_host(d_fast, n);
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(d_fast));
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_density));

    // 3. The distance between two points given in polar coordinates, in float and in double.
    std::vector<float> r1(n, 1.0f), t1(n), r2(n, 2.0f), t2(n, 0.0f);
    for (int i = 0; i < n; ++i) t1[i] = 2 * pi * i / n;
    float *d_r1 = to_device(r1), *d_t1 = to_device(t1), *d_r2 = to_device(r2),
          *d_t2 = to_device(t2), *d_dist;
    CHECK(cudaMalloc(&d_dist, n * sizeof(float)));
    ufunc<polar_distance><<<blocks, threads>>>(d_dist, n, d_r1, d_t1, d_r2, d_t2);
    CHECK(cudaGetLastError());
    std::vector<float> dist = to_host(d_dist, n);

    std::vector<double> r1d(r1.begin(), r1.end()), t1d(t1.begin(), t1.end()),
        r2d(r2.begin(), r2.end()), t2d(t2.begin(), t2.end());
    double *d_r1d = to_device(r1d), *d_t1d = to_device(t1d), *d_r2d = to_device(r2d),
           *d_t2d = to_device(t2d), *d_dist_d;
    CHECK(cudaMalloc(&d_dist_d, n * sizeof(double)));
    ufunc<polar_distance_d><<<blocks, threads>>>(d_dist_d, n, d_r1d, d_t1d, d_r2d, d_t2d);
    CHECK(cudaGetLastError());
    std::vector<double> dist_d = to_host(d_dist_d, n);
    for (float* d : {d_r1, d_t1, d_r2, d_t2, d_dist}) CHECK(cudaFree(d));
    for (double* d : {d_r1d, d_t1d, d_r2d, d_t2d, d_dist_d}) CHECK(cudaFree(d));

    // The CPU references, with tolerances for float arithmetic.
    int bad = 0;
    for (int i = 0; i < 16; ++i) bad += sum[i] != col[i / 4] + mat[i];
    double worst_float = 0, worst_expf = 0, worst_fast = 0;
    for (int i = 0; i < n; ++i) {
        bad += std::fabs(h[i] - std::hypot(a[i], b[i])) > 1e-5f;
        double g = 0.3989422804014327 * std::exp(-0.5 * double(xs[i]) * xs[i]);
        bad += std::fabs(pdf[i] - g) > 1e-6;
        bad += std::fabs(pdf_fast[i] - g) > 1e-6;
        bad += std::fabs(cpu_pdf[i] - g) > 1e-6;
        worst_expf = std::max(worst_expf, std::fabs(pdf[i] - g));
        worst_fast = std::max(worst_fast, std::fabs(pdf_fast[i] - g));
        double d = std::sqrt(5.0 - 4.0 * std::cos(double(t1[i])));  // law of cosines
        bad += std::fabs(dist_d[i] - d) > 1e-12;
        worst_float = std::max(worst_float, std::fabs(dist[i] - d));
        bad += std::fabs(dist[i] - d) > 1e-5;
    }
    // a[24] = 24 % 7 = 3 and b[24] = 24 % 5 = 4.
    std::printf("-- ufuncs over %d elements\n", n);
    std::printf("hypot(3, 4) = %.1f; hypot(a[9], b[9]) = hypot(2, 4) = %.4f\n", double(h[24]),
                double(h[9]));
    std::printf("column (11, 12, 13, 14) plus the 4x4 matrix 0..15: %d %d %d %d / %d %d %d %d / "
                "%d %d %d %d / %d %d %d %d\n",
                sum[0], sum[1], sum[2], sum[3], sum[4], sum[5], sum[6], sum[7], sum[8], sum[9],
                sum[10], sum[11], sum[12], sum[13], sum[14], sum[15]);
    std::printf("gaussian pdf at 0: %.6f (1/sqrt(2 pi) = 0.398942)\n", pdf[n / 2]);
    std::printf("gaussian, the mean of %d runs: CPU loop %.3f ms (this machine's wall clock), "
                "kernel %.2f us, with __expf %.2f us (GPU time: %s)\n",
                repeats, cpu_ms, kernel_ms * 1e3, fast_ms * 1e3, simt::gpu_time_label().c_str());
    std::printf("gaussian's worst error against double: expf %.2g, __expf %.2g\n", worst_expf,
                worst_fast);
    std::printf("polar distance: float's worst error %.2g, double's within 1e-12\n", worst_float);
    double checksum = 0;
    for (int i = 0; i < n; i += 100)
        checksum += std::round(pdf[i] * 1e4) + std::round(dist_d[i] * 1e4);
    std::printf("checksum %.0f\n", checksum);
    if (bad) {
        std::printf("FAILED: %d results differ from the CPU reference\n", bad);
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
