// Broken twin of a counting kernel: the host prints the __device__ counter by its name instead of
// copying it with cudaMemcpyFromSymbol. With nvcc it would print the host's copy, 0; the simulator
// stops at the host's line.
#include <cstdio>

__device__ int d_hits;

__global__ void count(int n) {
    if (blockIdx.x * blockDim.x + threadIdx.x < n) atomicAdd(&d_hits, 1);
}

int main() {
    count<<<4, 64>>>(200);
    cudaDeviceSynchronize();
    printf("hits: %d\n", d_hits);  // BUG: the host cannot read a __device__ variable
    return 0;
}
