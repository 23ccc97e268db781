// Thread indexing: 1-D, 2-D and 3-D grids and blocks, grid(), gridsize() and grid-stride loops.
#include <catch2/catch.hpp>
#include <simt/simt.hpp>

#include <vector>

__global__ void write_global_index(simt::span<int> out) {
    int i = simt::grid<1>();
    if (i < static_cast<int>(out.size())) out[i] = i;
}

__global__ void write_coords_2d(simt::mdspan<int, 2> out) {
    auto [x, y] = simt::grid<2>();
    if (y < static_cast<int>(out.extent(0)) && x < static_cast<int>(out.extent(1)))
        out(y, x) = y * 1000 + x;
}

__global__ void write_coords_3d(simt::mdspan<int, 3> out, simt::mdspan<int, 3> dims) {
    auto [x, y, z] = simt::grid<3>();
    if (z < static_cast<int>(out.extent(0)) && y < static_cast<int>(out.extent(1)) &&
        x < static_cast<int>(out.extent(2))) {
        out(z, y, x) = (z * 100 + y) * 100 + x;
        dims(z, y, x) = static_cast<int>(blockDim.x * blockDim.y * blockDim.z * 1000 +
                                         gridDim.x * gridDim.y * gridDim.z);
    }
}

__global__ void grid_stride_add(simt::span<const float> a, simt::span<const float> b,
                                simt::span<float> out) {
    for (int i = simt::grid<1>(); i < static_cast<int>(out.size()); i += simt::gridsize<1>())
        out[i] = a[i] + b[i];
}

__global__ void count_visits(simt::span<int> visits) {
    int i = simt::grid<1>();
    if (i < static_cast<int>(visits.size())) visits[i] += 1;
}

TEST_CASE("A 1-D grid gives every thread a distinct global index", "[indexing]") {
    const int n = 1000;
    auto out = simt::device_array<int>(n);
    simt::launch(write_global_index, (n + 127) / 128, 128)(out);
    auto v = out.copy_to_host();
    for (int i = 0; i < n; ++i) REQUIRE(v[i] == i);
}

TEST_CASE("A 2-D grid of 2-D blocks covers a matrix that is not a multiple of the block", "[indexing]") {
    const int rows = 37, cols = 53;
    auto out = simt::device_array<int>({rows, cols});
    dim3 block(8, 4), grid((cols + 7) / 8, (rows + 3) / 4);
    simt::launch(write_coords_2d, grid, block)(out);
    auto v = out.copy_to_host();
    for (int y = 0; y < rows; ++y)
        for (int x = 0; x < cols; ++x) REQUIRE(v[y * cols + x] == y * 1000 + x);
}

TEST_CASE("A 3-D grid of 3-D blocks sees blockDim and gridDim in every thread", "[indexing]") {
    const int d0 = 5, d1 = 6, d2 = 7;
    auto out = simt::device_array<int>({d0, d1, d2});
    auto dims = simt::device_array<int>({d0, d1, d2});
    dim3 block(4, 3, 2), grid(2, 2, 3);
    simt::launch(write_coords_3d, grid, block)(out, dims);
    auto v = out.copy_to_host();
    auto d = dims.copy_to_host();
    for (int z = 0; z < d0; ++z)
        for (int y = 0; y < d1; ++y)
            for (int x = 0; x < d2; ++x) {
                REQUIRE(v[(z * d1 + y) * d2 + x] == (z * 100 + y) * 100 + x);
                REQUIRE(d[(z * d1 + y) * d2 + x] == 24 * 1000 + 12);
            }
}

TEST_CASE("A grid-stride loop with fewer threads than elements covers every element once", "[indexing]") {
    const int n = 10007;
    std::vector<float> a(n), b(n);
    for (int i = 0; i < n; ++i) a[i] = i * 0.5f, b[i] = 2.0f * i;
    auto da = simt::to_device(a), db = simt::to_device(b);
    auto out = simt::device_array<float>(n);
    simt::launch(grid_stride_add, 7, 64)(da, db, out);
    auto v = out.copy_to_host();
    for (int i = 0; i < n; ++i) REQUIRE(v[i] == a[i] + b[i]);
}

TEST_CASE("Threads past the end of the data are kept out by the bounds guard", "[indexing]") {
    auto visits = simt::to_device(std::vector<int>(100, 0));
    simt::launch(count_visits, 4, 32)(visits);  // 128 threads, 100 elements
    auto v = visits.copy_to_host();
    for (int x : v) REQUIRE(x == 1);
}

TEST_CASE("A host vector passed to a kernel is copied in and back out", "[launch]") {
    std::vector<int> host(300, 5);
    simt::launch(count_visits, 3, 128)(host);
    for (int x : host) REQUIRE(x == 6);
}
