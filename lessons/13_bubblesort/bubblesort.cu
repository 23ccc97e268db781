// Lesson 13: a kernel run by a single thread (a bubble sort), how a kernel's parameter types are
// its signature, and how to step through a CUDA thread with gdb: in the simulator a kernel is
// ordinary C++ running on a fiber, so breakpoints, `bt` and `print` work as they do on the CPU.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t err_ = (call);                                                       \
        if (err_ != cudaSuccess) {                                                       \
            std::fprintf(stderr, "%s:%d: %s (%s)\n", __FILE__, __LINE__,                 \
                         cudaGetErrorString(err_), cudaGetErrorName(err_));              \
            std::exit(EXIT_FAILURE);                                                     \
        }                                                                                \
    } while (0)

// A __device__ function: called from kernels, inlined on the GPU.
__device__ void swap_elements(int* a, int i, int j) {
    int t = a[i];
    a[i] = a[j];
    a[j] = t;
}

// One thread does all the work: correct, and a fine way to debug logic, but it leaves every
// other core of the device idle.
__global__ void bubblesort(int* a, int n) {
    for (int pass = 0; pass < n; ++pass)
        for (int j = 0; j + 1 < n - pass; ++j)
            if (a[j] > a[j + 1]) swap_elements(a, j, j + 1);  // try: break bubblesort.cu:33
}

// The signature is the parameter list: this kernel takes doubles and a float step. Passing a
// float* where double* is expected does not compile; a value converts as in C++.
__global__ void increment_by(double* a, int n, float step) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] += step;
}

int main() {
    std::vector<int> data{29, 3, 71, 18, 5, 42, 11, 64, 0, 37, 90, 23, 8, 56, 14, 77};
    const int n = static_cast<int>(data.size());
    int* d_data;
    CHECK(cudaMalloc(&d_data, n * sizeof(int)));
    CHECK(cudaMemcpy(d_data, data.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    bubblesort<<<1, 1>>>(d_data, n);  // one block of one thread
    CHECK(cudaGetLastError());
    std::vector<int> sorted(n);
    CHECK(cudaMemcpy(sorted.data(), d_data, n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_data));

    std::vector<double> v(10, 1.0);
    double* d_v;
    CHECK(cudaMalloc(&d_v, v.size() * sizeof(double)));
    CHECK(cudaMemcpy(d_v, v.data(), v.size() * sizeof(double), cudaMemcpyHostToDevice));
    increment_by<<<1, 32>>>(d_v, static_cast<int>(v.size()), 0.5f);
    CHECK(cudaGetLastError());
    std::vector<double> inc(v.size());
    CHECK(cudaMemcpy(inc.data(), d_v, v.size() * sizeof(double), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_v));

    std::printf("-- bubble sort in one GPU thread\n");
    for (int x : sorted) std::printf("%d ", x);
    std::printf("\n");
    std::vector<int> expect = data;
    std::sort(expect.begin(), expect.end());
    bool ok = sorted == expect && inc == std::vector<double>(10, 1.5);
    long checksum = 0;
    for (size_t i = 0; i < sorted.size(); ++i) checksum += static_cast<long>(i + 1) * sorted[i];
    std::printf("-- increment_by(double*, int, float): %.1f ... %.1f\n", inc.front(), inc.back());
    std::printf("checksum %ld\n", checksum);
    if (!ok) {
        std::printf("FAILED: the results differ from the CPU reference\n");
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
