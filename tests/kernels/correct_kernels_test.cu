// Correct kernels: each must compute the right answer and give no finding at all, with every
// checker on. A false alarm teaches a learner to ignore the checker, so these guard against them.
#include <simt/simt.hpp>

#include <algorithm>
#include <catch2/catch.hpp>
#include <numeric>

#include "../support/findings.hpp"

using test::findings_of;

namespace {

/// Runs `host`, then requires that nothing was found (printing what was, if anything).
template <class F>
void expect_silent(F&& host) {
    auto fs = findings_of(host);
    INFO(test::all_text(fs));
    CHECK(fs.empty());
}

std::vector<int> iota_vector(int n, int start = 0) {
    std::vector<int> v(n);
    std::iota(v.begin(), v.end(), start);
    return v;
}

constexpr int TILE = 16;

__global__ void transpose_tiled(simt::mdspan<const int, 2> in, simt::mdspan<int, 2> out) {
    __shared__ simt::shared<int[TILE][TILE + 1]> tile;  // +1: no bank conflicts on the column read
    unsigned x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in(y, x);
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    out(y, x) = tile[threadIdx.x][threadIdx.y];
}

__global__ void tree_sum(simt::span<const int> in, simt::span<int> out) {
    __shared__ simt::shared<int[128]> s;
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * 128 + t];
    __syncthreads();
    for (unsigned stride = 64; stride > 0; stride /= 2) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void histogram(simt::span<const int> in, simt::span<int> bins) {
    __shared__ simt::shared<int[8]> local;
    if (threadIdx.x < 8) local[threadIdx.x] = 0;
    __syncthreads();
    for (unsigned i = simt::grid<1>(); i < in.size(); i += simt::gridsize<1>())
        atomicAdd(&local[in[i] % 8], 1);
    __syncthreads();
    if (threadIdx.x < 8) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

__global__ void produce(simt::span<int> a) { a[simt::grid<1>()] = simt::grid<1>() * 3; }
__global__ void consume(simt::span<const int> a, simt::span<int> out) {
    int i = simt::grid<1>();
    int left = i > 0 ? a[i - 1] : 0;  // written by another block of the previous launch
    out[i] = a[i] + left;
}

__global__ void uniform_barrier(simt::span<int> out) {
    __shared__ simt::shared<int[64]> s;
    s[threadIdx.x] = threadIdx.x;
    if (blockIdx.x % 2 == 0) {  // the same for every thread of a block: allowed
        __syncthreads();
        out[blockIdx.x * 64 + threadIdx.x] = s[63 - threadIdx.x];
    } else {
        out[blockIdx.x * 64 + threadIdx.x] = s[threadIdx.x];
    }
}

__global__ void warp_shuffle_sum(simt::span<const int> in, simt::span<int> out) {
    int v = in[simt::grid<1>()];
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    if (threadIdx.x % 32 == 0) out[simt::grid<1>() / 32] = v;
}

__global__ void syncwarp_exchange(simt::span<int> out) {
    __shared__ simt::shared<int[64]> s;
    s[threadIdx.x] = threadIdx.x * 10;
    __syncwarp();
    out[threadIdx.x] = s[threadIdx.x ^ 1];  // the partner lane wrote before the __syncwarp
}

__global__ void stencil_halo(simt::span<const int> in, simt::span<int> out) {
    __shared__ simt::shared<int[64 + 2]> s;
    int n = static_cast<int>(in.size());
    int i = blockIdx.x * 64 + threadIdx.x;
    s[threadIdx.x + 1] = in[i];
    if (threadIdx.x == 0) s[0] = i > 0 ? in[i - 1] : 0;
    if (threadIdx.x == 63) s[65] = i + 1 < n ? in[i + 1] : 0;
    __syncthreads();
    out[i] = s[threadIdx.x] + s[threadIdx.x + 1] + s[threadIdx.x + 2];
}

__global__ void matmul_tiled(simt::mdspan<const int, 2> a, simt::mdspan<const int, 2> b,
                             simt::mdspan<int, 2> c) {
    __shared__ simt::shared<int[TILE][TILE]> ta;
    __shared__ simt::shared<int[TILE][TILE]> tb;
    unsigned row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    int sum = 0;
    for (unsigned k0 = 0; k0 < a.extent(1); k0 += TILE) {
        ta[threadIdx.y][threadIdx.x] = a(row, k0 + threadIdx.x);
        tb[threadIdx.y][threadIdx.x] = b(k0 + threadIdx.y, col);
        __syncthreads();
        for (int k = 0; k < TILE; ++k) sum += ta[threadIdx.y][k] * tb[k][threadIdx.x];
        __syncthreads();  // before the next tile overwrites what others still read
    }
    c(row, col) = sum;
}

__global__ void inclusive_scan(simt::span<const int> in, simt::span<int> out) {
    __shared__ simt::shared<int[2][128]> buf;
    unsigned t = threadIdx.x;
    int cur = 0;
    buf[cur][t] = in[t];
    __syncthreads();
    for (unsigned offset = 1; offset < 128; offset *= 2) {
        int next = 1 - cur;
        buf[next][t] = t >= offset ? buf[cur][t] + buf[cur][t - offset] : buf[cur][t];
        __syncthreads();
        cur = next;
    }
    out[t] = buf[cur][t];
}

__global__ void vector_add(simt::span<const float> a, simt::span<const float> b, simt::span<float> c) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < static_cast<int>(c.size())) c[i] = a[i] + b[i];
}

