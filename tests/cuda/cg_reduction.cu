// A block reduction with cooperative groups, twice: tiles of 32 with shfl_down as the CUDA
// samples write it, and cg::reduce. Both checked against a sum on the CPU.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

#include "check_cuda.h"

namespace cg = cooperative_groups;

constexpr int threads = 256;

// Each warp sums its values with shuffles, warp 0 sums the warps' sums.
__global__ void sum_shfl(const int* in, int* block_sums, int n) {
    __shared__ int warp_sums[threads / 32];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);

    int i = blockIdx.x * blockDim.x + block.thread_rank();
    int v = i < n ? in[i] : 0;
    for (int offset = tile.size() / 2; offset > 0; offset /= 2) v += tile.shfl_down(v, offset);
    if (tile.thread_rank() == 0) warp_sums[tile.meta_group_rank()] = v;
    block.sync();

    if (tile.meta_group_rank() == 0) {
        v = tile.thread_rank() < tile.meta_group_size() ? warp_sums[tile.thread_rank()] : 0;
        for (int offset = tile.size() / 2; offset > 0; offset /= 2) v += tile.shfl_down(v, offset);
        if (tile.thread_rank() == 0) block_sums[blockIdx.x] = v;
    }
}

// The same with cg::reduce, and one atomicAdd per tile into the total.
__global__ void sum_reduce(const int* in, int* total, int n) {
    auto block = cg::this_thread_block();
    auto tile = cg::tiled_partition<32>(block);
    int i = blockIdx.x * blockDim.x + block.thread_rank();
    int v = cg::reduce(tile, i < n ? in[i] : 0, cg::plus<int>());
    if (tile.thread_rank() == 0) atomicAdd(total, v);
}

int main() {
    const int n = 10000;
    const int blocks = (n + threads - 1) / threads;
    std::vector<int> h(n);
    long long expected = 0;
    for (int i = 0; i < n; ++i) {
        h[i] = (i * 37) % 101 - 50;
        expected += h[i];
    }

    int *d_in, *d_sums, *d_total;
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMalloc(&d_sums, blocks * sizeof(int)));
    CHECK(cudaMalloc(&d_total, sizeof(int)));
    CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_total, 0, sizeof(int)));

    sum_shfl<<<blocks, threads>>>(d_in, d_sums, n);
    CHECK(cudaGetLastError());
    sum_reduce<<<blocks, threads>>>(d_in, d_total, n);
    CHECK(cudaGetLastError());

    std::vector<int> sums(blocks);
    int total = 0;
    CHECK(cudaMemcpy(sums.data(), d_sums, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&total, d_total, sizeof(int), cudaMemcpyDeviceToHost));
    long long shfl_total = 0;
    for (int s : sums) shfl_total += s;

    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_sums));
    CHECK(cudaFree(d_total));
    if (shfl_total != expected || total != expected) {
        std::fprintf(stderr, "expected %lld, shfl_down gave %lld, cg::reduce gave %d\n", expected,
                     shfl_total, total);
        return EXIT_FAILURE;
    }
    std::printf("PASS\n");
    return 0;
}
