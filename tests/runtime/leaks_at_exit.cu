// A course program that ends without cudaFree: at exit one note line names the largest
// allocation, and nothing is a finding unless SIMT_CHECK names leak.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void scale(float* a, float by, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = i * by;
}

int main() {
    const int n = 3072;
    float *d_a, *d_b;
    int* d_count;
    cudaMalloc(&d_a, n * sizeof(float));
    cudaMalloc(&d_b, 256 * sizeof(float));
    cudaMalloc(&d_count, 4 * sizeof(int));
    scale<<<(n + 255) / 256, 256>>>(d_a, 2.0f, n);
    cudaDeviceSynchronize();
    float last;
    cudaMemcpy(&last, d_a + n - 1, sizeof last, cudaMemcpyDeviceToHost);
    std::printf("last %.0f\n", last);
    return 0;
}
