// Broken twins of cg_multi_warp, for tiles of 128 threads (four warps), chosen by the argument:
//   nosync  each thread reads a value that a thread of another warp of its tile wrote, with no
//           tile.sync() between: a data race at the read.
//   across  the tile syncs, but the value read is the other tile's: a tile's sync() orders
//           only its own threads, so this is a data race too.
//   partial a block of 192 threads: its second tile of 128 has 64 threads, and its sync()
//           would wait on a GPU for two warps that do not exist.
#include <cstdio>
#include <cstring>

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void rotate(int* out, int mode) {
    __shared__ int vals[256];
    auto tile = cg::tiled_partition<128>(cg::this_thread_block());
    unsigned base = tile.meta_group_rank() * 128, r = tile.thread_rank();
    vals[threadIdx.x] = int(threadIdx.x);
    if (mode == 0) {
        out[threadIdx.x] = vals[base + (r + 64) % 128];  // BUG (nosync): no tile.sync() before
    } else {
        tile.sync();  // BUG (partial): the last tile is not whole
        out[threadIdx.x] = vals[(threadIdx.x + 128) % blockDim.x];  // BUG (across): the other tile
    }
}

int main(int argc, char** argv) {
    int mode = argc > 1 && std::strcmp(argv[1], "nosync") == 0 ? 0 : 1;
    unsigned threads = argc > 1 && std::strcmp(argv[1], "partial") == 0 ? 192 : 256;
    int* d_out;
    cudaMalloc(&d_out, 256 * sizeof(int));
    rotate<<<1, threads>>>(d_out, mode);
    cudaError_t e = cudaDeviceSynchronize();
    printf("after the launch: %s\n", cudaGetErrorName(e));
    cudaFree(d_out);
    return 0;
}