__global__ void saxpy_grid_stride(float alpha, simt::span<const float> x, simt::span<float> y) {
    for (unsigned i = simt::grid<1>(); i < y.size(); i += simt::gridsize<1>()) y[i] = alpha * x[i] + y[i];
}

__global__ void double_2d(simt::mdspan<int, 2> a) {
    auto [x, y] = simt::grid<2>();
    if (x < static_cast<int>(a.extent(0)) && y < static_cast<int>(a.extent(1))) a(x, y) *= 2;
}

__global__ void count_atomically(simt::ptr<int> counter) { atomicAdd(&counter[0], 1); }
__global__ void read_count(simt::ptr<const int> counter, simt::span<int> out) { out[threadIdx.x] = counter[0]; }

__global__ void vote_and_write(simt::span<const int> in, simt::span<int> out) {
    int positive = __syncthreads_count(in[threadIdx.x] > 0);
    out[threadIdx.x] = positive;
}

__global__ void reverse_dynamic(simt::span<int> a) {
    auto s = simt::dynamic_shared<int>();
    unsigned t = threadIdx.x, n = blockDim.x;
    s[t] = a[t];
    __syncthreads();
    a[t] = s[n - 1 - t];
}

__global__ void last_warp_syncwarp(simt::span<const int> in, simt::span<int> out) {
    __shared__ simt::shared<int[64]> s;
    unsigned t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    if (t < 32) {
        s[t] += s[t + 32];
        __syncwarp();
        for (unsigned stride = 16; stride > 0; stride /= 2) {
            int v = t < stride ? s[t + stride] : 0;
            __syncwarp();
            if (t < stride) s[t] += v;
            __syncwarp();
        }
    }
    if (t == 0) out[0] = s[0];
}

__global__ void broadcast_then_overwrite(simt::span<int> out) {
    __shared__ simt::shared<int[1]> value;
    if (threadIdx.x == 0) value[0] = 5;
    __syncthreads();
    int seen = value[0];  // every thread reads it...
    __syncthreads();      // ...before thread 0 overwrites it
    if (threadIdx.x == 0) value[0] = 9;
    __syncthreads();
    out[threadIdx.x] = seen + value[0];
}

__global__ void compact_positive(simt::span<const int> in, simt::span<int> out, simt::ptr<int> count) {
    int v = in[simt::grid<1>()];
    if (v > 0) out[atomicAdd(&count[0], 1)] = v;
}

__global__ void bubble_sort(simt::span<int> a) {  // one thread, as in a debugging lesson
    for (unsigned i = 0; i < a.size(); ++i)
        for (unsigned j = 0; j + 1 < a.size() - i; ++j)
            if (a[j] > a[j + 1]) {
                int t = a[j];
                a[j] = a[j + 1];
                a[j + 1] = t;
            }
}

__global__ void fill_3d(simt::mdspan<int, 3> a) {
    unsigned x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    a(z, y, x) = static_cast<int>(x + 10 * y + 100 * z);
}

__global__ void increment_in_place(simt::span<int> a) { a[simt::grid<1>()] += 1; }

__global__ void ballot_count(simt::span<const int> in, simt::span<int> out) {
    unsigned votes = __ballot_sync(0xffffffffu, in[threadIdx.x] % 2 == 0);
    if (threadIdx.x == 0) out[0] = __builtin_popcount(votes);
}

}  // namespace

TEST_CASE("A tiled transpose with padding is silent", "[correct][shared]") {
    const int n = 32;
    auto in = simt::to_device(iota_vector(n * n), {n, n});
    auto out = simt::device_array<int>({n, n});
    expect_silent([&] { simt::launch(transpose_tiled, dim3(2, 2), dim3(TILE, TILE))(in, out); });
    auto t = out.copy_to_host();
    CHECK(t[1 * n + 0] == 1);
    CHECK(t[0 * n + 1] == n);
}

