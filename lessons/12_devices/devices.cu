// Lesson 12: which device is this, what can it do, and when is it worth using?
// cudaGetDeviceCount and cudaGetDeviceProperties list the devices and their limits. Then the
// classic VectorAdd, timed against a plain CPU loop, with the copies counted, to see why the
// device loses on it.
#include <chrono>
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

__global__ void vector_add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

int main() {
    std::printf("-- the devices\n");
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || count == 0) {
        std::printf("no CUDA device found: %s\n", cudaGetErrorString(err));
        return 1;
    }
    for (int d = 0; d < count; ++d) {
        cudaDeviceProp p;
        CHECK(cudaGetDeviceProperties(&p, d));
        std::printf("device %d: %s, compute capability %d.%d\n", d, p.name, p.major, p.minor);
        std::printf("  %d multiprocessors, warp size %d\n", p.multiProcessorCount, p.warpSize);
        std::printf("  at most %d threads per block, block dims (%d, %d, %d), grid dims (%d, %d, %d)\n",
                    p.maxThreadsPerBlock, p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2],
                    p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
        std::printf("  shared memory per block: %zu bytes (%zu with opt-in)\n", p.sharedMemPerBlock,
                    p.sharedMemPerBlockOptin);
    }
    CHECK(cudaSetDevice(0));  // what every later call uses (device 0 is also the default)

    const int n = 1 << 20;
    const size_t bytes = n * sizeof(float);
    std::vector<float> a(n), b(n), c_cpu(n), c_dev(n);
    for (int i = 0; i < n; ++i) a[i] = 0.5f * i, b[i] = 1.0f - i;

    std::printf("-- VectorAdd over %d floats; times on this machine's wall clock\n", n);
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i) c_cpu[i] = a[i] + b[i];
    double cpu = ms_since(t0);

    // Everything the device version has to do: copy in, add, copy out.
    const int threads = 256, blocks = (n + threads - 1) / threads;
    float *d_a, *d_b, *d_c;
    t0 = std::chrono::steady_clock::now();
    CHECK(cudaMalloc(&d_a, bytes));
    CHECK(cudaMalloc(&d_b, bytes));
    CHECK(cudaMalloc(&d_c, bytes));
    CHECK(cudaMemcpy(d_a, a.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_b, b.data(), bytes, cudaMemcpyHostToDevice));
    double copy_in = ms_since(t0);
    // A warm-up launch, left out of every figure: a GPU loads the kernel's code at its first
    // launch, which would otherwise be timed as the kernel.
    auto warm = std::chrono::steady_clock::now();
    vector_add<<<blocks, threads>>>(d_a, d_b, d_c, n);
    CHECK(cudaDeviceSynchronize());
    double warm_up = ms_since(warm);
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start));
    vector_add<<<blocks, threads>>>(d_a, d_b, d_c, n);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float kernel = 0;
    CHECK(cudaEventElapsedTime(&kernel, start, stop));
    auto t1 = std::chrono::steady_clock::now();
    CHECK(cudaMemcpy(c_dev.data(), d_c, bytes, cudaMemcpyDeviceToHost));
    double copy_out = ms_since(t1);
    double total = ms_since(t0) - warm_up;
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(d_a));
    CHECK(cudaFree(d_b));
    CHECK(cudaFree(d_c));

    std::printf("CPU loop:                         %9.3f ms\n", cpu);
    std::printf("device: copy a and b in           %9.3f ms\n", copy_in);
    std::printf("        the kernel                %9.3f ms\n", kernel);
    std::printf("        copy c out                %9.3f ms\n", copy_out);
    std::printf("        all of it                 %9.3f ms\n", total);

    int bad = 0;
    double checksum = 0;
    for (int i = 0; i < n; ++i) bad += c_dev[i] != c_cpu[i], checksum += c_dev[i];
    std::printf("device result equals the CPU's: %s\n", bad ? "no" : "yes");
    std::printf("checksum %.1f\n", checksum);
    if (bad) {
        std::printf("FAILED: %d elements differ from the CPU reference\n", bad);
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
