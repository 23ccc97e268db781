// A 256-bin histogram as the books build it: each block counts into its own bins in shared
// memory with shared-memory atomics, then adds them to the global bins with one global atomic
// per bin. The global bins start at zero with cudaMemset.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "check_cuda.h"

#define BINS 256

__global__ void histogram(const unsigned char* data, unsigned int* bins, int n) {
    __shared__ unsigned int local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (local[b]) atomicAdd(&bins[b], local[b]);
}

int main() {
    const int n = 1 << 18;
    std::vector<unsigned char> h_data(n);
    unsigned int seed = 12345;
    for (int i = 0; i < n; ++i) {
        seed = seed * 1103515245u + 12345u;
        h_data[i] = static_cast<unsigned char>((seed >> 16) % 200);  // bins 200..255 stay empty
    }
    unsigned char* d_data;
    unsigned int* d_bins;
    CHECK(cudaMalloc(&d_data, n));
    CHECK(cudaMalloc(&d_bins, BINS * sizeof(unsigned int)));
    CHECK(cudaMemcpy(d_data, h_data.data(), n, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_bins, 0, BINS * sizeof(unsigned int)));
    histogram<<<32, 128>>>(d_data, d_bins, n);
    CHECK(cudaGetLastError());
    unsigned int h_bins[BINS];
    CHECK(cudaMemcpy(h_bins, d_bins, sizeof(h_bins), cudaMemcpyDeviceToHost));

    unsigned int expect[BINS] = {};
    for (unsigned char c : h_data) ++expect[c];
    int bad = 0;
    unsigned long long total = 0;
    for (int b = 0; b < BINS; ++b) {
        bad += h_bins[b] != expect[b];
        total += h_bins[b];
    }
    CHECK(cudaFree(d_data));
    CHECK(cudaFree(d_bins));
    if (bad || total != static_cast<unsigned long long>(n)) {
        printf("FAILED: %d bins differ, %llu counted of %d\n", bad, total, n);
        return 1;
    }
    printf("Test PASSED\n");
    return 0;
}
