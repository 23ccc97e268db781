// Lesson 09: shared memory, on a matrix transpose. The naive kernel reads rows and writes
// columns; the tiled kernels stage a 32x32 tile in shared memory so that both the read and the
// write go along rows; the padded tile also avoids shared-memory bank conflicts. A fourth kernel
// forgets the __syncthreads() between writing and reading the tile, and the checkers say so.
#include <cstdio>
#include <cstdlib>
#include <string>
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

using Kernel = void (*)(const int*, int*, int);

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
    int* d_in;
    CHECK(cudaMalloc(&d_in, bytes));
    CHECK(cudaMemcpy(d_in, host.data(), bytes, cudaMemcpyHostToDevice));
    dim3 grid(n / TILE, n / TILE), block(TILE, BLOCK_ROWS);
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));

    // Runs one kernel and prints its time and how many elements differ from the CPU's transpose.
    // Returns that count, and adds a sample of the kernel's output to `sample`.
    auto run = [&](const char* name, Kernel kernel, long& sample) {
        int* d_out;
        CHECK(cudaMalloc(&d_out, bytes));
        CHECK(cudaEventRecord(start));
        kernel<<<grid, block>>>(d_in, d_out, n);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, start, stop));
        std::vector<int> t(size_t(n) * n);
        CHECK(cudaMemcpy(t.data(), d_out, bytes, cudaMemcpyDeviceToHost));
        CHECK(cudaFree(d_out));
        int wrong = 0;
        for (size_t r = 0; r < size_t(n); ++r)
            for (size_t c = 0; c < size_t(n); ++c) wrong += t[r * n + c] != host[c * n + r];
        for (size_t r = 0; r < size_t(n); r += 7) sample += t[r * n + (r * 3) % n];
        std::printf("%-22s %8.2f ms  %s\n", name, ms,
                    wrong ? (std::to_string(wrong) + " elements wrong").c_str() : "correct");
        return wrong;
    };

    // The checksum samples what the three correct kernels wrote, so that `./lab verify` compares
    // the outputs of both backends. The kernel without a barrier is left out: its output depends
    // on the order in which threads happen to run.
    long checksum = 0, ignored = 0;
    std::printf("-- transposing a %dx%d matrix, blocks of %dx%d threads\n", n, n, TILE, BLOCK_ROWS);
    int wrong = run("naive", transpose_naive, checksum) + run("tiled", transpose_tiled, checksum) +
                run("tiled and padded", transpose_padded, checksum);
    std::printf("-- and once without the __syncthreads() (watch for the reports)\n");
    run("no barrier", transpose_no_barrier, ignored);
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(d_in));

    std::printf("checksum %ld\n", checksum);
    if (wrong) {
        std::printf("FAILED: a correct kernel gave a wrong transpose\n");
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
