// Lesson 10: reducing an array to one value, on Mark Harris's ladder. Each step is a kernel that
// sums its block's part of the array; each removes one cost of the step before: divergent
// warps, bank conflicts, idle threads, barriers, shared memory itself, and the second launch.
// Then simt::reduce, simt's library shortcut (Numba's @cuda.reduce). With the argument `race`,
// the program runs the warp-synchronous step without __syncwarp() instead, for the checker.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>
#include <simt/simt.hpp>  // simt::reduce, and simt::gpu_elapsed_time: the GPU's time

namespace cg = cooperative_groups;

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t err_ = (call);                                                       \
        if (err_ != cudaSuccess) {                                                       \
            std::fprintf(stderr, "%s:%d: %s (%s)\n", __FILE__, __LINE__,                 \
                         cudaGetErrorString(err_), cudaGetErrorName(err_));              \
            std::exit(EXIT_FAILURE);                                                     \
        }                                                                                \
    } while (0)

constexpr int THREADS = 256;
constexpr int WARPS = THREADS / 32;

// 1. Interleaved addressing. At step `stride` the threads whose index is a multiple of 2 stride
// add: every warp has a few active lanes, and every warp runs the branch.
__global__ void reduce_interleaved(const float* in, float* partial, int n) {
    __shared__ float s[THREADS];
    int t = threadIdx.x, i = blockIdx.x * THREADS + t;
    s[t] = i < n ? in[i] : 0.0f;  // 0 is the identity of +: missing elements add nothing
    __syncthreads();
    for (int stride = 1; stride < THREADS; stride *= 2) {
        if (t % (2 * stride) == 0) s[t] += s[t + stride];
        __syncthreads();  // the next step reads what this step wrote
    }
    if (t == 0) partial[blockIdx.x] = s[0];
}

// 2. Strided index: the active threads are the first ones, so whole warps finish early; but
// thread t works on s[2 stride t], and the lanes of a warp collide in shared-memory banks.
__global__ void reduce_strided(const float* in, float* partial, int n) {
    __shared__ float s[THREADS];
    int t = threadIdx.x, i = blockIdx.x * THREADS + t;
    s[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int stride = 1; stride < THREADS; stride *= 2) {
        int k = 2 * stride * t;
        if (k < THREADS) s[k] += s[k + stride];
        __syncthreads();
    }
    if (t == 0) partial[blockIdx.x] = s[0];
}

// 3. Sequential addressing: the lower half adds the upper half. Active threads are contiguous
// and neighbouring lanes touch neighbouring words: no divergence within a warp (until fewer
// than 32 are active), no bank conflicts. Half the threads idle from the first step.
__global__ void reduce_sequential(const float* in, float* partial, int n) {
    __shared__ float s[THREADS];
    int t = threadIdx.x, i = blockIdx.x * THREADS + t;
    s[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride /= 2) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) partial[blockIdx.x] = s[0];
}

// Loads two elements per thread and adds them: a block covers 2 x THREADS elements, so half as
// many blocks, and no thread is idle in the first step.
__device__ float load_two(const float* in, int n) {
    int i = blockIdx.x * 2 * THREADS + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    if (i + THREADS < n) v += in[i + THREADS];
    return v;
}

// 4. First add during load.
__global__ void reduce_first_add(const float* in, float* partial, int n) {
    __shared__ float s[THREADS];
    int t = threadIdx.x;
    s[t] = load_two(in, n);
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride /= 2) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) partial[blockIdx.x] = s[0];
}

// 5. The last warp unrolled. Once 32 threads or fewer are active they are one warp, which needs
// no block-wide barrier, only __syncwarp(): lanes of a warp are not in lockstep (since Volta),
// so each write must be ordered before the other lanes' reads, and each read before the next
// write.
__global__ void reduce_last_warp(const float* in, float* partial, int n) {
    __shared__ float s[THREADS];
    int t = threadIdx.x;
    s[t] = load_two(in, n);
    __syncthreads();
    for (int stride = THREADS / 2; stride > 32; stride /= 2) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t < 32) {
        float v = s[t] + s[t + 32];
        for (int offset = 16; offset > 0; offset /= 2) {
            __syncwarp();
            s[t] = v;
            __syncwarp();
            v += s[t + offset];
        }
        if (t == 0) partial[blockIdx.x] = v;
    }
}

