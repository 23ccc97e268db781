// Broken: the host reads device memory through the pointer cudaMalloc gave it. On a GPU this
// is a segmentation fault; the simulator names the line.
#include <cstdio>

__global__ void fill(int* out) { out[threadIdx.x] = threadIdx.x; }

int main() {
    int* d_out;
    cudaMalloc(&d_out, 32 * sizeof(int));
    fill<<<1, 32>>>(d_out);
    cudaDeviceSynchronize();
    printf("out[5] = %d\n", d_out[5]);  // BUG: d_out is device memory
    cudaFree(d_out);
    return 0;
}
