// Lesson 15: occupancy. A multiprocessor holds several blocks at once, as many as its threads,
// registers and shared memory allow; the warps of those blocks take turns, hiding each other's
// waits for memory. The program asks the occupancy API how many blocks of each size fit, works
// out which resource limits them, and runs the kernel at each size to check its result.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t err_ = (call);                                                       \
        if (err_ != cudaSuccess) {                                                       \
            std::fprintf(stderr, "%s:%d: %s (%s)\n", __FILE__, __LINE__,                 \
                         cudaGetErrorString(err_), cudaGetErrorName(err_));              \
            std::exit(EXIT_FAILURE);                                                     \
        }                                                                                \
    } while (0)

__global__ void saxpy(float a, const float* x, float* y, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
}

// The same kernel with a promise to the compiler: at most 256 threads per block, and at least 4
// such blocks per multiprocessor: 32 warps, 8 in each of the 4 register files of 16384. The
// compiler then keeps the kernel's registers under 16384 / 8 / 32 = 64 per thread, spilling to
// local memory if it must.
__global__ void __launch_bounds__(256, 4) saxpy_bounded(float a, const float* x, float* y, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
}

// Stages x through dynamic shared memory, whose size the launch gives: the more a block asks
// for, the fewer blocks a multiprocessor holds.
__global__ void saxpy_staged(float a, const float* x, float* y, int n) {
    extern __shared__ float stage[];
    for (int base = blockIdx.x * blockDim.x; base < n; base += blockDim.x * gridDim.x) {
        int i = base + threadIdx.x;
        stage[threadIdx.x] = i < n ? x[i] : 0.0f;
        __syncthreads();
        if (i < n) y[i] = a * stage[threadIdx.x] + y[i];
        __syncthreads();  // the next round overwrites stage
    }
}

using Kernel = void (*)(float, const float*, float*, int);

int main() {
    CHECK(cudaFree(0));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    std::printf("-- %s: %d multiprocessors, each %d threads, %d blocks, %d registers, %zu bytes of shared memory\n",
                prop.name, prop.multiProcessorCount, prop.maxThreadsPerMultiProcessor,
                prop.maxBlocksPerMultiProcessor, prop.regsPerMultiprocessor,
                prop.sharedMemPerMultiprocessor);

    const int n = 1 << 16;
    std::vector<float> x(n), y(n);
    for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i % 64), y[i] = 1.0f;
    float *d_x, *d_y;
    CHECK(cudaMalloc(&d_x, n * sizeof(float)));
    CHECK(cudaMalloc(&d_y, n * sizeof(float)));
    CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));

    int bad = 0, runs = 0;
    double checksum = 0;
    // Asks the occupancy API about one configuration, checks its answer against the
    // multiprocessor's limits, runs one full wave (every multiprocessor full) and checks y.
    auto ask = [&](const char* name, Kernel kernel, int block, size_t shared) {
        cudaFuncAttributes attr;
        CHECK(cudaFuncGetAttributes(&attr, kernel));
        int per_sm = 0;
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, shared));
        // What each resource alone would allow. Registers are allocated per warp, in units of
        // 256, from one of the SM's 4 sub-partitions (16384 registers each on 7.x to 9.0): a
        // warp's registers never straddle two. A block's shared memory is its static
        // (attr.sharedSizeBytes) and dynamic bytes plus what the system reserves per block
        // (1 KiB on compute capability 8.x and 9.x).
        int by_threads = prop.maxThreadsPerMultiProcessor / block;
        int warps = (block + 31) / 32;
        int regs_per_warp = (std::max(attr.numRegs, 1) * 32 + 255) / 256 * 256;
        int warps_per_sub_partition = prop.regsPerMultiprocessor / 4 / regs_per_warp;
        int by_registers = warps_per_sub_partition * 4 / warps;
        size_t block_shared = shared + attr.sharedSizeBytes;
        int by_shared = block_shared
                            ? int(prop.sharedMemPerMultiprocessor /
                                  (block_shared + prop.reservedSharedMemPerBlock))
                            : 1 << 30;
        int limit = std::min({prop.maxBlocksPerMultiProcessor, by_threads, by_registers, by_shared});
        std::string limiter;  // every resource that allows no more than `limit`, when several do
        for (auto [count, what] : {std::pair{prop.maxBlocksPerMultiProcessor, "blocks"},
                                   std::pair{by_threads, "threads"}, std::pair{by_registers, "registers"},
                                   std::pair{by_shared, "shared memory"}})
            if (count == limit) limiter += (limiter.empty() ? "" : ", ") + std::string(what);
        double occupancy = 100.0 * per_sm * block / prop.maxThreadsPerMultiProcessor;
        std::printf("%-14s %5d threads %6zu B shared %3d regs: %2d blocks/SM, %5.1f%% occupancy "
                    "(by the limits: %d, %s)\n",
                    name, block, shared, attr.numRegs, per_sm, occupancy, limit, limiter.c_str());
        // The API's answer must respect every limit of the multiprocessor.
        bool sane = per_sm >= 1 && per_sm * block <= prop.maxThreadsPerMultiProcessor &&
                    per_sm <= prop.maxBlocksPerMultiProcessor &&
                    per_sm * block_shared <= prop.sharedMemPerMultiprocessor;
        if (!sane) {
            std::printf("  the occupancy API's answer breaks a limit of the multiprocessor\n");
            ++bad;
        }
        CHECK(cudaMemcpy(d_y, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
        kernel<<<per_sm * prop.multiProcessorCount, block, shared>>>(2.0f, d_x, d_y, n);
        CHECK(cudaGetLastError());
        std::vector<float> got(n);
        CHECK(cudaMemcpy(got.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; ++i) bad += got[i] != 2.0f * x[i] + 1.0f;
        checksum += got[n - 1];
        ++runs;
    };

    std::printf("-- block size\n");
    for (int block : {32, 64, 128, 256, 512, 1024}) ask("saxpy", saxpy, block, 0);
    std::printf("-- shared memory per block, 256 threads\n");
    for (size_t shared : {size_t(1024), size_t(16384), size_t(32768), size_t(49152)})
        ask("saxpy_staged", saxpy_staged, 256, shared);
    std::printf("-- __launch_bounds__(256, 4)\n");
    ask("saxpy_bounded", saxpy_bounded, 256, 0);

    // Let the runtime pick: the block size that keeps the most threads resident (the largest
    // such), and the grid that fills every SM with it.
    std::printf("-- cudaOccupancyMaxPotentialBlockSize\n");
    int min_grid = 0, best_block = 0;
    CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &best_block, saxpy));
    std::printf("saxpy: block %d, grid %d\n", best_block, min_grid);
    ask("saxpy", saxpy, best_block, 0);
    // 64 bytes of shared memory per thread: 1024 threads would need 64 KiB, more than a block
    // gets without opting in.
    CHECK(cudaOccupancyMaxPotentialBlockSizeVariableSMem(
        &min_grid, &best_block, saxpy_staged, [](int threads) { return threads * 64; }));
    std::printf("saxpy_staged, 64 B shared per thread: block %d, grid %d\n", best_block, min_grid);
    ask("saxpy_staged", saxpy_staged, best_block, size_t(best_block) * 64);

    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_y));
    std::printf("%d configurations ran and matched the CPU: %s\n", runs, bad ? "no" : "yes");
    std::printf("checksum %.1f\n", checksum);
    if (bad) {
        std::printf("FAILED: %d results or answers were wrong\n", bad);
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
