// An atomic repeated at one line in every iteration of a loop, with barriers between, is not a
// spin: the shape of a Monte Carlo pricer that asks, step by step, whether any path of the block
// is in the money. Thread 0 resets a block-wide flag, every thread ORs its bit into it between two
// barriers, and the block skips the step's work when no bit is set. A thread whose bit and flag
// are what they were a step before repeats its atomicOr's read exactly: that is no wait for
// memory to change (block/spin.cpp), and the kernel must run to its end, clean. Plain CUDA.
// `used`: the atomicOr's result is used too (the barriers alone then say it is no spin).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

constexpr int kSteps = 128;
constexpr int kThreads = 256;

__global__ void count_in_the_money(const float* paths, int npaths, float strike, int* hits,
                                   bool used) {
    __shared__ int any;
    const int path = blockIdx.x * blockDim.x + threadIdx.x;
    int mine = 0, seen = 0;
    for (int step = 0; step < kSteps; ++step) {
        const int in = path < npaths && paths[step * npaths + path] > strike ? 1 : 0;
        if (threadIdx.x == 0) any = 0;
        __syncthreads();
        if (used) seen |= atomicOr(&any, in);
        else atomicOr(&any, in);
        __syncthreads();
        if (any != 0) mine += in;  // the step's work, skipped when no path is in the money
        __syncthreads();           // every thread has read `any` before thread 0 resets it
    }
    (void)seen;
    if (path < npaths) hits[path] = mine;
}

int main(int argc, char** argv) {
    const bool used = argc > 1 && std::strcmp(argv[1], "used") == 0;
    const int blocks = 6, npaths = blocks * kThreads - 17;  // the last block is partly empty
    std::vector<float> host(static_cast<size_t>(kSteps) * npaths);
    // One path of each block in the money two steps in every four: most threads read the flag
    // they read a step before (1, 1, 0, 0, ...), with no other thread left to change it.
    for (int s = 0; s < kSteps; ++s)
        for (int p = 0; p < npaths; ++p)
            host[static_cast<size_t>(s) * npaths + p] =
                p % kThreads == 5 && s / 2 % 2 == 0 ? 2.0f : 0.5f;
    float* d_paths;
    int* d_hits;
    cudaMalloc(&d_paths, host.size() * sizeof(float));
    cudaMalloc(&d_hits, npaths * sizeof(int));
    cudaMemcpy(d_paths, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice);
    count_in_the_money<<<blocks, kThreads>>>(d_paths, npaths, 1.0f, d_hits, used);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        std::printf("atomic in a loop: %s\n", cudaGetErrorName(e));
        return 1;
    }
    std::vector<int> hits(npaths);
    cudaMemcpy(hits.data(), d_hits, npaths * sizeof(int), cudaMemcpyDeviceToHost);
    long long total = 0, expect = 0;
    for (int p = 0; p < npaths; ++p) {
        total += hits[p];
        for (int s = 0; s < kSteps; ++s) expect += host[static_cast<size_t>(s) * npaths + p] > 1.0f;
    }
    std::printf("atomic in a loop%s: %lld paths in the money (expected %lld)\n",
                used ? " (result used)" : "", total, expect);
    cudaFree(d_paths);
    cudaFree(d_hits);
    return total == expect ? 0 : 1;
}
