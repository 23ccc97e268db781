// Broken twin of reading results back: the host copies out of device memory with memcpy instead
// of cudaMemcpy. Expected: stopped at the memcpy's line; on a GPU it would crash there.
#include <cstdio>
#include <cstring>

__global__ void squares(int* out) { out[threadIdx.x] = threadIdx.x * threadIdx.x; }

int main() {
    int* d_out;
    cudaMalloc(&d_out, 32 * sizeof(int));
    squares<<<1, 32>>>(d_out);
    cudaDeviceSynchronize();
    int h_out[32];
    memcpy(h_out, d_out, sizeof(h_out));  // BUG: the host cannot read device memory
    printf("%d\n", h_out[5]);
    return 0;
}
