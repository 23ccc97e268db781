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
// every array is allocated on the device, copied in and, as the kernel may have written it, back
// out, then freed. Here only out comes back, since x and y are const.
void add_copying_around(const std::vector<float>& x, const std::vector<float>& y,
                        std::vector<float>& out, int blocks) {
    int n = static_cast<int>(x.size());
    size_t bytes = n * sizeof(float);
    float *d_x, *d_y, *d_out;
    CHECK(cudaMalloc(&d_x, bytes));
    CHECK(cudaMalloc(&d_y, bytes));
    CHECK(cudaMalloc(&d_out, bytes));
    CHECK(cudaMemcpy(d_x, x.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_y, y.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_out, out.data(), bytes, cudaMemcpyHostToDevice));
    add<<<blocks, 256>>>(d_x, d_y, d_out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out.data(), d_out, bytes, cudaMemcpyDeviceToHost));  // waits for the kernel
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_y));
    CHECK(cudaFree(d_out));
}

// The same copies without the allocations: the buffers are the caller's, made once. The time
// between this and add_copying_around is what three cudaMalloc/cudaFree pairs cost.
void add_copying_only(const std::vector<float>& x, const std::vector<float>& y,
                      std::vector<float>& out, float* d_x, float* d_y, float* d_out, int blocks) {
    int n = static_cast<int>(x.size());
    size_t bytes = n * sizeof(float);
    CHECK(cudaMemcpy(d_x, x.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_y, y.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_out, out.data(), bytes, cudaMemcpyHostToDevice));
    add<<<blocks, 256>>>(d_x, d_y, d_out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out.data(), d_out, bytes, cudaMemcpyDeviceToHost));
}

double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

int main() {
    const int n = 1 << 19, launches = 4;
    const size_t bytes = n * sizeof(float);
    std::vector<float> x(n), y(n), out(n);
    for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i % 1000), y[i] = 0.25f;

    // The first runtime call creates the context (tens to hundreds of ms on a GPU): not timed.
    CHECK(cudaFree(0));
    // Four blocks per multiprocessor keep every multiprocessor busy (lesson 05); 64 blocks would
    // leave most of an A100's 108 idle.
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const int blocks = 4 * sms;

    float *d_x, *d_y, *d_out;
    CHECK(cudaMalloc(&d_x, bytes));
    CHECK(cudaMalloc(&d_y, bytes));
    CHECK(cudaMalloc(&d_out, bytes));
    // Warm-up: the first launch loads the kernel's module, and the first copies touch fresh pages.
    add_copying_only(x, y, out, d_x, d_y, d_out, blocks);

    std::printf("-- %d launches over %d floats, %d blocks of 256 threads; times on this machine's "
                "wall clock\n", launches, n, blocks);
    // 1. Host arrays, as Numba does it: 3 allocations, 3 copies in, 1 out and 3 frees per launch.
    auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < launches; ++k) add_copying_around(x, y, out, blocks);
    double copied_around = ms_since(t0);
    std::vector<float> around_result = out;

    // 2. The same copies into buffers allocated once: the copies alone.
    t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < launches; ++k) add_copying_only(x, y, out, d_x, d_y, d_out, blocks);
    double copies_only = ms_since(t0);

    // 3. Device arrays: copy the inputs once, no copy for the output, copy back once.
    t0 = std::chrono::steady_clock::now();
    CHECK(cudaMemcpy(d_x, x.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_y, y.data(), bytes, cudaMemcpyHostToDevice));
    // No copy for the output: the kernel writes every element (a cudaMalloc'd output's contents
    // are undefined until then, like Numba's cuda.device_array).
    for (int k = 0; k < launches; ++k) {
        add<<<blocks, 256>>>(d_x, d_y, d_out, n);
        CHECK(cudaGetLastError());
    }
    std::vector<float> kept_result(n);
    // A copy on the default stream waits for the kernels queued before it, then copies.
    CHECK(cudaMemcpy(kept_result.data(), d_out, bytes, cudaMemcpyDeviceToHost));
    double kept = ms_since(t0);
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_y));
    CHECK(cudaFree(d_out));

    std::printf("host arrays, allocated and copied around every launch: %9.2f ms\n", copied_around);
    std::printf("host arrays, copied around every launch:               %9.2f ms\n", copies_only);
    std::printf("device arrays, copied once each way:                   %9.2f ms\n", kept);
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
