// Allocations as courses write them: inside an error-check macro, in a loop over an array of
// pointers, managed, and one call written over three lines. Each report names the variable the program gave cudaMalloc, in the race
// and in the out-of-bounds access alike. argv[1] picks the allocation: macro, loop, managed or split
// (reports are made once per source line, so one run checks one of them).
#include <cstdio>
#include <cstring>

#include "../cuda/check_cuda.h"

__global__ void sum_into_first(int* data, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[0] += data[i];  // BUG: every thread adds into data[0]
}

__global__ void copy_one_more(const int* src, int* dst, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) dst[i] = src[0];  // BUG: i == n writes one past the end of dst
}

int main(int argc, char** argv) {
    const int n = 32;
    const size_t bytes = n * sizeof(int);
    const char* which = argc > 1 ? argv[1] : "macro";
    int* d_C;
    CHECK(cudaMalloc(&d_C, bytes));
    int* d_buf[2];
    for (int k = 0; k < 2; ++k) CHECK(cudaMalloc(&d_buf[k], bytes));
    int* counts;
    CHECK(cudaMallocManaged(&counts, bytes));
    int* d_split;
    CHECK(cudaMalloc(  // over three lines, as long calls are written
        (void**)&d_split,
        bytes));
    for (int i = 0; i < n; ++i) counts[i] = 1;
    CHECK(cudaMemset(d_C, 0, bytes));
    CHECK(cudaMemset(d_buf[0], 0, bytes));
    CHECK(cudaMemset(d_buf[1], 0, bytes));
    CHECK(cudaMemset(d_split, 0, bytes));

    int* target = std::strcmp(which, "loop") == 0      ? d_buf[1]
                  : std::strcmp(which, "managed") == 0 ? counts
                  : std::strcmp(which, "split") == 0   ? d_split
                                                       : d_C;
    sum_into_first<<<1, n>>>(target, n);
    copy_one_more<<<1, n + 1>>>(d_buf[0], target, n);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(d_C));
    for (int k = 0; k < 2; ++k) CHECK(cudaFree(d_buf[k]));
    CHECK(cudaFree(counts));
    CHECK(cudaFree(d_split));
    std::printf("done\n");
    return 0;
}
