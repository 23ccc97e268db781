// Block 1 sends a number to block 0 through a mailbox and a flag, both volatile.
// the fix: a __threadfence() before the flag's store and after its spin.
#include <cstdio>

__device__ void send(volatile int* box, volatile int* flag, int v) {
    *box = v;
    *flag = 1;
}

__device__ int receive(volatile int* box, volatile int* flag) {
    while (*flag == 0) {}
    return *box;
}

__global__ void mail(int* box, int* flag, int* out) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 1) send(box, flag, 99);
    else *out = receive(box, flag);
}

int main() {
    int *d_box, *d_flag, *d_out, out = 0;
    cudaMalloc(&d_box, sizeof(int));
    cudaMalloc(&d_flag, sizeof(int));
    cudaMalloc(&d_out, sizeof(int));
    cudaMemset(d_flag, 0, sizeof(int));
    mail<<<2, 32>>>(d_box, d_flag, d_out);
    cudaMemcpy(&out, d_out, sizeof(int), cudaMemcpyDeviceToHost);
    printf("out %d (expected %d)\n", out, 99);
    cudaFree(d_box);
    cudaFree(d_flag);
    cudaFree(d_out);
    return 0;
}
