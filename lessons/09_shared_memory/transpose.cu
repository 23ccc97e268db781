// Lesson 09: shared memory, on a matrix transpose. The naive kernel reads rows and writes
// columns; the tiled kernels stage a 32x32 tile in shared memory so that both the read and the
// write go along rows; the padded tile also avoids shared-memory bank conflicts. A fourth kernel
// forgets the __syncthreads() between writing and reading the tile, and the checkers say so.
#include <simt/simt.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
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

// The matrix is n x n, n a multiple of 32: 512 unless given (`09_shared_memory 4096`).
int main(int argc, char** argv) {
    const int n = argc > 1 ? std::atoi(argv[1]) : 512;
    if (n < TILE || n % TILE != 0 || n > 8192) {
        std::printf("the size must be a multiple of %d, from %d to 8192\n", TILE, TILE);
        return 2;
    }
    std::vector<int> host(std::size_t(n) * n);
    for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<int>(i);
    auto in = simt::to_device(host, {std::size_t(n), std::size_t(n)});
    dim3 grid(n / TILE, n / TILE), block(TILE, BLOCK_ROWS);

    // Runs one kernel and prints its time and how many elements differ from the CPU's transpose.
    // Returns that count, and adds a sample of the kernel's output to `sample`.
    auto run = [&](const char* name, Kernel k, long& sample) {
        auto out = simt::device_array_like(in);
        simt::Event start, stop;
        start.record();
        simt::launch(k, grid, block)(in, out);
        stop.record();
        stop.synchronize();
        std::vector<int> t = out.copy_to_host();
        int wrong = 0;
        for (std::size_t r = 0; r < std::size_t(n); ++r)
            for (std::size_t c = 0; c < std::size_t(n); ++c) wrong += t[r * n + c] != host[c * n + r];
        for (std::size_t r = 0; r < std::size_t(n); r += 7) sample += t[r * n + (r * 3) % n];
        std::printf("%-22s %8.2f ms  %s\n", name, start.elapsed_ms(stop),
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

    std::printf("checksum %ld\n", checksum);
    if (wrong) {
        std::printf("FAILED: a correct kernel gave a wrong transpose\n");
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
