// Tiles of several warps (thread_block_tile<64> to <512>), as NVIDIA's reduction sample uses
// them: a block reduction over tiles of 64 and 128 with cg::reduce, a broadcast with shfl, votes,
// the scans, and a tile.sync() that orders one warp's shared writes before another warp of the
// tile reads them. Each result is checked against the CPU; a checked run must find nothing.
#include <cstdio>
#include <vector>

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda_runtime.h>

#include "check_cuda.h"

namespace cg = cooperative_groups;

constexpr int threads = 256;

// One sum per tile of Tile threads, then the tiles' sums per block (the sample's
// multi_warp_cg_reduce, with block_tile_memory as GPUs before compute capability 8.0 need it).
template <unsigned Tile>
__global__ void block_sums(const int* in, int* out, int n) {
    __shared__ cg::block_tile_memory<threads> scratch;
    __shared__ int tile_sums[threads / Tile];
    cg::thread_block block = cg::this_thread_block(scratch);
    cg::thread_block_tile<Tile> tile = cg::tiled_partition<Tile>(block);
    int i = blockIdx.x * threads + block.thread_rank();
    int v = cg::reduce(tile, i < n ? in[i] : 0, cg::plus<int>());
    if (tile.thread_rank() == 0) tile_sums[tile.meta_group_rank()] = v;
    block.sync();
    if (block.thread_rank() == 0) {
        int s = 0;
        for (unsigned t = 0; t < tile.meta_group_size(); ++t) s += tile_sums[t];
        out[blockIdx.x] = s;
    }
}

// Per thread of a tile of 128: rank 5's value, whether any and all ranks are even, the inclusive
// and exclusive sums of the ranks, and the value the rank 64 places further on wrote to shared
// memory before the tile's sync() (another warp of the tile).
__global__ void tile_collectives(int* out) {
    __shared__ int ranks[threads];
    auto tile = cg::tiled_partition<128>(cg::this_thread_block());
    unsigned r = tile.thread_rank();
    int* mine = out + 6 * (blockIdx.x * threads + threadIdx.x);
    mine[0] = tile.shfl(int(r * 10), 5);
    mine[1] = tile.any(r == 77) + 2 * tile.all(r < 128);
    mine[2] = cg::inclusive_scan(tile, int(r));
    mine[3] = cg::exclusive_scan(tile, int(r));
    ranks[threadIdx.x] = int(r) + 1000 * int(tile.meta_group_rank());
    tile.sync();
    mine[4] = ranks[tile.meta_group_rank() * 128 + (r + 64) % 128];
    mine[5] = int(tile.meta_group_size());
}

int main() {
    const int n = 10000, blocks = (n + threads - 1) / threads;
    std::vector<int> h(n);
    for (int i = 0; i < n; ++i) h[i] = (i * 7) % 101 - 50;
    int *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMalloc(&d_out, 6 * 2 * threads * sizeof(int)));
    CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    bool ok = true;

    std::vector<int> sums(blocks);
    for (int tile : {64, 128}) {
        if (tile == 64) block_sums<64><<<blocks, threads>>>(d_in, d_out, n);
        else block_sums<128><<<blocks, threads>>>(d_in, d_out, n);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(sums.data(), d_out, blocks * sizeof(int), cudaMemcpyDeviceToHost));
        for (int b = 0; b < blocks; ++b) {
            int expected = 0;
            for (int i = b * threads; i < n && i < (b + 1) * threads; ++i) expected += h[i];
            if (sums[b] != expected) {
                printf("FAILED: tiles of %d, block %d: sum %d, expected %d\n", tile, b, sums[b],
                       expected);
                ok = false;
            }
        }
    }

    tile_collectives<<<2, threads>>>(d_out);
    CHECK(cudaGetLastError());
    std::vector<int> got(6 * 2 * threads);
    CHECK(cudaMemcpy(got.data(), d_out, got.size() * sizeof(int), cudaMemcpyDeviceToHost));
    for (int t = 0; t < 2 * threads && ok; ++t) {
        int r = t % 128, meta = (t % threads) / 128;
        int expected[6] = {50, 3, r * (r + 1) / 2, r * (r - 1) / 2, (r + 64) % 128 + 1000 * meta, 2};
        for (int k = 0; k < 6; ++k)
            if (got[6 * t + k] != expected[k]) {
                printf("FAILED: thread %d, value %d: %d, expected %d\n", t, k, got[6 * t + k],
                       expected[k]);
                ok = false;
            }
    }
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    printf(ok ? "PASS\n" : "FAILED\n");
    return ok ? 0 : 1;
}
