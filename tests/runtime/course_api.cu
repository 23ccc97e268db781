// The runtime API as CUDA courses use it: typed allocation calls (pinned, mapped, managed,
// pitched, stream-ordered), managed-memory hints, a 2-D copy into pitched memory, and a tile
// of a block made from block_tile_memory. Plain CUDA; it checks its own results and prints PASS.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

namespace cg = cooperative_groups;

#include "../cuda/check_cuda.h"

__global__ void add_rows(float* grid, size_t pitch, int width, int height) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < width && y < height) {
        float* row = (float*)((char*)grid + y * pitch);
        row[x] += y;
    }
}

__global__ void square(float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * x[i];
}

__global__ void mark(int* flags) { flags[threadIdx.x] = threadIdx.x + 1; }

__global__ void warp_sums(const float* in, float* out) {
    __shared__ cg::block_tile_memory<256> scratch;
    cg::thread_block block = cg::this_thread_block(scratch);
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    float v = in[block.thread_rank()];
    for (int d = 16; d > 0; d /= 2) v += warp.shfl_down(v, d);
    if (warp.thread_rank() == 0) out[warp.meta_group_rank()] = v;
}

int main() {
    const int n = 1024;
    // Pinned memory through the typed overloads: float** straight in.
    float *h_pinned, *h_mapped;
    CHECK(cudaMallocHost(&h_pinned, n * sizeof(float)));
    CHECK(cudaHostAlloc(&h_mapped, n * sizeof(float), cudaHostAllocDefault));
    for (int i = 0; i < n; ++i) h_pinned[i] = float(i), h_mapped[i] = 0;

    // Managed memory with the hints a unified-memory lesson gives.
    int device = 0;
    CHECK(cudaGetDevice(&device));
    float* x;
    CHECK(cudaMallocManaged(&x, n * sizeof(float)));
    for (int i = 0; i < n; ++i) x[i] = float(i % 10);
    CHECK(cudaMemAdvise(x, n * sizeof(float), cudaMemAdviseSetPreferredLocation,
                        cudaMemLocation{cudaMemLocationTypeDevice, device}));
#if CUDART_VERSION >= 13000
    CHECK(cudaMemPrefetchAsync(x, n * sizeof(float), cudaMemLocation{cudaMemLocationTypeDevice, device}, 0));
#else
    CHECK(cudaMemPrefetchAsync(x, n * sizeof(float), device));
#endif
    square<<<(n + 255) / 256, 256>>>(x, n);
    CHECK(cudaGetLastError());
#if CUDART_VERSION >= 13000
    CHECK(cudaMemPrefetchAsync(x, n * sizeof(float), cudaMemLocation{cudaMemLocationTypeHost, 0}, 0));
#else
    CHECK(cudaMemPrefetchAsync(x, n * sizeof(float), cudaCpuDeviceId));
#endif
    CHECK(cudaDeviceSynchronize());
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += x[i] != float((i % 10) * (i % 10));

    // A pitched 2-D array: copy in with cudaMemcpy2D, add each row's number, copy out.
    const int width = 100, height = 8;
    float* d_grid;
    size_t pitch = 0;
    CHECK(cudaMallocPitch(&d_grid, &pitch, width * sizeof(float), height));
    CHECK(cudaMemcpy2D(d_grid, pitch, h_pinned, width * sizeof(float), width * sizeof(float),
                       height, cudaMemcpyHostToDevice));
    add_rows<<<dim3(1, height), 128>>>(d_grid, pitch, width, height);
    CHECK(cudaMemcpy2D(h_mapped, width * sizeof(float), d_grid, pitch, width * sizeof(float),
                       height, cudaMemcpyDeviceToHost));
    for (int y = 0; y < height; ++y)
        for (int i = 0; i < width; ++i) bad += h_mapped[y * width + i] != float(y * width + i + y);
    bad += pitch < width * sizeof(float);

    // Warp sums over tiles of a block made with block_tile_memory.
    float *d_in, *d_sums, sums[8];
    CHECK(cudaMalloc(&d_in, 256 * sizeof(float)));
    CHECK(cudaMalloc(&d_sums, 8 * sizeof(float)));
    CHECK(cudaMemcpy(d_in, h_pinned, 256 * sizeof(float), cudaMemcpyHostToDevice));
    warp_sums<<<1, 256>>>(d_in, d_sums);
    CHECK(cudaMemcpy(sums, d_sums, sizeof sums, cudaMemcpyDeviceToHost));
    for (int w = 0; w < 8; ++w) bad += sums[w] != float(32 * (32 * w) + 31 * 32 / 2);

    // Zero-copy: a kernel writes mapped host memory through its device pointer.
    int *h_flags, *d_flags;
    CHECK(cudaHostAlloc(&h_flags, 32 * sizeof(int), cudaHostAllocMapped));
    CHECK(cudaHostGetDevicePointer(&d_flags, h_flags, 0));
    // Stream-ordered allocation: usable on its stream at once, freed in order after the kernel.
    cudaStream_t stream;
    CHECK(cudaStreamCreate(&stream));
    float* d_scratch;
    CHECK(cudaMallocAsync(&d_scratch, n * sizeof(float), stream));
    square<<<(n + 255) / 256, 256, 0, stream>>>(d_scratch, 0);
    CHECK(cudaFreeAsync(d_scratch, stream));
    CHECK(cudaStreamSynchronize(stream));
    CHECK(cudaStreamDestroy(stream));
    mark<<<1, 32>>>(d_flags);
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < 32; ++i) bad += h_flags[i] != i + 1;
    CHECK(cudaFreeHost(h_flags));

    size_t free_bytes = 0, total_bytes = 0;
    CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    bad += free_bytes > total_bytes;

    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_sums));
    CHECK(cudaFree(d_grid));
    CHECK(cudaFree(x));
    CHECK(cudaFreeHost(h_pinned));
    CHECK(cudaFreeHost(h_mapped));
    std::printf(bad ? "FAILED: %d wrong\n" : "PASS\n", bad);
    return bad != 0;
}
