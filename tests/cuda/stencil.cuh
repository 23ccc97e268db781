// A project header as courses split their code: the kernel, its plain __shared__ tile and the
// launch that runs it live here, and the .cu that includes it only calls run_stencil().
#pragma once
#include "check_cuda.h"

#define STENCIL_BLOCK 128
#define STENCIL_RADIUS 2

// out[i] = the sum of in[i - R .. i + R], zero outside; each block stages its part in a tile.
__global__ void stencil(const int* in, int* out, int n) {
    __shared__ int tile[STENCIL_BLOCK + 2 * STENCIL_RADIUS];
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int t = threadIdx.x + STENCIL_RADIUS;
    tile[t] = g < n ? in[g] : 0;
    if (threadIdx.x < STENCIL_RADIUS) {
        int left = g - STENCIL_RADIUS, right = g + STENCIL_BLOCK;
        tile[t - STENCIL_RADIUS] = left >= 0 && left < n ? in[left] : 0;
        tile[t + STENCIL_BLOCK] = right < n ? in[right] : 0;
    }
    __syncthreads();
    if (g >= n) return;
    int sum = 0;
    for (int k = -STENCIL_RADIUS; k <= STENCIL_RADIUS; ++k) sum += tile[t + k];
    out[g] = sum;
}

inline void run_stencil(const int* d_in, int* d_out, int n) {
    stencil<<<(n + STENCIL_BLOCK - 1) / STENCIL_BLOCK, STENCIL_BLOCK>>>(d_in, d_out, n);
    CHECK(cudaGetLastError());
}
