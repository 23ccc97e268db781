#include "histogram.cuh"

__global__ void histogram(const int* in, int n, int* bins) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        bins[in[i]] += 1;  // BUG: many threads update one bin without atomicAdd
}

void histogram_on_device(const int* d_in, int n, int* d_bins) {
    histogram<<<(n + 127) / 128, 128>>>(d_in, n, d_bins);
}
