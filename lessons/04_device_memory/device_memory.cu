// Lesson 04: host memory and device memory. A kernel can only read device memory, so host data
// is copied in and results copied out. Copying everything around every launch (what Numba does
// when given NumPy arrays) pays for the copies every time; keeping the arrays on the device
// between launches pays once.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

// Stop at the runtime call that failed, with its line (lesson 01).
#define CHECK(call) check((call), #call, __FILE__, __LINE__)
void check(cudaError_t err, const char* call, const char* file, int line) {
    if (err == cudaSuccess) return;
    std::fprintf(stderr, "%s:%d: %s: %s\n", file, line, call, cudaGetErrorString(err));
    std::exit(EXIT_FAILURE);
}

__global__ void add(const float* x, const float* y, float* out, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        out[i] = x[i] + y[i];
}

// One launch on host arrays, done the way Numba does it when a kernel is given NumPy arrays:
// every array is copied in and, as the kernel may have written it, back out. Here only out
// comes back, since x and y are const.
void add_copying_around(const std::vector<float>& x, const std::vector<float>& y,
                        std::vector<float>& out) {
    int n = static_cast<int>(x.size());
    size_t bytes = n * sizeof(float);
    float *d_x, *d_y, *d_out;
    CHECK(cudaMalloc(&d_x, bytes));
    CHECK(cudaMalloc(&d_y, bytes));
    CHECK(cudaMalloc(&d_out, bytes));
    CHECK(cudaMemcpy(d_x, x.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_y, y.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_out, out.data(), bytes, cudaMemcpyHostToDevice));
    add<<<64, 256>>>(d_x, d_y, d_out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out.data(), d_out, bytes, cudaMemcpyDeviceToHost));  // waits for the kernel
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_y));
    CHECK(cudaFree(d_out));
}

double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

int main() {
    const int n = 1 << 20, launches = 10;
    const size_t bytes = n * sizeof(float);
    std::vector<float> x(n), y(n), out(n);
    for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i % 1000), y[i] = 0.25f;

    std::printf("-- %d launches over %d floats\n", launches, n);
    // 1. Host arrays: 3 copies in and 1 out around each launch.
    auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < launches; ++k) add_copying_around(x, y, out);
    double copied_around = ms_since(t0);
    std::vector<float> around_result = out;

    // 2. Device arrays: copy the inputs once, allocate the output on the device, copy back once.
    t0 = std::chrono::steady_clock::now();
    float *d_x, *d_y, *d_out;
    CHECK(cudaMalloc(&d_x, bytes));
    CHECK(cudaMalloc(&d_y, bytes));
    CHECK(cudaMemcpy(d_x, x.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_y, y.data(), bytes, cudaMemcpyHostToDevice));
    // No copy for the output: the kernel writes every element. Its contents are undefined until
    // then, like Numba's cuda.device_array.
    CHECK(cudaMalloc(&d_out, bytes));
    for (int k = 0; k < launches; ++k) {
        add<<<64, 256>>>(d_x, d_y, d_out, n);
        CHECK(cudaGetLastError());
    }
    std::vector<float> kept_result(n);
    // A copy on the default stream waits for the kernels queued before it, then copies.
    CHECK(cudaMemcpy(kept_result.data(), d_out, bytes, cudaMemcpyDeviceToHost));
    double kept = ms_since(t0);
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_y));
    CHECK(cudaFree(d_out));

    std::printf("host arrays, copied around every launch:    %9.2f ms\n", copied_around);
    std::printf("device arrays, copied once each way:        %9.2f ms\n", kept);
    std::printf("d_out: %zu bytes from cudaMalloc; a pointer carries no size, so the kernel is "
                "given n\n", bytes);

    int bad = 0;
    double checksum = 0;
    for (int i = 0; i < n; ++i) {
        float expect = x[i] + y[i];
        bad += (around_result[i] != expect) + (kept_result[i] != expect);
        checksum += kept_result[i];
    }
    std::printf("both ways match the CPU: %s\n", bad ? "no" : "yes");
    std::printf("checksum %.2f\n", checksum);
    if (bad) {
        std::printf("FAILED: %d results differ from the CPU reference\n", bad);
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
