// Lesson 17: an image convolution, the tutorial's objective. Every output pixel is a weighted sum
// of the 5x5 pixels around it. The filter lives in __constant__ memory; the tiled kernel stages
// its block's pixels and a halo of RADIUS pixels around them in shared memory, so each input
// pixel is read from global memory about once instead of 25 times. Both kernels are checked
// against a CPU loop. With the argument `halo_bug` the program runs a tiled kernel that forgets
// the halo, for the checker.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
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

constexpr int RADIUS = 2;
constexpr int WIDTH = 2 * RADIUS + 1;  // a 5x5 filter
constexpr int TILE = 16;               // a block of 16x16 threads, one output pixel each
constexpr int SPAN = TILE + 2 * RADIUS;

// Every thread reads the same filter element at the same time: constant memory broadcasts
// such a read to the whole warp from its own cache.
__constant__ float filter[WIDTH][WIDTH];

// Pixels outside the image count as 0.
__device__ float pixel(const float* in, int w, int h, int x, int y) {
    return x >= 0 && x < w && y >= 0 && y < h ? in[y * w + x] : 0.0f;
}

// Each thread reads its 25 neighbours straight from global memory.
__global__ void convolve_naive(const float* in, float* out, int w, int h) {
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    if (x >= w || y >= h) return;
    float sum = 0.0f;
    for (int dy = 0; dy < WIDTH; ++dy)
        for (int dx = 0; dx < WIDTH; ++dx)
            sum += filter[dy][dx] * pixel(in, w, h, x + dx - RADIUS, y + dy - RADIUS);
    out[y * w + x] = sum;
}

// The block's 20x20 input pixels (its 16x16 and a halo of 2 on every side) are loaded once into
// shared memory, by the 256 threads together, then each thread sums from there.
__global__ void convolve_tiled(const float* in, float* out, int w, int h) {
    __shared__ float tile[SPAN][SPAN];
    int x0 = blockIdx.x * TILE - RADIUS, y0 = blockIdx.y * TILE - RADIUS;  // the tile's corner
    for (int k = threadIdx.y * TILE + threadIdx.x; k < SPAN * SPAN; k += TILE * TILE)
        tile[k / SPAN][k % SPAN] = pixel(in, w, h, x0 + k % SPAN, y0 + k / SPAN);
    __syncthreads();  // the whole tile, halo included, before anyone reads it
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    if (x >= w || y >= h) return;
    float sum = 0.0f;
    for (int dy = 0; dy < WIDTH; ++dy)
        for (int dx = 0; dx < WIDTH; ++dx) sum += filter[dy][dx] * tile[threadIdx.y + dy][threadIdx.x + dx];
    out[y * w + x] = sum;
}

// The bug: each thread loads only its own pixel, into the middle of the tile. The halo's cells
// are never written, and the threads at the block's edges read them.
__global__ void convolve_no_halo(const float* in, float* out, int w, int h) {
    __shared__ float tile[SPAN][SPAN];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y + RADIUS][threadIdx.x + RADIUS] = pixel(in, w, h, x, y);
    __syncthreads();
    if (x >= w || y >= h) return;
    float sum = 0.0f;
    for (int dy = 0; dy < WIDTH; ++dy)
        for (int dx = 0; dx < WIDTH; ++dx)
            sum += filter[dy][dx] * tile[threadIdx.y + dy][threadIdx.x + dx];  // the halo is read here
    out[y * w + x] = sum;
}

