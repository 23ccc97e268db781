// A two-phase kernel under cudaLaunchCooperativeKernel: every block sums its part of the input,
// grid.sync(), then every thread reads all the blocks' sums. Checked against the CPU. Then a
// cooperative grid larger than the device holds, which must be refused, as on a GPU.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "check_cuda.h"

namespace cg = cooperative_groups;

constexpr int threads = 128;

// out[i] = in[i] * (sum of every in[j]), in one launch: the grid-wide sum needs every block's
// partial sum written before any block reads them.
__global__ void scale_by_total(const int* in, int* partial, long long* out, int n) {
    __shared__ int sums[threads];
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();

    // Phase 1: a grid-stride loop, then a tree in shared memory.
    int mine = 0;
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size())
        mine += in[i];
    sums[block.thread_rank()] = mine;
    block.sync();
    for (int stride = threads / 2; stride > 0; stride /= 2) {
        int t = block.thread_rank();
        if (t < stride) sums[t] += sums[t + stride];
        block.sync();
    }
    if (block.thread_rank() == 0) partial[blockIdx.x] = sums[0];

    grid.sync();

    // Phase 2: every thread reads every block's sum.
    long long total = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) total += partial[b];
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size())
        out[i] = in[i] * total;
}

int main() {
    int dev = 0, cooperative = 0, sms = 0, per_sm = 0;
    CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, dev));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, scale_by_total, threads,
                                                        0));
    if (!cooperative || per_sm < 1) {
        std::fprintf(stderr, "no cooperative launch: %d, %d per SM\n", cooperative, per_sm);
        return EXIT_FAILURE;
    }
    int blocks = sms * per_sm;  // every block resident at once

    const int n = 5000;
    std::vector<int> h(n);
    long long total = 0;
    for (int i = 0; i < n; ++i) {
        h[i] = i % 7 - 3;
        total += h[i];
    }
    int *d_in, *d_partial;
    long long* d_out;
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMalloc(&d_partial, (blocks + 1) * sizeof(int)));
    CHECK(cudaMalloc(&d_out, n * sizeof(long long)));
    CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));

    int count = n;
    void* args[] = {&d_in, &d_partial, &d_out, &count};
    CHECK(cudaLaunchCooperativeKernel((void*)scale_by_total, dim3(blocks), dim3(threads), args, 0,
                                      0));
    CHECK(cudaDeviceSynchronize());
    std::vector<long long> out(n);
    CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(long long), cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += out[i] != h[i] * total;

    // One block more than fits: refused before it runs, and cudaGetLastError() says so once.
    cudaError_t too_large = cudaLaunchCooperativeKernel((void*)scale_by_total, dim3(blocks + 1),
                                                        dim3(threads), args, 0, 0);
    cudaError_t last = cudaGetLastError();
    cudaError_t after = cudaGetLastError();

    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_partial));
    CHECK(cudaFree(d_out));
    if (wrong || too_large != cudaErrorCooperativeLaunchTooLarge ||
        last != cudaErrorCooperativeLaunchTooLarge || after != cudaSuccess) {
        std::fprintf(stderr, "%d wrong of %d; too large a grid: %s, then %s, %s\n", wrong, n,
                     cudaGetErrorName(too_large), cudaGetErrorName(last), cudaGetErrorName(after));
        return EXIT_FAILURE;
    }
    std::printf("%d blocks of %d threads, total %lld\nPASS\n", blocks, threads, total);
    return 0;
}