TEST_CASE("A tree reduction with a barrier per step is silent", "[correct][shared]") {
    auto in = simt::to_device(iota_vector(256));
    auto out = simt::device_array<int>(2);
    expect_silent([&] { simt::launch(tree_sum, 2, 128)(in, out); });
    CHECK(out.copy_to_host() == std::vector<int>{127 * 128 / 2, (128 + 255) * 128 / 2});
}

TEST_CASE("A shared then global atomic histogram is silent", "[correct][atomics]") {
    std::vector<int> data = iota_vector(1000);
    auto in = simt::to_device(data);
    auto bins = simt::to_device(std::vector<int>(8, 0));
    expect_silent([&] { simt::launch(histogram, 4, 64)(in, bins); });
    CHECK(bins.copy_to_host() == std::vector<int>(8, 125));
}

TEST_CASE("A consumer kernel reading what the producer kernel wrote is silent", "[correct][global]") {
    auto a = simt::device_array<int>(128);
    auto out = simt::device_array<int>(128);
    expect_silent([&] {
        simt::launch(produce, 4, 32)(a);
        simt::launch(consume, 4, 32)(a, out);
    });
    CHECK(out.copy_to_host()[40] == 40 * 3 + 39 * 3);
}

TEST_CASE("A barrier under a block-uniform condition is silent", "[correct][barrier]") {
    auto out = simt::device_array<int>(4 * 64);
    expect_silent([&] { simt::launch(uniform_barrier, 4, 64)(out); });
    auto o = out.copy_to_host();
    CHECK(o[0] == 63);
    CHECK(o[64] == 0);
}

TEST_CASE("A warp shuffle reduction is silent", "[correct][warp]") {
    auto in = simt::to_device(std::vector<int>(128, 2));
    auto out = simt::device_array<int>(4);
    expect_silent([&] { simt::launch(warp_shuffle_sum, 2, 64)(in, out); });
    CHECK(out.copy_to_host() == std::vector<int>(4, 64));
}

TEST_CASE("Lanes exchanging through shared memory after __syncwarp are silent", "[correct][warp]") {
    auto out = simt::device_array<int>(64);
    expect_silent([&] { simt::launch(syncwarp_exchange, 1, 64)(out); });
    auto o = out.copy_to_host();
    CHECK(o[0] == 10);
    CHECK(o[33] == 320);
}

TEST_CASE("A 1-D stencil with halos is silent", "[correct][shared]") {
    auto in = simt::to_device(std::vector<int>(256, 1));
    auto out = simt::device_array<int>(256);
    expect_silent([&] { simt::launch(stencil_halo, 4, 64)(in, out); });
    auto o = out.copy_to_host();
    CHECK(o[0] == 2);
    CHECK(o[64] == 3);
    CHECK(o[255] == 2);
}

TEST_CASE("A tiled matrix multiply is silent", "[correct][shared]") {
    const int n = 32;
    std::vector<int> a(n * n), b(n * n);
    for (int i = 0; i < n * n; ++i) a[i] = i % 7, b[i] = i % 5;
    auto da = simt::to_device(a, {n, n}), db = simt::to_device(b, {n, n});
    auto dc = simt::device_array<int>({n, n});
    expect_silent([&] { simt::launch(matmul_tiled, dim3(2, 2), dim3(TILE, TILE))(da, db, dc); });
    auto c = dc.copy_to_host();
    int expect = 0;
    for (int k = 0; k < n; ++k) expect += a[5 * n + k] * b[k * n + 9];
    CHECK(c[5 * n + 9] == expect);
}

TEST_CASE("A double-buffered prefix scan is silent", "[correct][shared]") {
    auto in = simt::to_device(std::vector<int>(128, 1));
    auto out = simt::device_array<int>(128);
    expect_silent([&] { simt::launch(inclusive_scan, 1, 128)(in, out); });
    CHECK(out.copy_to_host() == iota_vector(128, 1));
}

TEST_CASE("A vector add is silent", "[correct][global]") {
    std::vector<float> a(1000, 1.5f), b(1000, 2.0f);
    auto da = simt::to_device(a), db = simt::to_device(b);
    auto dc = simt::device_array<float>(1000);
    expect_silent([&] { simt::launch(vector_add, 4, 256)(da, db, dc); });
    CHECK(dc.copy_to_host() == std::vector<float>(1000, 3.5f));
}

