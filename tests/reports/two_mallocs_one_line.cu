// Two allocations on one line: a report names the array that was read past, not the first
// cudaMalloc of its line.
#include <cstdio>

__global__ void copy_shifted(float* dst, const float* src) {
    dst[threadIdx.x] = src[threadIdx.x + 1];  // BUG: thread 31 reads src[32]
}

int main() {
    float *d_dst, *d_src;
    cudaMalloc(&d_dst, 32 * sizeof(float)); cudaMalloc(&d_src, 32 * sizeof(float));
    cudaMemset(d_src, 0, 32 * sizeof(float));
    copy_shifted<<<1, 32>>>(d_dst, d_src);
    cudaDeviceSynchronize();
    cudaFree(d_dst);
    cudaFree(d_src);
    std::printf("done\n");
    return 0;
}
