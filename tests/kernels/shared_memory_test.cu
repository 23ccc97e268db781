// Shared memory: per-block arrays, reversal, tiled transpose, tree reduction, dynamic shared.
#include <catch2/catch.hpp>
#include <simt/simt.hpp>

#include <numeric>
#include <vector>

__global__ void reverse_block(simt::span<int> data) {
    __shared__ simt::shared<int[256]> s;
    int t = threadIdx.x, base = blockIdx.x * blockDim.x;
    s[t] = data[base + t];
    __syncthreads();
    data[base + t] = s[blockDim.x - 1 - t];
}

constexpr int TILE = 32, ROWS = 8;

__global__ void transpose_tiled(simt::mdspan<const int, 2> in, simt::mdspan<int, 2> out) {
    __shared__ simt::shared<int[TILE][TILE + 1]> tile;
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) tile[threadIdx.y + j][threadIdx.x] = in(y + j, x);
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) out(y + j, x) = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void block_sum(simt::span<const int> in, simt::span<long long> out) {
    __shared__ simt::shared<long long[256]> s;
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + t;
    s[t] = i < in.size() ? in[i] : 0;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void reverse_dynamic(simt::span<float> data) {
    simt::span<float> s = simt::dynamic_shared<float>();
    int t = threadIdx.x;
    s[t] = data[t];
    __syncthreads();
    data[t] = s[s.size() - 1 - t];
}

TEST_CASE("Each block reverses its own slice through shared memory", "[shared]") {
    const int blocks = 6, n = 256 * blocks;
    std::vector<int> v(n);
    std::iota(v.begin(), v.end(), 0);
    auto d = simt::to_device(v);
    simt::launch(reverse_block, blocks, 256)(d);
    auto r = d.copy_to_host();
    for (int b = 0; b < blocks; ++b)
        for (int t = 0; t < 256; ++t) REQUIRE(r[b * 256 + t] == v[b * 256 + 255 - t]);
}

TEST_CASE("A tiled transpose with a padded shared tile transposes a 256x192 matrix", "[shared]") {
    const int rows = 256, cols = 192;
    std::vector<int> v(rows * cols);
    std::iota(v.begin(), v.end(), 0);
    auto in = simt::to_device(v, {rows, cols});
    auto out = simt::device_array<int>({cols, rows});
    simt::launch(transpose_tiled, dim3(cols / TILE, rows / TILE), dim3(TILE, ROWS))(in, out);
    auto r = out.copy_to_host();
    for (int y = 0; y < rows; ++y)
        for (int x = 0; x < cols; ++x) REQUIRE(r[x * rows + y] == v[y * cols + x]);
}

TEST_CASE("A shared-memory tree reduction gives each block's sum", "[shared][reduction]") {
    const int n = 100000, threads = 256, blocks = (n + threads - 1) / threads;
    std::vector<int> v(n);
    for (int i = 0; i < n; ++i) v[i] = (i * 7) % 1000 - 300;
    auto in = simt::to_device(v);
    auto partial = simt::device_array<long long>(blocks);
    simt::launch(block_sum, blocks, threads)(in, partial);
    auto p = partial.copy_to_host();
    long long total = std::accumulate(p.begin(), p.end(), 0LL);
    REQUIRE(total == std::accumulate(v.begin(), v.end(), 0LL));
    long long first = std::accumulate(v.begin(), v.begin() + threads, 0LL);
    REQUIRE(p[0] == first);
}

TEST_CASE("Dynamic shared memory has the size given at launch", "[shared]") {
    std::vector<float> v(128);
    std::iota(v.begin(), v.end(), 1.0f);
    auto d = simt::to_device(v);
    simt::launch(reverse_dynamic, 1, 128, {.shared_bytes = 128 * sizeof(float)})(d);
    auto r = d.copy_to_host();
    for (int t = 0; t < 128; ++t) REQUIRE(r[t] == v[127 - t]);
}
