// Block 1 fills a table and raises a flag; block 0 waits for the flag and reads the table.
// the fix: __threadfence() in place of __threadfence_block().
#include <cstdio>

__global__ void publish(int* table, int* ready, int* out) {
    if (blockIdx.x == 1) {
        table[threadIdx.x] = threadIdx.x * 10;
        __syncthreads();
        if (threadIdx.x == 0) {
            __threadfence();
            atomicExch(ready, 1);
        }
    } else {
        if (threadIdx.x == 0) {
            while (atomicAdd(ready, 0) == 0) {}
            __threadfence_block();
            int sum = 0;
            for (int i = 0; i < blockDim.x; i++) sum += table[i];
            *out = sum;
        }
    }
}

int main() {
    int *d_table, *d_ready, *d_out, out = 0;
    cudaMalloc(&d_table, 64 * sizeof(int));
    cudaMalloc(&d_ready, sizeof(int));
    cudaMalloc(&d_out, sizeof(int));
    cudaMemset(d_ready, 0, sizeof(int));
    publish<<<2, 64>>>(d_table, d_ready, d_out);
    cudaMemcpy(&out, d_out, sizeof(int), cudaMemcpyDeviceToHost);
    printf("sum %d (expected %d)\n", out, 10 * 63 * 64 / 2);
    cudaFree(d_table);
    cudaFree(d_ready);
    cudaFree(d_out);
    return 0;
}