TEST_CASE("A grid-stride saxpy is silent", "[correct][global]") {
    auto x = simt::to_device(std::vector<float>(5000, 1.0f));
    auto y = simt::to_device(std::vector<float>(5000, 2.0f));
    expect_silent([&] { simt::launch(saxpy_grid_stride, 3, 128)(2.0f, x, y); });
    CHECK(y.copy_to_host() == std::vector<float>(5000, 4.0f));
}

TEST_CASE("A 2-D kernel doubling each element in place is silent", "[correct][global]") {
    auto a = simt::to_device(iota_vector(20 * 30), {20, 30});
    expect_silent([&] { simt::launch(double_2d, dim3(3, 4), dim3(8, 8))(a); });
    CHECK(a.copy_to_host()[599] == 2 * 599);
}

TEST_CASE("An atomic counter read by a later kernel is silent", "[correct][atomics]") {
    auto counter = simt::to_device(std::vector<int>{0});
    auto out = simt::device_array<int>(32);
    expect_silent([&] {
        simt::launch(count_atomically, 8, 64)(counter);
        simt::launch(read_count, 1, 32)(counter, out);
    });
    CHECK(out.copy_to_host() == std::vector<int>(32, 512));
}

TEST_CASE("__syncthreads_count votes without a race", "[correct][barrier]") {
    auto in = simt::to_device(iota_vector(64, -10));
    auto out = simt::device_array<int>(64);
    expect_silent([&] { simt::launch(vote_and_write, 1, 64)(in, out); });
    CHECK(out.copy_to_host() == std::vector<int>(64, 53));
}

TEST_CASE("Reversing through dynamic shared memory is silent", "[correct][shared]") {
    auto a = simt::to_device(iota_vector(96));
    expect_silent([&] { simt::launch(reverse_dynamic, 1, 96, {.shared_bytes = 96 * sizeof(int)})(a); });
    CHECK(a.copy_to_host()[0] == 95);
}

TEST_CASE("A last-warp reduction ordered by __syncwarp is silent", "[correct][warp]") {
    auto in = simt::to_device(iota_vector(64));
    auto out = simt::device_array<int>(1);
    expect_silent([&] { simt::launch(last_warp_syncwarp, 1, 64)(in, out); });
    CHECK(out.copy_to_host()[0] == 63 * 64 / 2);
}

TEST_CASE("A shared value overwritten only after a barrier is silent", "[correct][barrier]") {
    auto out = simt::device_array<int>(64);
    expect_silent([&] { simt::launch(broadcast_then_overwrite, 1, 64)(out); });
    CHECK(out.copy_to_host() == std::vector<int>(64, 14));
}

TEST_CASE("Stream compaction with an atomic slot counter is silent", "[correct][atomics]") {
    auto in = simt::to_device(iota_vector(256, -100));
    auto out = simt::device_array<int>(256);
    auto count = simt::to_device(std::vector<int>{0});
    expect_silent([&] { simt::launch(compact_positive, 2, 128)(in, out, count); });
    CHECK(count.copy_to_host()[0] == 155);
}

TEST_CASE("A single-thread bubble sort is silent", "[correct][global]") {
    std::vector<int> v{5, 3, 9, 1, 7, 2};
    auto a = simt::to_device(v);
    expect_silent([&] { simt::launch(bubble_sort, 1, 1)(a); });
    std::sort(v.begin(), v.end());
    CHECK(a.copy_to_host() == v);
}

TEST_CASE("A 3-D block filling a 3-D array is silent", "[correct][global]") {
    auto a = simt::device_array<int>({2, 3, 4});
    expect_silent([&] { simt::launch(fill_3d, 1, dim3(4, 3, 2))(a); });
    CHECK(a.copy_to_host()[23] == 3 + 20 + 100);
}

TEST_CASE("Each thread updating its own element in place, launch after launch, is silent", "[correct][global]") {
    auto a = simt::to_device(std::vector<int>(128, 0));
    expect_silent([&] {
        for (int k = 0; k < 3; ++k) simt::launch(increment_in_place, 2, 64)(a);
    });
    CHECK(a.copy_to_host() == std::vector<int>(128, 3));
}

TEST_CASE("A ballot vote is silent", "[correct][warp]") {
    auto in = simt::to_device(iota_vector(32));
    auto out = simt::device_array<int>(1);
    expect_silent([&] { simt::launch(ballot_count, 1, 32)(in, out); });
    CHECK(out.copy_to_host()[0] == 16);
}

TEST_CASE("A host vector passed straight to a kernel is silent", "[correct][global]") {
    std::vector<int> host(64, 4);
    expect_silent([&] { simt::launch(increment_in_place, 1, 64)(host); });
    CHECK(host == std::vector<int>(64, 5));
}
