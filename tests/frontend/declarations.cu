// Declarations and launches written as nvcc accepts them, with several names in one declaration
// and comments between the tokens: every name gets storage of its own, every launch runs.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kThreads = 32;
constexpr int kBlocks = 4;
constexpr int kValues = 2 * kThreads * kBlocks;

__device__ int launches, threads_seen;  // two counters, one declaration

// Each block swaps the even and odd values of its 64 and reverses their order.
__global__ void reverse_pairs(const int* in, int* out) {
    __shared__ int evens[kThreads], /* and */ odds[kThreads];
    const int t = threadIdx.x;
    const int base = blockIdx.x * kThreads * 2;
    evens[t] = in[base + 2 * t];
    odds[t] = in[base + 2 * t + 1];
    __syncthreads();
    out[base + 2 * t] = odds[kThreads - 1 - t];
    out[base + 2 * t + 1] = evens[kThreads - 1 - t];
    atomicAdd(&threads_seen, 1);
    if (t == 0 && blockIdx.x == 0) atomicAdd(&launches, 1);
}

int main() {
    int host[kValues];
    for (int i = 0; i < kValues; ++i) host[i] = i;
    int* d_in = nullptr;
    int* d_out = nullptr;
    cudaMalloc(&d_in, sizeof(host));
    cudaMalloc(&d_out, sizeof(host));
    cudaMemcpy(d_in, host, sizeof(host), cudaMemcpyHostToDevice);
    reverse_pairs /* every block's pairs */ <<<kBlocks, /* threads */ kThreads>>>(d_in, d_out);
    cudaMemcpy(host, d_out, sizeof(host), cudaMemcpyDeviceToHost);

    int wrong = 0;
    for (int b = 0; b < kBlocks; ++b) {
        for (int t = 0; t < kThreads; ++t) {
            const int base = b * kThreads * 2;
            const int from = kThreads - 1 - t;
            wrong += host[base + 2 * t] != base + 2 * from + 1;
            wrong += host[base + 2 * t + 1] != base + 2 * from;
        }
    }
    int counted_launches = 0;
    int counted_threads = 0;
    cudaMemcpyFromSymbol(&counted_launches, launches, sizeof(int));
    cudaMemcpyFromSymbol(&counted_threads, threads_seen, sizeof(int));
    printf("%d values, %d wrong; %d launch, %d threads\n", kValues, wrong, counted_launches,
           counted_threads);
    cudaFree(d_in);
    cudaFree(d_out);
    return wrong == 0 ? 0 : 1;
}