// The same step as Harris wrote it for GPUs before Volta: a volatile pointer and no __syncwarp,
// relying on the 32 lanes running in lockstep. Nothing orders one lane's write before another
// lane's read. (Run with the argument `race`.)
__global__ void reduce_last_warp_unsynced(const float* in, float* partial, int n) {
    __shared__ float s[THREADS];
    int t = threadIdx.x;
    s[t] = load_two(in, n);
    __syncthreads();
    for (int stride = THREADS / 2; stride > 32; stride /= 2) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t < 32) {
        volatile float* vs = s;
        vs[t] = vs[t] + vs[t + 32];  // lane 1 writes s[1], which lane 0 reads below: the race is here
        vs[t] = vs[t] + vs[t + 16];
        vs[t] = vs[t] + vs[t + 8];
        vs[t] = vs[t] + vs[t + 4];
        vs[t] = vs[t] + vs[t + 2];
        vs[t] = vs[t] + vs[t + 1];
    }
    if (t == 0) partial[blockIdx.x] = s[0];
}

// Sums v over the lanes of a warp with shuffles: each lane reads a register of the lane
// `offset` above it. Lane 0 ends with the warp's sum. No shared memory, no barrier.
__device__ float warp_sum(float v) {
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

// 6. Warp shuffles: each warp sums its 32 values in registers; the warps' sums meet in a
// shared array of 8, which the first warp sums the same way.
__global__ void reduce_shuffle(const float* in, float* partial, int n) {
    __shared__ float warp_sums[WARPS];
    int t = threadIdx.x, lane = t % 32, warp = t / 32;
    float v = warp_sum(load_two(in, n));
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = warp_sum(lane < WARPS ? warp_sums[lane] : 0.0f);
        if (lane == 0) partial[blockIdx.x] = v;
    }
}

// Sums v over the block with cooperative groups: cg::reduce over each warp's tile, then over
// the first tile. Thread 0 gets the block's sum.
__device__ float block_sum_cg(float v) {
    __shared__ float warp_sums[WARPS];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    v = cg::reduce(tile, v, cg::plus<float>());
    if (tile.thread_rank() == 0) warp_sums[tile.meta_group_rank()] = v;
    block.sync();
    if (tile.meta_group_rank() == 0) {
        v = tile.thread_rank() < WARPS ? warp_sums[tile.thread_rank()] : 0.0f;
        v = cg::reduce(tile, v, cg::plus<float>());
    }
    return v;
}

// 7. cg::reduce: step 6 in the library's words.
__global__ void reduce_cg(const float* in, float* partial, int n) {
    float v = block_sum_cg(load_two(in, n));
    if (threadIdx.x == 0) partial[blockIdx.x] = v;
}

// 8. One atomic per block: each block adds its sum to the total, so one launch gives the whole
// sum. The blocks' adds come in any order; with these small integers every order is exact.
__global__ void reduce_atomic(const float* in, float* total, int n) {
    float v = block_sum_cg(load_two(in, n));
    if (threadIdx.x == 0) atomicAdd(total, v);
}

