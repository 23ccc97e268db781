// Each of two files counts in its own `static __device__ int counter;`, a comment before it on
// its line: both are static, so the two files link, and each counts only its own kernel's hits.
#include <cstdio>
#include <cuda_runtime.h>

/* this file's hits */ static __device__ int counter;

__global__ void count_here() { atomicAdd(&counter, 1); }

int count_in_other_file(int threads);  // static_counter_other.cu

int main() {
    count_here<<<2, 32>>>();
    const int there = count_in_other_file(16);
    int here = 0;
    cudaMemcpyFromSymbol(&here, counter, sizeof(int));
    printf("here %d, there %d\n", here, there);
    return here == 64 && there == 16 ? 0 : 1;
}
