// A cooperative grid as large as the device holds (blocks per SM from the occupancy API times the
// SMs), every thread counted before and after two grid.sync() calls. On an A100 that is 221,184
// threads alive at once; on a T4 40,960, already more than a guard page per thread allows.
#include <cstdio>
#include <cstdlib>

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "../cuda/check_cuda.h"

namespace cg = cooperative_groups;

__global__ void count_twice(unsigned long long* before, unsigned long long* after, int* wrong) {
    cg::grid_group grid = cg::this_grid();
    atomicAdd(before, 1ull);
    grid.sync();
    if (*before != grid.size()) atomicAdd(wrong, 1);
    grid.sync();
    atomicAdd(after, 1ull);
}

int main(int argc, char** argv) {
    int threads = argc > 1 ? std::atoi(argv[1]) : 1024;
    int sms = 0, per_sm = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, count_twice, threads, 0));
    int blocks = sms * per_sm;
    unsigned long long *before, *after;
    int* wrong;
    CHECK(cudaMalloc(&before, sizeof *before));
    CHECK(cudaMalloc(&after, sizeof *after));
    CHECK(cudaMalloc(&wrong, sizeof *wrong));
    CHECK(cudaMemset(before, 0, sizeof *before));
    CHECK(cudaMemset(after, 0, sizeof *after));
    CHECK(cudaMemset(wrong, 0, sizeof *wrong));
    void* args[] = {&before, &after, &wrong};
    CHECK(cudaLaunchCooperativeKernel((void*)count_twice, dim3(blocks), dim3(threads), args, 0, 0));
    CHECK(cudaDeviceSynchronize());
    unsigned long long h_after = 0;
    int h_wrong = -1;
    CHECK(cudaMemcpy(&h_after, after, sizeof h_after, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&h_wrong, wrong, sizeof h_wrong, cudaMemcpyDeviceToHost));
    std::printf("%d SMs x %d blocks of %d threads: %llu threads, %d saw a partial count\n", sms,
                per_sm, threads, h_after, h_wrong);
    CHECK(cudaFree(before));
    CHECK(cudaFree(after));
    CHECK(cudaFree(wrong));
    return h_after == 1ull * blocks * threads && h_wrong == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
