// Sum reduction, the way courses develop it step by step: interleaved addressing (the first
// version, with its divergent modulo), sequential addressing (no divergence, no bank conflicts),
// and the last warp reduced with __shfl_down_sync (no shared memory, no barrier). Each kernel
// leaves one partial sum per block; the host adds the partials and compares with a CPU sum.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "check_cuda.h"

#define BLOCK 256

__global__ void reduceInterleaved(const int* g_in, int* g_out, unsigned int n) {
    __shared__ int sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_in[i] : 0;
    __syncthreads();
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) g_out[blockIdx.x] = sdata[0];
}

__global__ void reduceSequential(const int* g_in, int* g_out, unsigned int n) {
    __shared__ int sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    // Each thread adds two elements while loading: half as many blocks.
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    int v = (i < n) ? g_in[i] : 0;
    if (i + blockDim.x < n) v += g_in[i + blockDim.x];
    sdata[tid] = v;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) g_out[blockIdx.x] = sdata[0];
}

__device__ int warpReduceSum(int v) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    return v;
}

__global__ void reduceShuffle(const int* g_in, int* g_out, unsigned int n) {
    __shared__ int warpSums[BLOCK / 32];
    unsigned int tid = threadIdx.x;
    int v = 0;
    // A grid-stride loop: any number of blocks covers any n.
    for (unsigned int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x)
        v += g_in[i];
    v = warpReduceSum(v);
    int lane = tid % warpSize, warp = tid / warpSize;
    if (lane == 0) warpSums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = (tid < blockDim.x / warpSize) ? warpSums[lane] : 0;
        v = warpReduceSum(v);
        if (tid == 0) g_out[blockIdx.x] = v;
    }
}

int main() {
    const unsigned int n = (1 << 16) + 123;  // not a multiple of the block: the guards matter
    std::vector<int> h_in(n);
    long long expect = 0;
    for (unsigned int i = 0; i < n; ++i) {
        h_in[i] = static_cast<int>(i % 7) - 2;
        expect += h_in[i];
    }
    int *d_in, *d_out;
    const unsigned int max_blocks = (n + BLOCK - 1) / BLOCK;
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMalloc(&d_out, max_blocks * sizeof(int)));
    CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice));

    struct Version {
        const char* name;
        unsigned int blocks;
    } versions[] = {{"interleaved", max_blocks},
                    {"sequential", (n + 2 * BLOCK - 1) / (2 * BLOCK)},
                    {"warp shuffle", 40}};
    int failures = 0;
    for (int v = 0; v < 3; ++v) {
        CHECK(cudaMemset(d_out, 0, max_blocks * sizeof(int)));
        if (v == 0) reduceInterleaved<<<versions[v].blocks, BLOCK>>>(d_in, d_out, n);
        if (v == 1) reduceSequential<<<versions[v].blocks, BLOCK>>>(d_in, d_out, n);
        if (v == 2) reduceShuffle<<<versions[v].blocks, BLOCK>>>(d_in, d_out, n);
        CHECK(cudaGetLastError());
        std::vector<int> partial(versions[v].blocks);
        CHECK(cudaMemcpy(partial.data(), d_out, partial.size() * sizeof(int), cudaMemcpyDeviceToHost));
        long long sum = 0;
        for (int p : partial) sum += p;
        printf("%-13s %lld (expected %lld)\n", versions[v].name, sum, expect);
        failures += sum != expect;
    }
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    if (failures) {
        printf("FAILED\n");
        return 1;
    }
    printf("Test PASSED\n");
    return 0;
}
