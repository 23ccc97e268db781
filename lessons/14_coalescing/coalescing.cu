// Lesson 14: coalescing. Two copy kernels, one reading and writing at an offset, one at a stride,
// as in NVIDIA's Best Practices Guide. A warp's 32 loads become as few 32-byte sectors as their
// addresses allow; the program counts the sectors each pattern needs, times every copy and checks
// that each copied what it should.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <vector>

#include <cuda_runtime.h>
#include <simt/simt.hpp>  // simt::gpu_elapsed_time: the GPU's time, measured or predicted

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t err_ = (call);                                                       \
        if (err_ != cudaSuccess) {                                                       \
            std::fprintf(stderr, "%s:%d: %s (%s)\n", __FILE__, __LINE__,                 \
                         cudaGetErrorString(err_), cudaGetErrorName(err_));              \
            std::exit(EXIT_FAILURE);                                                     \
        }                                                                                \
    } while (0)

// Thread i copies element i + offset: a warp reads 32 neighbouring floats, shifted.
__global__ void copy_offset(const float* in, float* out, int offset) {
    int i = blockIdx.x * blockDim.x + threadIdx.x + offset;
    out[i] = in[i];
}

// Thread i copies element i * stride: a warp's 32 floats spread over 32 * stride.
__global__ void copy_stride(const float* in, float* out, int stride) {
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * stride;
    out[i] = in[i];
}

// How many 32-byte sectors one warp's load touches, from its addresses: what the profiler's
// l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum divided by l1tex__t_requests_..._ld.sum gives
// for these kernels. cudaMalloc memory starts 256-byte aligned, so element 0 opens a sector.
int sectors_per_warp(int offset, int stride) {
    std::set<long> sectors;
    for (int lane = 0; lane < 32; ++lane) sectors.insert((long(lane) * stride + offset) * 4 / 32);
    return static_cast<int>(sectors.size());
}

// Arguments: `offset K` or `stride K` runs that one pattern (so that SIMT_PROFILE=text shows its
// counters alone); then, or alone, the number of threads per copy as a power of two: 2^15 unless
// given (`14_coalescing_cuda 22` on a GPU, where copies of 128 KiB are over in a few microseconds
// and launch overhead dominates).
int main(int argc, char** argv) {
    int only = -1;  // the one offset or stride to run, or -1 for all
    bool only_stride = false;
    int arg = 1;
    if (argc > 2 && (std::strcmp(argv[1], "offset") == 0 || std::strcmp(argv[1], "stride") == 0)) {
        only_stride = argv[1][0] == 's';
        only = std::atoi(argv[2]);
        arg = 3;
    }
    const int log2_threads = argc > arg ? std::atoi(argv[arg]) : 15;
    if (log2_threads < 10 || log2_threads > 24 || only > 32 || (only_stride && only == 0)) {
        std::printf("usage: 14_coalescing [offset 0..32 | stride 1..32] [log2 of the threads, 10 to 24]\n");
        return 2;
    }
    const int threads = 1 << log2_threads, block = 256, blocks = threads / block;
    const int max_shift = 32;
    const size_t elements = size_t(threads) * max_shift + max_shift;  // room for stride 32
    std::vector<float> host(elements);
    for (size_t i = 0; i < elements; ++i) host[i] = static_cast<float>(i % 1024);

    CHECK(cudaFree(0));  // the context, made before anything is timed
    float *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, elements * sizeof(float)));
    CHECK(cudaMalloc(&d_out, elements * sizeof(float)));
    CHECK(cudaMemcpy(d_in, host.data(), elements * sizeof(float), cudaMemcpyHostToDevice));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    std::vector<float> out(elements);

    // Runs one pattern: a warm-up launch, then `repeats` timed ones; checks the copied elements.
    const int repeats = 2;
    int wrong = 0;
    double checksum = 0;
    auto run = [&](bool strided, int shift) {
        CHECK(cudaMemset(d_out, 0, elements * sizeof(float)));
        auto launch = [&] {
            if (strided) copy_stride<<<blocks, block>>>(d_in, d_out, shift);
            else copy_offset<<<blocks, block>>>(d_in, d_out, shift);
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
        CHECK(cudaMemcpy(out.data(), d_out, elements * sizeof(float), cudaMemcpyDeviceToHost));
        for (int t = 0; t < threads; ++t) {
            size_t i = strided ? size_t(t) * shift : size_t(t) + shift;
            wrong += out[i] != host[i];
            checksum += out[i];
        }
        // Effective bandwidth: the bytes the kernel means to move (one float read and one
        // written per thread), whatever the memory had to fetch to move them.
        double gbps = 2.0 * threads * sizeof(float) / (ms * 1e-3) / 1e9;
        int sectors = strided ? sectors_per_warp(0, shift) : sectors_per_warp(shift, 1);
        std::printf("%-7s %2d   %2d sectors/request  %5.1f%% of fetched bytes used  %8.2f us  %7.1f GB/s",
                    strided ? "stride" : "offset", shift, sectors, 100.0 * 4 / sectors, ms * 1e3, gbps);
        if (!std::isnan(simulator_ms))  // a GPU build has no simulator time
            std::printf("  simulator %6.2f ms", simulator_ms / repeats);
        std::printf("\n");
    };

    std::printf("-- %d threads per copy, blocks of %d; the times are the mean of %d launches\n",
                threads, block, repeats);
    std::printf("-- GPU time and bandwidth: %s\n", simt::gpu_time_label().c_str());
    if (only >= 0) {
        run(only_stride, only);
    } else {
        for (int offset = 0; offset <= 32; ++offset) run(false, offset);
        for (int stride = 1; stride <= 32; ++stride) run(true, stride);
    }

    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    std::printf("every copy matches the CPU: %s\n", wrong ? "no" : "yes");
    std::printf("checksum %.0f\n", checksum);
    if (wrong) {
        std::printf("FAILED: %d copied elements differ\n", wrong);
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
