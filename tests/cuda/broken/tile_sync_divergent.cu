// Broken twin of cg_reduction: the tile's sync sits inside a branch that only half of each tile
// takes, so the other half never arrives. On a GPU that is undefined (often a hang). Expected: a
// deadlock naming the tile.sync() line, the lanes waiting there and the lanes it still waits for.
#include <cstdio>

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void neighbour_sum(const int* in, int* out) {
    __shared__ int vals[64];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
    vals[block.thread_rank()] = in[block.thread_rank()];
    if (tile.thread_rank() < 8) {
        tile.sync();  // BUG: ranks 8..15 of the tile never get here
        out[block.thread_rank()] = vals[block.thread_rank()] + vals[block.thread_rank() + 8];
    }
}

int main() {
    int h[64];
    for (int i = 0; i < 64; ++i) h[i] = i;
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h);
    cudaMalloc(&d_out, sizeof h);
    cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice);
    neighbour_sum<<<1, 64>>>(d_in, d_out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("after the launch: %s\n", cudaGetErrorName(e));
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
