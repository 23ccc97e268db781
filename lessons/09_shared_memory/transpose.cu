// Lesson 09: shared memory, on a matrix transpose. The naive kernel reads rows and writes
// columns; the tiled kernels stage a 32x32 tile in shared memory so that both the read and the
// write go along rows; the padded tile also avoids shared-memory bank conflicts. A fourth kernel
// forgets the __syncthreads() between writing and reading the tile, and the checkers say so.
#include <simt/simt.hpp>

#include <cstdio>
#include <vector>

constexpr int TILE = 32;       // a tile of the matrix per block
constexpr int BLOCK_ROWS = 8;  // a block of 32 x 8 threads: each thread moves 4 elements

__global__ void transpose_naive(simt::mdspan<const int, 2> in, simt::mdspan<int, 2> out) {
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        out(x, y + j) = in(y + j, x);  // neighbouring threads write a column: far apart in memory
}

__global__ void transpose_tiled(simt::mdspan<const int, 2> in, simt::mdspan<int, 2> out) {
    __shared__ simt::shared<int[TILE][TILE]> tile;
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS) tile[threadIdx.y + j][threadIdx.x] = in(y + j, x);
    __syncthreads();  // every element of the tile is written before any thread reads it
    x = blockIdx.y * TILE + threadIdx.x;  // the transposed block
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS) out(y + j, x) = tile[threadIdx.x][threadIdx.y + j];
}

// One extra column: element (r, c) moves to bank (r * 33 + c) % 32, so a column read by the 32
// lanes of a warp touches 32 different banks instead of one bank 32 times.
__global__ void transpose_padded(simt::mdspan<const int, 2> in, simt::mdspan<int, 2> out) {
    __shared__ simt::shared<int[TILE][TILE + 1]> tile;
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS) tile[threadIdx.y + j][threadIdx.x] = in(y + j, x);
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS) out(y + j, x) = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transpose_no_barrier(simt::mdspan<const int, 2> in, simt::mdspan<int, 2> out) {
    __shared__ simt::shared<int[TILE][TILE + 1]> tile;
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS) tile[threadIdx.y + j][threadIdx.x] = in(y + j, x);
    // __syncthreads() forgotten: a thread reads tile elements that other threads have not written
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        out(y + j, x) = tile[threadIdx.x][threadIdx.y + j];  // the missing barrier shows here
}

using Kernel = void (*)(simt::mdspan<const int, 2>, simt::mdspan<int, 2>);

int main() {
    const int n = 512;
    std::vector<int> host(n * n);
    for (int i = 0; i < n * n; ++i) host[i] = i;
    auto in = simt::to_device(host, {n, n});
    dim3 grid(n / TILE, n / TILE), block(TILE, BLOCK_ROWS);

    // Returns how many elements differ from the CPU's transpose, and prints the time taken.
    auto run = [&](const char* name, Kernel k) {
        auto out = simt::device_array_like(in);
        simt::Event start, stop;
        start.record();
        simt::launch(k, grid, block)(in, out);
        stop.record();
        stop.synchronize();
        std::vector<int> t = out.copy_to_host();
        int wrong = 0;
        for (int r = 0; r < n; ++r)
            for (int c = 0; c < n; ++c) wrong += t[r * n + c] != host[c * n + r];
        std::printf("%-22s %8.2f ms  %s\n", name, start.elapsed_ms(stop),
                    wrong ? (std::to_string(wrong) + " elements wrong").c_str() : "correct");
        return wrong;
    };

    std::printf("-- transposing a %dx%d matrix, blocks of %dx%d threads\n", n, n, TILE, BLOCK_ROWS);
    int wrong = run("naive", transpose_naive) + run("tiled", transpose_tiled) +
                run("tiled and padded", transpose_padded);
    std::printf("-- and once without the __syncthreads() (watch for the reports)\n");
    run("no barrier", transpose_no_barrier);

    long checksum = 0;
    for (int r = 0; r < n; r += 7) checksum += host[r * n + (r * 3) % n];
    std::printf("checksum %ld\n", checksum * 3);
    if (wrong) {
        std::printf("FAILED: a correct kernel gave a wrong transpose\n");
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
