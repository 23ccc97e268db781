// Broken: the kernel reduces twice with the same BlockReduce TempStorage and no __syncthreads
// between, so the second Sum may overwrite the shared memory the first is still reading. Run
// with "fixed" it has the barrier CUB's documentation asks for. Run with "small_block" a
// BlockReduce made for 256 threads is launched with 128.
#include <cstdio>
#include <cstring>

#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include "cub_checks.cuh"

__global__ void sum_and_sum_of_squares(const int* in, int* out, bool fixed) {
    typedef cub::BlockReduce<int, 128> BlockReduce;
    __shared__ typename BlockReduce::TempStorage temp;
    int x = in[threadIdx.x];
    int sum = BlockReduce(temp).Sum(x);
    if (fixed) __syncthreads();
    int sum_of_squares = BlockReduce(temp).Sum(x * x);  // BUG unless fixed: temp is still in use
    if (threadIdx.x == 0) {
        out[0] = sum;
        out[1] = sum_of_squares;
    }
}

__global__ void sum_of_256(const int* in, int* out) {
    typedef cub::BlockReduce<int, 256> BlockReduce256;
    __shared__ typename BlockReduce256::TempStorage temp;
    int sum = BlockReduce256(temp).Sum(in[threadIdx.x]);  // BUG: the block has 128 threads
    if (threadIdx.x == 0) out[0] = sum;
}

int main(int argc, char** argv) {
    bool fixed = argc > 1 && std::strcmp(argv[1], "fixed") == 0;
    bool small_block = argc > 1 && std::strcmp(argv[1], "small_block") == 0;
    const int n = 256;
    int h_in[n];
    for (int i = 0; i < n; ++i) h_in[i] = i % 10;
    int *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMalloc(&d_out, 2 * sizeof(int)));
    CHECK(cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice));

    int h_out[2];
    if (small_block) {
        sum_of_256<<<1, 128>>>(d_in, d_out);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(h_out, d_out, sizeof(int), cudaMemcpyDeviceToHost));
        std::printf("sum = %d\n", h_out[0]);
    } else {
        sum_and_sum_of_squares<<<1, 128>>>(d_in, d_out, fixed);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(h_out, d_out, 2 * sizeof(int), cudaMemcpyDeviceToHost));
        std::printf("sum = %d, sum of squares = %d\n", h_out[0], h_out[1]);
    }
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    return 0;
}
