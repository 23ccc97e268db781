// Block 1 sends a message of two numbers and raises a flag; block 0 waits for it and adds them.
// the fix: the second number written before the fence.
#include <cstdio>

__global__ void message(int* msg, int* ready, int* out) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 1) {
        msg[0] = 40;
        __threadfence();
        atomicExch(ready, 1);
        msg[1] = 2;
    } else {
        while (atomicAdd(ready, 0) == 0) {}
        __threadfence();
        *out = msg[0] + msg[1];
    }
}

int main() {
    int *d_msg, *d_ready, *d_out, out = 0;
    cudaMalloc(&d_msg, 2 * sizeof(int));
    cudaMalloc(&d_ready, sizeof(int));
    cudaMalloc(&d_out, sizeof(int));
    cudaMemset(d_ready, 0, sizeof(int));
    message<<<2, 32>>>(d_msg, d_ready, d_out);
    cudaMemcpy(&out, d_out, sizeof(int), cudaMemcpyDeviceToHost);
    printf("out %d (expected %d)\n", out, 42);
    cudaFree(d_msg);
    cudaFree(d_ready);
    cudaFree(d_out);
    return 0;
}
