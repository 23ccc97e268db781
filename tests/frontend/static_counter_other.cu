// The other file of static_counter_main.cu: a counter of the same name, its own.
#include <cuda_runtime.h>

/* this file's hits */ static __device__ int counter;

__global__ void count_there() { atomicAdd(&counter, 1); }

int count_in_other_file(int threads) {
    count_there<<<1, threads>>>();
    int hits = 0;
    cudaMemcpyFromSymbol(&hits, counter, sizeof(int));
    return hits;
}
