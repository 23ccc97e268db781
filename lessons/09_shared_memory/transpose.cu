// Lesson 09: shared memory, on a matrix transpose. The naive kernel reads rows and writes
// columns; the tiled kernels stage a 32x32 tile in shared memory so that both the read and the
// write go along rows; the padded tile also avoids shared-memory bank conflicts. A fourth kernel
// forgets the __syncthreads() between writing and reading the tile, and the checkers say so.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
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

constexpr int TILE = 32;       // a tile of the matrix per block
constexpr int BLOCK_ROWS = 8;  // a block of 32 x 8 threads: each thread moves 4 elements

// The matrices are n x n, row-major: element (r, c) is at r * n + c.
__global__ void transpose_naive(const int* in, int* out, int n) {
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        out[x * n + (y + j)] = in[(y + j) * n + x];  // neighbouring threads write a column: far apart
}

__global__ void transpose_tiled(const int* in, int* out, int n) {
    __shared__ int tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();  // every element of the tile is written before any thread reads it
    x = blockIdx.y * TILE + threadIdx.x;  // the transposed block
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

// One extra column: element (r, c) moves to bank (r * 33 + c) % 32, so a column read by the 32
// lanes of a warp touches 32 different banks instead of one bank 32 times.
__global__ void transpose_padded(const int* in, int* out, int n) {
    __shared__ int tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

// The tiled transposes again, over doubles: a warp's 32 elements are 256 bytes, two wavefronts
// at best (the banks deliver 128 bytes per wavefront). Without padding, lane i's element (i, k)
// starts at 4-byte word 2 (32 i + k), in bank 2k % 32 for every lane: a 16-way conflict on each
// half of the warp. With 33 columns, lanes i and i + 16 share banks, the least two wavefronts
// allow.
__global__ void transpose_tiled_double(const double* in, double* out, int n) {
    __shared__ double tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transpose_padded_double(const double* in, double* out, int n) {
    __shared__ double tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

// A broadcast: every lane of a warp reads the same word, tile[row][0], which the banks serve in
// one wavefront, no conflict. Each element gets the first element of its row in the tile added.
__global__ void add_row_start(const int* in, int* out, int n) {
    __shared__ int tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        out[(y + j) * n + x] = tile[threadIdx.y + j][threadIdx.x] + tile[threadIdx.y + j][0];
}

__global__ void transpose_no_barrier(const int* in, int* out, int n) {
    __shared__ int tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    // __syncthreads() forgotten: a thread reads tile elements that other threads have not written
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];  // the missing barrier shows here
}

// The matrix is n x n, n a multiple of 32: 512 unless given (`09_shared_memory 4096`).
int main(int argc, char** argv) {
    const int n = argc > 1 ? std::atoi(argv[1]) : 512;
    if (n < TILE || n % TILE != 0 || n > 8192) {
        std::printf("the size must be a multiple of %d, from %d to 8192\n", TILE, TILE);
        return 2;
    }
    const size_t bytes = size_t(n) * n * sizeof(int);
    std::vector<int> host(size_t(n) * n);
    for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<int>(i);
    std::vector<double> host_d(host.begin(), host.end());
    CHECK(cudaFree(0));  // the context, made before anything is timed
    int* d_in;
    double* d_in_d;
    CHECK(cudaMalloc(&d_in, bytes));
    CHECK(cudaMalloc(&d_in_d, 2 * bytes));
    CHECK(cudaMemcpy(d_in, host.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_in_d, host_d.data(), 2 * bytes, cudaMemcpyHostToDevice));
    dim3 grid(n / TILE, n / TILE), block(TILE, BLOCK_ROWS);
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));

    // Runs one kernel through `launch(out)`: once to warm up, then `repeats` times between two
    // events. Prints the GPU's mean time (measured on a GPU; in the simulator, predicted for the
    // GPU it models, from what it counted), the effective bandwidth at that time (the matrix read
    // once and written once), how many elements differ from `expect(r, c)` and, in the
    // simulator, its own time; returns the count of wrong elements, and adds a sample of the
    // output to `sample`. Each kernel is launched at its own line below, so that
    // SIMT_PROFILE=text counts each under its own name.
    auto run = [&](const char* name, auto* out_type, auto launch, auto expect, long& sample,
                   int repeats) {
        using T = std::remove_pointer_t<decltype(out_type)>;
        const size_t out_bytes = size_t(n) * n * sizeof(T);
        T* d_out;
        CHECK(cudaMalloc(&d_out, out_bytes));
        if (repeats > 1) launch(d_out);  // warm-up
        CHECK(cudaEventRecord(start));
        for (int r = 0; r < repeats; ++r) launch(d_out);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        float ms = 0, simulator_ms = 0;
        CHECK(simt::gpu_elapsed_time(&ms, start, stop));
        CHECK(simt::simulator_elapsed_time(&simulator_ms, start, stop));
        ms /= repeats;
        std::vector<T> t(size_t(n) * n);
        CHECK(cudaMemcpy(t.data(), d_out, out_bytes, cudaMemcpyDeviceToHost));
        CHECK(cudaFree(d_out));
        int wrong = 0;
        for (size_t r = 0; r < size_t(n); ++r)
            for (size_t c = 0; c < size_t(n); ++c) wrong += t[r * n + c] != expect(r, c);
        for (size_t r = 0; r < size_t(n); r += 7) sample += static_cast<long>(t[r * n + (r * 3) % n]);
        std::printf("%-24s %8.2f us  %7.1f GB/s  %-22s", name, ms * 1e3,
                    2.0 * out_bytes / (ms * 1e-3) / 1e9,
                    wrong ? (std::to_string(wrong) + " elements wrong").c_str() : "correct");
        if (!std::isnan(simulator_ms))  // a GPU build has no simulator time
            std::printf("  simulator %7.2f ms", simulator_ms / repeats);
        std::printf("\n");
        return wrong;
    };
    auto transposed = [&](size_t r, size_t c) { return host[c * n + r]; };
    auto transposed_d = [&](size_t r, size_t c) { return host_d[c * n + r]; };
    auto plus_row_start = [&](size_t r, size_t c) { return host[r * n + c] + host[r * n + c - c % TILE]; };
    int* as_int = nullptr;
    double* as_double = nullptr;

    // The checksum samples what the correct kernels wrote, so that `./lab verify` compares the
    // outputs of both backends. The kernel without a barrier is left out: its output depends on
    // the order in which threads happen to run.
    const int repeats = 2;
    long checksum = 0, ignored = 0;
    std::printf("-- a %dx%d matrix, blocks of %dx%d threads; the mean of %d launches each\n", n, n,
                TILE, BLOCK_ROWS, repeats);
    std::printf("-- GPU time and bandwidth: %s\n", simt::gpu_time_label().c_str());
    int wrong = 0;
    wrong += run("naive", as_int, [&](int* out) { transpose_naive<<<grid, block>>>(d_in, out, n); },
                 transposed, checksum, repeats);
    wrong += run("tiled", as_int, [&](int* out) { transpose_tiled<<<grid, block>>>(d_in, out, n); },
                 transposed, checksum, repeats);
    wrong += run("tiled and padded", as_int,
                 [&](int* out) { transpose_padded<<<grid, block>>>(d_in, out, n); }, transposed,
                 checksum, repeats);
    wrong += run("tiled, double", as_double,
                 [&](double* out) { transpose_tiled_double<<<grid, block>>>(d_in_d, out, n); },
                 transposed_d, checksum, repeats);
    wrong += run("tiled and padded, double", as_double,
                 [&](double* out) { transpose_padded_double<<<grid, block>>>(d_in_d, out, n); },
                 transposed_d, checksum, repeats);
    wrong += run("broadcast (add_row_start)", as_int,
                 [&](int* out) { add_row_start<<<grid, block>>>(d_in, out, n); }, plus_row_start,
                 checksum, repeats);
    std::printf("-- and once without the __syncthreads() (watch for the reports)\n");
    run("no barrier", as_int, [&](int* out) { transpose_no_barrier<<<grid, block>>>(d_in, out, n); },
        transposed, ignored, 1);
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_in_d));

    std::printf("checksum %ld\n", checksum);
    if (wrong) {
        std::printf("FAILED: a correct kernel gave a wrong transpose\n");
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
