// Two bugs of one project of its own, found by checks that came with the targets: a tile of four
// warps reads another warp's shared write with no tile.sync() between (a data race at the read),
// and the host reads managed memory the kernel was given before waiting for it (a data race
// between the host and the kernel).
#include <cooperative_groups.h>
#include <cstdio>

namespace cg = cooperative_groups;

__global__ void rotate(int* out) {
    __shared__ int vals[128];
    auto tile = cg::tiled_partition<128>(cg::this_thread_block());
    vals[tile.thread_rank()] = int(tile.thread_rank());
    out[threadIdx.x] = vals[(tile.thread_rank() + 64) % 128];
}

int main() {
    int* out;
    cudaMallocManaged(&out, 128 * sizeof(int));
    rotate<<<1, 128>>>(out);
    printf("out[0] = %d\n", out[0]);
    cudaDeviceSynchronize();
    cudaFree(out);
    return 0;
}
