// Every atomic on contended addresses, with CUDA's wrap-around rules.
#include <catch2/catch.hpp>
#include <simt/simt.hpp>

#include <algorithm>
#include <vector>

__global__ void contend_int(simt::ptr<int> r) {
    int t = simt::grid<1>();
    atomicAdd(&r[0], 2);
    atomicSub(&r[1], 1);
    atomicMax(&r[2], t);
    atomicMin(&r[3], -t);
    atomicAnd(&r[4], ~(1 << (t % 31)));
    atomicOr(&r[5], 1 << (t % 31));
    atomicXor(&r[6], 1);
    atomicExch(r + 7, 7);
}

__global__ void contend_unsigned(simt::ptr<unsigned> r) {
    atomicInc(&r[0], 9u);     // wraps to 0 after reaching 9
    atomicDec(&r[1], 9u);     // from 0 wraps to 9
    atomicAdd(&r[2], 1u);     // from 0xFFFFFFF0 wraps past zero
    atomicSub(&r[3], 1u);     // from 5 wraps below zero
}

__global__ void contend_float(simt::ptr<float> f, simt::ptr<double> d, simt::ptr<unsigned long long> u) {
    atomicAdd(&f[0], 0.5f);
    atomicAdd(&d[0], 0.25);
    atomicAdd(&u[0], 3ull);
    atomicMax(&u[1], static_cast<unsigned long long>(simt::grid<1>()));
}

__global__ void cas_counter(simt::ptr<int> c) {
    // The first read is atomic too: a plain read of a word other threads update atomically is a
    // data race, and the race checker would say so.
    int old = atomicAdd(&c[0], 0);
    int assumed;
    do {
        assumed = old;
        old = atomicCAS(&c[0], assumed, assumed + 1);
    } while (old != assumed);
}

__global__ void histogram_shared(simt::span<const int> in, simt::span<int> bins) {
    __shared__ simt::shared<int[16]> local;
    if (threadIdx.x < 16) local[threadIdx.x] = 0;
    __syncthreads();
    for (int i = simt::grid<1>(); i < static_cast<int>(in.size()); i += simt::gridsize<1>())
        atomicAdd(&local[in[i] % 16], 1);
    __syncthreads();
    if (threadIdx.x < 16) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

TEST_CASE("Integer atomics on one address from 4096 threads lose nothing", "[atomics]") {
    const int n = 4096;
    auto r = simt::to_device(std::vector<int>{0, 0, -1, 1, -1, 0, 0, 0});
    simt::launch(contend_int, n / 128, 128)(r);
    auto v = r.copy_to_host();
    CHECK(v[0] == 2 * n);
    CHECK(v[1] == -n);
    CHECK(v[2] == n - 1);
    CHECK(v[3] == -(n - 1));
    CHECK(v[4] == static_cast<int>(0x80000000u));
    CHECK(v[5] == 0x7FFFFFFF);
    CHECK(v[6] == 0);  // an even number of flips
    CHECK(v[7] == 7);
}

TEST_CASE("atomicInc and atomicDec wrap at the given bound, unsigned adds wrap at 2^32", "[atomics]") {
    auto r = simt::to_device(std::vector<unsigned>{0u, 0u, 0xFFFFFFF0u, 5u});
    simt::launch(contend_unsigned, 1, 25)(r);
    auto v = r.copy_to_host();
    CHECK(v[0] == 25u % 10u);        // 0..9 cycles: 25 increments end at 5
    CHECK(v[1] == (10u - 25u % 10u) % 10u);  // 0 -> 9 -> 8 ...: 25 decrements end at 5
    CHECK(v[2] == 0xFFFFFFF0u + 25u);
    CHECK(v[3] == 5u - 25u);
}

TEST_CASE("Floating-point and 64-bit atomics add exactly representable values exactly", "[atomics]") {
    auto f = simt::to_device(std::vector<float>{0.0f});
    auto d = simt::to_device(std::vector<double>{0.0});
    auto u = simt::to_device(std::vector<unsigned long long>{1ull << 40, 0ull});
    simt::launch(contend_float, 8, 128)(f, d, u);
    CHECK(f.copy_to_host()[0] == 512.0f);
    CHECK(d.copy_to_host()[0] == 256.0);
    auto uv = u.copy_to_host();
    CHECK(uv[0] == (1ull << 40) + 3 * 1024);
    CHECK(uv[1] == 1023ull);
}

TEST_CASE("An atomicCAS loop builds a counter that loses no increment", "[atomics]") {
    auto c = simt::to_device(std::vector<int>{0});
    simt::launch(cas_counter, 16, 64)(c);
    CHECK(c.copy_to_host()[0] == 1024);
}

TEST_CASE("A shared and global atomic histogram matches the CPU count", "[atomics][shared]") {
    const int n = 50000;
    std::vector<int> in(n);
    for (int i = 0; i < n; ++i) in[i] = (i * 37 + 11) % 1000;
    std::vector<int> expect(16, 0);
    for (int x : in) ++expect[x % 16];
    auto din = simt::to_device(in);
    auto bins = simt::to_device(std::vector<int>(16, 0));
    simt::launch(histogram_shared, 20, 128)(din, bins);
    CHECK(bins.copy_to_host() == expect);
}
