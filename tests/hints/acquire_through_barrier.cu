// Sums 1024 numbers in one launch: each block writes its sum, and the block that finishes last
// (the one that draws the last ticket) adds up the blocks' sums.
// the fix: a __threadfence() right after the ticket's atomicAdd.
#include <cstdio>

__device__ unsigned int tickets = 0;

__global__ void sum(const int* in, int* partial, int* total) {
    __shared__ int s[256];
    __shared__ bool last;
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) {
        partial[blockIdx.x] = s[0];
        __threadfence();
        unsigned int ticket = atomicAdd(&tickets, 1);
        last = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (last && t == 0) {
        int sum = 0;
        for (int b = 0; b < gridDim.x; b++) sum += partial[b];
        *total = sum;
    }
}

int main() {
    const int n = 1024;
    int h_in[n];
    for (int i = 0; i < n; i++) h_in[i] = i;
    int *d_in, *d_partial, *d_total, total = 0;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_partial, n / 256 * sizeof(int));
    cudaMalloc(&d_total, sizeof(int));
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
    sum<<<n / 256, 256>>>(d_in, d_partial, d_total);
    cudaMemcpy(&total, d_total, sizeof(int), cudaMemcpyDeviceToHost);
    printf("total %d (expected %d)\n", total, (n - 1) * n / 2);
    cudaFree(d_in);
    cudaFree(d_partial);
    cudaFree(d_total);
    return 0;
}
