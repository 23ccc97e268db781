#include <cstdio>
#include <vector>

#include "histogram.cuh"

int main() {
    const int n = 1024, bins = 8;
    std::vector<int> in(n);
    for (int i = 0; i < n; ++i) in[i] = i % bins;
    int *d_in, *d_bins;
    cudaMalloc(&d_in, n * sizeof(int));
    cudaMalloc(&d_bins, bins * sizeof(int));
    cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(d_bins, 0, bins * sizeof(int));
    histogram_on_device(d_in, n, d_bins);
    std::vector<int> out(bins);
    cudaMemcpy(out.data(), d_bins, bins * sizeof(int), cudaMemcpyDeviceToHost);
    std::printf("bin 0: %d (of %d)\n", out[0], n / bins);
    cudaFree(d_in);
    cudaFree(d_bins);
    return 0;
}
