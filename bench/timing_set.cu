// The fixed set of kernels the time model is validated on (docs/profiling.md, "Predicted time";
// docs/gpu-verification.md): the lessons' and the benchmark's kernels at sizes a GPU takes tens of
// microseconds to milliseconds over, written as a course writes CUDA.
//
//   timing_set RUNS    runs each kernel RUNS times and prints "time NAME MEDIAN_US" per kernel,
//                      timed with cudaEvent; with RUNS > 1 one untimed run comes first (warm-up).
//
// `./lab verify --time` runs it once in the simulator under SIMT_PROFILE (one launch per kernel:
// the predictions) and RUNS times on the GPU (the measurements), and compares them by kernel name.
// Each kernel checks its result; a wrong one ends the program with status 1.
#include <simt/simt.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <vector>

namespace {

constexpr int kVector = 1 << 22;  // floats: 16 MiB an array
constexpr int kSide = 2048;       // transposes and the convolution
constexpr int kTile = 32;
constexpr int kMatrix = 512;      // matrix multiplies
constexpr int kLoop = 4096;       // multiply-adds a thread in the arithmetic loop
constexpr int kChase = 4096;      // dependent loads a thread in the pointer chase

#define CHECK_CUDA(call)                                                                  \
    do {                                                                                  \
        cudaError_t err_ = (call);                                                        \
        if (err_ != cudaSuccess) {                                                        \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
            std::exit(1);                                                                 \
        }                                                                                 \
    } while (0)

__global__ void copy(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}

__global__ void vector_add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

__global__ void transpose_naive(const float* in, float* out, int side) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    out[x * side + y] = in[y * side + x];
}

