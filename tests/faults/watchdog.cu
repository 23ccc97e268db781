// Kernels that run long on purpose, one per argument: the watchdog stops those that make no
// progress, with the line where they spin, and leaves alone those that do.
#include <cstdio>
#include <cstring>

// No barrier: the block's other threads run only after this one, and nothing sets the flag.
__global__ void wait_for_flag(const volatile int* flag, int* out) {
    while (flag[0] == 0) {
    }
    out[threadIdx.x] = 1;
}

// No memory at all: a loop whose condition never changes.
__global__ void count_forever(int* out) {
    volatile unsigned n = 0;
    for (unsigned i = 1; i != 0; i = i * 3 % 7 + 1) n = n + i;
    out[threadIdx.x] = n;
}

// Each block a few milliseconds of real work: slow, and always making progress.
__global__ void slow_sum(const float* in, float* out, int n, int rounds) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0;
    for (int r = 0; r < rounds; ++r) s += in[(i + r) % n] * 0.5f;
    out[i] = s;
}

// One thread, no barrier, no other block: only the addresses it reads show that it moves.
__global__ void one_long_sum(const float* in, float* out, int n, int rounds) {
    float s = 0;
    for (int r = 0; r < rounds; ++r)
        for (int i = 0; i < n; ++i) s += in[i];
    out[0] = s;
}

// Each block waits a few milliseconds of wall time: a launch that finishes blocks for seconds in
// any build, checked or not.
__global__ void wait_a_while(long long ns) {
    long long start = clock64();
    while (clock64() - start < ns) {
    }
}

int main(int argc, char** argv) {
    const char* mode = argc > 1 ? argv[1] : "";
    auto is = [&](const char* m) { return std::strcmp(mode, m) == 0; };
    int *d_flag, *d_out;
    cudaMalloc(&d_flag, sizeof(int));
    cudaMemset(d_flag, 0, sizeof(int));
    cudaMalloc(&d_out, 64 * sizeof(int));
    if (is("spin")) {
        wait_for_flag<<<1, 32>>>(d_flag, d_out);
    } else if (is("compute-forever")) {
        count_forever<<<1, 32>>>(d_out);
    } else if (is("slow")) {
        // About 6 s on one core with every check on; the watchdog must see it finish blocks.
        int blocks = 1400, threads = 64, n = blocks * threads;
        float *d_in, *d_sum;
        cudaMalloc(&d_in, n * sizeof(float));
        cudaMalloc(&d_sum, n * sizeof(float));
        cudaMemset(d_in, 0, n * sizeof(float));
        slow_sum<<<blocks, threads>>>(d_in, d_sum, n, 4000);
        cudaError_t e = cudaDeviceSynchronize();
        std::printf("slow: %s\n", cudaGetErrorName(e));
        cudaFree(d_in);
        cudaFree(d_sum);
        return e == cudaSuccess ? 0 : 1;
    } else if (is("timed")) {
        wait_a_while<<<1000, 1>>>(4000000);  // 4 ms a block: 2 s or more on two cores
        cudaError_t e = cudaDeviceSynchronize();
        std::printf("timed: %s\n", cudaGetErrorName(e));
        return e == cudaSuccess ? 0 : 1;
    } else if (is("one-long-thread")) {
        // About 6 s with every check on: 300 passes over 4 MiB.
        const int n = 1 << 20, rounds = 300;
        float *d_in, *d_sum;
        cudaMalloc(&d_in, n * sizeof(float));
        cudaMalloc(&d_sum, sizeof(float));
        cudaMemset(d_in, 0, n * sizeof(float));
        one_long_sum<<<1, 1>>>(d_in, d_sum, n, rounds);
        cudaError_t e = cudaDeviceSynchronize();
        std::printf("one long thread: %s\n", cudaGetErrorName(e));
        cudaFree(d_in);
        cudaFree(d_sum);
        return e == cudaSuccess ? 0 : 1;
    } else {
        std::fprintf(stderr, "watchdog: unknown mode '%s'\n", mode);
        return 64;
    }
    cudaError_t e = cudaDeviceSynchronize();
    std::printf("after the launch: %s\n", cudaGetErrorName(e));
    return e == cudaSuccess ? 0 : 1;
}