int main(int argc, char** argv) {
    const bool halo_bug = argc > 1 && std::strcmp(argv[1], "halo_bug") == 0;
    // A 256x256 image unless a side is given (`17_convolution_cuda 4096` on a GPU).
    const int side = argc > 1 && !halo_bug ? std::atoi(argv[1]) : 256;
    if (side < 16 || side > 16384) {
        std::printf("give the image's side, from 16 to 16384, or `halo_bug`\n");
        return 2;
    }
    const int w = side, h = side;
    std::vector<float> image(size_t(w) * h);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) image[size_t(y) * w + x] = static_cast<float>((x * 7 + y * 13) % 256);

    // A 5x5 Gaussian blur, normalised to sum to 1.
    float host_filter[WIDTH][WIDTH];
    float norm = 0.0f;
    for (int dy = 0; dy < WIDTH; ++dy)
        for (int dx = 0; dx < WIDTH; ++dx) {
            float r2 = float((dy - RADIUS) * (dy - RADIUS) + (dx - RADIUS) * (dx - RADIUS));
            host_filter[dy][dx] = std::exp(-r2 / 2.0f);
            norm += host_filter[dy][dx];
        }
    for (auto& row : host_filter)
        for (float& v : row) v /= norm;

    // The CPU loop, in the kernels' order of summation.
    std::vector<float> expect(image.size());
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            float sum = 0.0f;
            for (int dy = 0; dy < WIDTH; ++dy)
                for (int dx = 0; dx < WIDTH; ++dx) {
                    int sx = x + dx - RADIUS, sy = y + dy - RADIUS;
                    float p = sx >= 0 && sx < w && sy >= 0 && sy < h ? image[size_t(sy) * w + sx] : 0.0f;
                    sum += host_filter[dy][dx] * p;
                }
            expect[size_t(y) * w + x] = sum;
        }

    CHECK(cudaFree(0));  // the context, made before anything is timed
    // cudaMemcpyToSymbol copies into a __constant__ (or __device__) variable by its name.
    CHECK(cudaMemcpyToSymbol(filter, host_filter, sizeof host_filter));
    const size_t bytes = image.size() * sizeof(float);
    float *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, bytes));
    CHECK(cudaMalloc(&d_out, bytes));
    CHECK(cudaMemcpy(d_in, image.data(), bytes, cudaMemcpyHostToDevice));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    dim3 block(TILE, TILE), grid((w + TILE - 1) / TILE, (h + TILE - 1) / TILE);
    std::vector<float> out(image.size());

    // Runs a kernel: once to warm up, then `repeats` times between two events; compares every
    // pixel with the CPU's (within float rounding: nvcc fuses the multiply and the add).
    const int repeats = 2;
    double checksum = 0;
    // Each kernel is launched at its own line below, so that SIMT_PROFILE=text counts each under
    // its own name.
    auto run = [&](const char* name, auto launch) {
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
        CHECK(cudaMemcpy(out.data(), d_out, bytes, cudaMemcpyDeviceToHost));
        int wrong = 0;
        double sum = 0;
        for (size_t i = 0; i < out.size(); ++i) {
            wrong += !(std::fabs(out[i] - expect[i]) <= 1e-4f * (1.0f + std::fabs(expect[i])));
            sum += out[i];
        }
        checksum = sum;
        // Effective bandwidth: the image read once and written once.
        std::printf("%-10s %8.2f us  %7.1f GB/s  %-16s", name, ms * 1e3, 2.0 * bytes / (ms * 1e-3) / 1e9,
                    wrong ? (std::to_string(wrong) + " pixels wrong").c_str() : "matches the CPU");
        if (!std::isnan(simulator_ms))  // a GPU build has no simulator time
            std::printf("  simulator %.1f ms", simulator_ms / repeats);
        std::printf("\n");
        return wrong;
    };

    std::printf("-- a %dx%d image through a %dx%d Gaussian; times are the mean of %d launches\n", w,
                h, WIDTH, WIDTH, repeats);
    std::printf("-- GPU time and bandwidth: %s\n", simt::gpu_time_label().c_str());
    int wrong = 0;
    if (halo_bug) {
        std::printf("-- the tiled kernel without its halo (watch for the report)\n");
        // Its pixels at the blocks' edges come out wrong: that is the point, not a failure.
        run("no halo", [&] { convolve_no_halo<<<grid, block>>>(d_in, d_out, w, h); });
    } else {
        wrong += run("naive", [&] { convolve_naive<<<grid, block>>>(d_in, d_out, w, h); });
        wrong += run("tiled", [&] { convolve_tiled<<<grid, block>>>(d_in, d_out, w, h); });
    }
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));

    std::printf("checksum %.1f\n", checksum);
    if (wrong) {
        std::printf("FAILED: a kernel differs from the CPU's convolution\n");
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
