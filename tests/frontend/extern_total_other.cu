// The other file of extern_total_main.cu: it names the variable that file defines.
#include <cuda_runtime.h>

extern __device__ int total;

__global__ void add_there() { atomicAdd(&total, 1); }

void add_in_other_file(int threads) {
    add_there<<<1, threads>>>();
    cudaDeviceSynchronize();
}