int main(int argc, char** argv) {
    const bool race = argc > 1 && std::strcmp(argv[1], "race") == 0;
    // 2^16 floats unless given as a power of two (`10_reduction_cuda 26` on a GPU: 256 KiB is read
    // in microseconds, about what a launch costs).
    const int log2_n = argc > 1 && !race ? std::atoi(argv[1]) : 16;
    if (log2_n < 10 || log2_n > 28) {
        std::printf("give the size as a power of two from 10 to 28, or `race`\n");
        return 2;
    }
    const int n = 1 << log2_n;
    std::vector<float> host(n);
    for (int i = 0; i < n; ++i) host[i] = static_cast<float>(i % 10);  // sums stay exact in float
    double expect = 0;
    for (float v : host) expect += v;

    CHECK(cudaFree(0));  // the context, made before anything is timed
    float *d_in, *d_partial;
    const int blocks_one = (n + THREADS - 1) / THREADS;        // one element per thread
    const int blocks_two = (n + 2 * THREADS - 1) / (2 * THREADS);  // two per thread
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_partial, blocks_one * sizeof(float)));
    CHECK(cudaMemcpy(d_in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));

    // Runs one step: a warm-up launch, then `repeats` timed ones; the host adds the partial sums
    // (for step 8 there is one). Prints the time and the effective bandwidth: n floats read.
    const int repeats = 2;
    int wrong = 0;
    double device_sum = 0;  // the last step's, for the checksum
    // Each kernel is launched at its own line below, so that SIMT_PROFILE=text counts each under
    // its own name.
    auto step = [&](const char* name, auto kernel_launch, int blocks, bool atomic) {
        auto launch = [&] {
            if (atomic) CHECK(cudaMemset(d_partial, 0, sizeof(float)));
            kernel_launch(blocks);
        };
        launch();
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(start));
        for (int r = 0; r < repeats; ++r) launch();
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        float ms = 0, simulator_ms = 0;
        CHECK(simt::gpu_elapsed_time(&ms, start, stop));
        CHECK(simt::simulator_elapsed_time(&simulator_ms, start, stop));
        ms /= repeats;
        int sums = atomic ? 1 : blocks;
        std::vector<float> partial(sums);
        CHECK(cudaMemcpy(partial.data(), d_partial, sums * sizeof(float), cudaMemcpyDeviceToHost));
        double total = 0;
        for (float v : partial) total += v;
        device_sum = total;
        std::printf("%-26s %12.1f  %5d block sums  %8.2f us  %7.1f GB/s%s", name, total, sums,
                    ms * 1e3, n * sizeof(float) / (ms * 1e-3) / 1e9, total != expect ? "  WRONG" : "");
        if (!std::isnan(simulator_ms))  // a GPU build has no simulator time
            std::printf("  simulator %6.2f ms", simulator_ms / repeats);
        std::printf("\n");
        return total == expect;
    };

    if (race) {
        std::printf("-- the last warp without __syncwarp() (watch for the report)\n");
        // Its sum may come out right or wrong: the race is the point, not the value.
        step("5 without __syncwarp",
             [&](int b) { reduce_last_warp_unsynced<<<b, THREADS>>>(d_in, d_partial, n); }, blocks_two,
             false);
        device_sum = expect;
    } else {
        std::printf("-- the sum of %d floats: %.1f on the CPU; each time the mean of %d launches\n",
                    n, expect, repeats);
        std::printf("-- GPU time and bandwidth: %s\n", simt::gpu_time_label().c_str());
        wrong += !step("1 interleaved, t % 2s",
             [&](int b) { reduce_interleaved<<<b, THREADS>>>(d_in, d_partial, n); }, blocks_one,
             false);
        wrong += !step("2 strided index",
             [&](int b) { reduce_strided<<<b, THREADS>>>(d_in, d_partial, n); }, blocks_one,
             false);
        wrong += !step("3 sequential addressing",
             [&](int b) { reduce_sequential<<<b, THREADS>>>(d_in, d_partial, n); }, blocks_one,
             false);
        wrong += !step("4 first add during load",
             [&](int b) { reduce_first_add<<<b, THREADS>>>(d_in, d_partial, n); }, blocks_two,
             false);
        wrong += !step("5 last warp, __syncwarp",
             [&](int b) { reduce_last_warp<<<b, THREADS>>>(d_in, d_partial, n); }, blocks_two,
             false);
        wrong += !step("6 warp shuffles",
             [&](int b) { reduce_shuffle<<<b, THREADS>>>(d_in, d_partial, n); }, blocks_two,
             false);
        wrong += !step("7 cg::reduce",
             [&](int b) { reduce_cg<<<b, THREADS>>>(d_in, d_partial, n); }, blocks_two,
             false);
        wrong += !step("8 one atomic per block",
             [&](int b) { reduce_atomic<<<b, THREADS>>>(d_in, d_partial, n); }, blocks_two,
             true);
    }
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_partial));

    // simt::reduce with a lambda: it copies the vector in, runs a tree and returns the value.
    auto add = [] __host__ __device__ (float a, float b) { return a + b; };
    float total = simt::reduce(add, host);
    float largest = simt::reduce([] __host__ __device__ (float a, float b) { return a > b ? a : b; }, host);
    std::printf("simt::reduce               %12.1f  (max %.1f)\n", total, largest);
    wrong += total != expect || largest != 9.0f;

    std::printf("checksum %.1f\n", device_sum);
    if (wrong) {
        std::printf("FAILED: %d reductions differ from the CPU's sum\n", wrong);
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
