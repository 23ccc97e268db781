// Lesson 01: the thread hierarchy. Every thread finds its element from threadIdx, blockIdx and
// blockDim, guards against running past the end, and does one element's work.
#include <simt/simt.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

// Each thread prints where it sits in the hierarchy (a tiny grid, so the output stays short).
__global__ void whoami() {
    int global = blockIdx.x * blockDim.x + threadIdx.x;
    printf("block %u of %u, thread %u of %u -> global index %d\n", blockIdx.x, gridDim.x,
           threadIdx.x, blockDim.x, global);
}

// One thread per element; simt::grid<1>() is blockIdx.x * blockDim.x + threadIdx.x.
__global__ void increment(simt::span<double> io) {
    int pos = simt::grid<1>();
    if (pos < static_cast<int>(io.size()))  // the last block may have threads past the end
        io[pos] += 1;
}

// The same, spelled out by hand as the CUDA guide does.
__global__ void doubled(simt::span<double> io) {
    int tx = threadIdx.x;   // thread within the block
    int bx = blockIdx.x;    // block within the grid
    int bw = blockDim.x;    // threads per block
    int pos = tx + bx * bw;
    if (pos < static_cast<int>(io.size())) io[pos] *= 2;
}

// A 2-D grid over a matrix: x runs along columns, y along rows.
__global__ void double_2d(simt::mdspan<double, 2> m) {
    auto [col, row] = simt::grid<2>();
    if (row < static_cast<int>(m.extent(0)) && col < static_cast<int>(m.extent(1)))
        m(row, col) *= 2;
}

int main() {
    std::printf("-- who am I: 2 blocks of 4 threads\n");
    simt::launch(whoami, 2, 4)();
    simt::synchronize();

    // 1000 elements with 256 threads per block need ceil(1000 / 256) = 4 blocks; the last block
    // has 24 threads with nothing to do, which is why the kernels test pos < size.
    const int n = 1000, threads = 256, blocks = (n + threads - 1) / threads;
    auto data = simt::to_device(std::vector<double>(n, 1.0));
    simt::launch(increment, blocks, threads)(data);   // 1 -> 2
    simt::launch(doubled, blocks, threads)(data);     // 2 -> 4
    std::vector<double> v = data.copy_to_host();

    const int rows = 300, cols = 200;
    auto mat = simt::to_device(std::vector<double>(rows * cols, 1.0), {rows, cols});
    dim3 block2(16, 16);
    dim3 grid2((cols + block2.x - 1) / block2.x, (rows + block2.y - 1) / block2.y);
    simt::launch(double_2d, grid2, block2)(mat);
    std::vector<double> m = mat.copy_to_host();

    int bad = 0;
    double checksum = 0;
    for (double x : v) bad += x != 4.0, checksum += x;
    for (double x : m) bad += x != 2.0, checksum += x;
    std::printf("-- increment then double over %d elements in %d blocks of %d: all 4.0? %s\n", n,
                blocks, threads, bad ? "no" : "yes");
    std::printf("-- double_2d over a %dx%d matrix in a %ux%u grid of %ux%u blocks: all 2.0? %s\n",
                rows, cols, grid2.x, grid2.y, block2.x, block2.y, bad ? "no" : "yes");
    std::printf("checksum %.6f\n", checksum);
    if (bad) {
        std::printf("FAILED: %d elements differ from the CPU reference\n", bad);
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
