// A device variable defined in this file and declared `extern` in another: both files' kernels
// add to the one variable (on a GPU this needs relocatable device code, -rdc=true).
#include <cstdio>
#include <cuda_runtime.h>

__device__ int total;  // extern_total_other.cu adds to it too

__global__ void add_here() { atomicAdd(&total, 1); }

void add_in_other_file(int threads);  // extern_total_other.cu

int main() {
    add_here<<<1, 32>>>();
    add_in_other_file(8);
    int sum = 0;
    cudaMemcpyFromSymbol(&sum, total, sizeof(int));
    printf("total %d\n", sum);
    return sum == 40 ? 0 : 1;
}
