// Lesson 05: an add kernel written twice. First with the start and stride computed by hand from
// threadIdx, blockIdx, blockDim and gridDim; then with simt::grid<1>() and simt::gridsize<1>().
// A grid-stride loop lets any grid size cover any array size.
#include <simt/simt.hpp>

#include <cstdio>
#include <vector>

__global__ void add_manual(simt::span<const float> x, simt::span<const float> y, simt::span<float> out) {
    unsigned tx = threadIdx.x;          // this thread within its block
    unsigned bx = blockIdx.x;           // this block within the grid
    unsigned block_size = blockDim.x;   // threads per block
    unsigned grid_size = gridDim.x;     // blocks in the grid
    unsigned start = tx + bx * block_size;
    unsigned stride = block_size * grid_size;  // every thread of the grid, once
    for (unsigned i = start; i < x.size(); i += stride) out[i] = x[i] + y[i];
}

__global__ void add_grid_stride(simt::span<const float> x, simt::span<const float> y, simt::span<float> out) {
    for (unsigned i = simt::grid<1>(); i < x.size(); i += simt::gridsize<1>()) out[i] = x[i] + y[i];
}

int main() {
    const int n = 100000;
    std::vector<float> x(n), y(n), expect(n);
    for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i), y[i] = 2.0f * i, expect[i] = 3.0f * i;

    // 30 blocks of 128 threads: 3840 threads for 100000 elements, about 26 elements each.
    const int blocks = 30, threads = 128;
    auto dx = simt::to_device(x), dy = simt::to_device(y);
    auto out1 = simt::device_array_like(dx), out2 = simt::device_array_like(dx);
    simt::launch(add_manual, blocks, threads)(dx, dy, out1);
    simt::launch(add_grid_stride, blocks, threads)(dx, dy, out2);
    std::vector<float> r1 = out1.copy_to_host(), r2 = out2.copy_to_host();

    // The same kernel copes with a grid of one block, or with more threads than elements.
    auto out3 = simt::device_array_like(dx);
    simt::launch(add_grid_stride, 1, 32)(dx, dy, out3);
    std::vector<float> r3 = out3.copy_to_host();

    std::printf("-- out = x + y over %d elements with %d blocks of %d threads\n", n, blocks, threads);
    std::printf("first elements: %.0f %.0f %.0f %.0f ... last: %.0f\n", r2[0], r2[1], r2[2], r2[3], r2[n - 1]);
    int bad = 0;
    double checksum = 0;
    for (int i = 0; i < n; ++i) {
        bad += (r1[i] != expect[i]) + (r2[i] != expect[i]) + (r3[i] != expect[i]);
        checksum += r2[i];
    }
    std::printf("manual, grid-stride and one-block results match the CPU: %s\n", bad ? "no" : "yes");
    std::printf("checksum %.1f\n", checksum);
    if (bad) {
        std::printf("FAILED: %d results differ from the CPU reference\n", bad);
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