__global__ void transpose_tiled(const float* in, float* out, int side) {
    __shared__ float tile[kTile][kTile];
    int x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * side + x];
    __syncthreads();
    x = blockIdx.y * kTile + threadIdx.x;
    y = blockIdx.x * kTile + threadIdx.y;
    out[y * side + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void transpose_padded(const float* in, float* out, int side) {
    __shared__ float tile[kTile][kTile + 1];
    int x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * side + x];
    __syncthreads();
    x = blockIdx.y * kTile + threadIdx.x;
    y = blockIdx.x * kTile + threadIdx.y;
    out[y * side + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void reduce_shared(const float* in, float* total, int n) {
    __shared__ float partial[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    partial[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(total, partial[0]);
}

__global__ void convolve5x5(const float* in, const float* mask, float* out, int side) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < 2 || y < 2 || x >= side - 2 || y >= side - 2) return;
    float sum = 0.0f;
    for (int dy = -2; dy <= 2; ++dy)
        for (int dx = -2; dx <= 2; ++dx)
            sum += in[(y + dy) * side + x + dx] * mask[(dy + 2) * 5 + dx + 2];
    out[y * side + x] = sum;
}

__global__ void matmul_naive(const float* a, const float* b, float* c, int n) {
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
    c[row * n + col] = sum;
}

__global__ void matmul_tiled(const float* a, const float* b, float* c, int n) {
    __shared__ float as[16][16], bs[16][16];
    int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
    float sum = 0.0f;
    for (int t = 0; t < n; t += 16) {
        as[threadIdx.y][threadIdx.x] = a[row * n + t + threadIdx.x];
        bs[threadIdx.y][threadIdx.x] = b[(t + threadIdx.y) * n + col];
        __syncthreads();
        for (int k = 0; k < 16; ++k) sum += as[threadIdx.y][k] * bs[k][threadIdx.x];
        __syncthreads();
    }
    c[row * n + col] = sum;
}

__global__ void arithmetic_loop(float* data, int iterations) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = data[i];
    for (int k = 0; k < iterations; ++k) x = x * 0.999f + 0.001f;
    data[i] = x;
}

__global__ void pointer_chase(const int* next, int* end, int steps) {
    int at = threadIdx.x;
    for (int s = 0; s < steps; ++s) at = next[at];
    end[threadIdx.x] = at;
}

/// Runs `launch` `runs` times (after one untimed run when runs > 1), each after an untimed
/// `before`; prints its median time.
void time_kernel(const char* name, int runs, const std::function<void()>& launch,
                 const std::function<void()>& before = [] {}) {
    if (runs > 1) before(), launch();
    cudaEvent_t start, stop;
    CHECK_CUDA(cudaEventCreate(&start));
    CHECK_CUDA(cudaEventCreate(&stop));
    std::vector<float> ms;
    for (int r = 0; r < runs; ++r) {
        before();
        CHECK_CUDA(cudaEventRecord(start));
        launch();
        CHECK_CUDA(cudaEventRecord(stop));
        CHECK_CUDA(cudaEventSynchronize(stop));
        float t = 0;
        CHECK_CUDA(cudaEventElapsedTime(&t, start, stop));
        ms.push_back(t);
    }
    CHECK_CUDA(cudaGetLastError());
    std::sort(ms.begin(), ms.end());
    std::printf("time %s %.2f\n", name, ms[ms.size() / 2] * 1000.0);
    CHECK_CUDA(cudaEventDestroy(start));
    CHECK_CUDA(cudaEventDestroy(stop));
}

float* device_floats(const std::vector<float>& host) {
    float* d = nullptr;
    CHECK_CUDA(cudaMalloc(&d, host.size() * sizeof(float)));
    CHECK_CUDA(cudaMemcpy(d, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
    return d;
}

std::vector<float> host_floats(const float* d, std::size_t n) {
    std::vector<float> h(n);
    CHECK_CUDA(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
    return h;
}

void expect(bool ok, const char* kernel) {
    if (ok) return;
    std::fprintf(stderr, "FAILED: %s computed a wrong result\n", kernel);
    std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
    const int runs = argc > 1 ? std::atoi(argv[1]) : 1;
    if (runs < 1) {
        std::fprintf(stderr, "usage: %s RUNS (a number of timed runs, at least 1)\n", argv[0]);
        return 2;
    }
    std::vector<float> ramp(kVector);
    for (int i = 0; i < kVector; ++i) ramp[i] = float(i % 1000) * 0.5f;
    float* a = device_floats(ramp);
    float* b = device_floats(ramp);
    float* c = nullptr;
    CHECK_CUDA(cudaMalloc(&c, kVector * sizeof(float)));
    const int block = 256, grid = kVector / block;

    time_kernel("copy", runs, [&] { copy<<<grid, block>>>(a, c, kVector); });
    expect(host_floats(c, kVector)[12345] == ramp[12345], "copy");
    time_kernel("vector_add", runs, [&] { vector_add<<<grid, block>>>(a, b, c, kVector); });
    expect(host_floats(c, kVector)[777] == 2 * ramp[777], "vector_add");

    const dim3 tiles(kSide / kTile, kSide / kTile), tile_threads(kTile, kTile);
    const dim3 square_threads(32, 8), square_grid(kSide / 32, kSide / 8);
    auto transposed = [&](const char* name) {
        std::vector<float> out = host_floats(c, std::size_t(kSide) * kSide);
        expect(out[5 * kSide + 7] == ramp[7 * kSide + 5], name);
    };
    time_kernel("transpose_naive", runs,
                [&] { transpose_naive<<<square_grid, square_threads>>>(a, c, kSide); });
    transposed("transpose_naive");
    time_kernel("transpose_tiled", runs,
                [&] { transpose_tiled<<<tiles, tile_threads>>>(a, c, kSide); });
    transposed("transpose_tiled");
    time_kernel("transpose_padded", runs,
                [&] { transpose_padded<<<tiles, tile_threads>>>(a, c, kSide); });
    transposed("transpose_padded");

    float* total = nullptr;
    CHECK_CUDA(cudaMalloc(&total, sizeof(float)));
    time_kernel(
        "reduce_shared", runs, [&] { reduce_shared<<<grid, block>>>(a, total, kVector); },
        [&] { CHECK_CUDA(cudaMemset(total, 0, sizeof(float))); });
    double expected = 0;
    for (float v : ramp) expected += v;
    const float sum = host_floats(total, 1)[0];
    expect(std::fabs(sum - expected) <= 1e-3 * expected, "reduce_shared");

    std::vector<float> box(25, 1.0f / 25);
    float* mask = device_floats(box);
    time_kernel("convolve5x5", runs,
                [&] { convolve5x5<<<square_grid, square_threads>>>(a, mask, c, kSide); });
    expect(std::isfinite(host_floats(c, std::size_t(kSide) * kSide)[3 * kSide + 3]), "convolve5x5");

    std::vector<float> ones(std::size_t(kMatrix) * kMatrix, 1.0f);
    float* ma = device_floats(ones);
    float* mb = device_floats(ones);
    const dim3 mgrid(kMatrix / 16, kMatrix / 16), mthreads(16, 16);
    time_kernel("matmul_naive", runs, [&] { matmul_naive<<<mgrid, mthreads>>>(ma, mb, c, kMatrix); });
    expect(host_floats(c, 1)[0] == float(kMatrix), "matmul_naive");
    time_kernel("matmul_tiled", runs, [&] { matmul_tiled<<<mgrid, mthreads>>>(ma, mb, c, kMatrix); });
    expect(host_floats(c, 1)[0] == float(kMatrix), "matmul_tiled");

    time_kernel("arithmetic_loop", runs, [&] { arithmetic_loop<<<grid / 16, block>>>(c, kLoop); });
    expect(std::isfinite(host_floats(c, 1)[0]), "arithmetic_loop");

    // One warp chasing pointers through 1 MiB: every load waits for the one before.
    const int slots = 1 << 18;
    std::vector<int> next(slots);
    for (int i = 0; i < slots; ++i) next[i] = int((std::int64_t(i) * 40503 + 7919) % slots);
    int* dnext = nullptr;
    int* dend = nullptr;
    CHECK_CUDA(cudaMalloc(&dnext, slots * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&dend, 32 * sizeof(int)));
    CHECK_CUDA(cudaMemcpy(dnext, next.data(), slots * sizeof(int), cudaMemcpyHostToDevice));
    time_kernel("pointer_chase", runs, [&] { pointer_chase<<<1, 32>>>(dnext, dend, kChase); });
    int end0 = 0;
    CHECK_CUDA(cudaMemcpy(&end0, dend, sizeof(int), cudaMemcpyDeviceToHost));
    int at = 0;
    for (int s = 0; s < kChase; ++s) at = next[at];
    expect(end0 == at, "pointer_chase");

    for (void* p : {(void*)a, (void*)b, (void*)c, (void*)total, (void*)mask, (void*)ma, (void*)mb,
                    (void*)dnext, (void*)dend})
        CHECK_CUDA(cudaFree(p));
    std::printf("OK\n");
    return 0;
}
