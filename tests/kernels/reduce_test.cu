// simt::reduce: a device tree reduction for any size and any associative operation.
#include <simt/simt.hpp>

#include <algorithm>
#include <catch2/catch.hpp>
#include <numeric>

#include "../support/findings.hpp"

TEST_CASE("simt::reduce sums arrays of every awkward size exactly", "[reduce]") {
    for (int n : {1, 2, 255, 256, 511, 512, 513, 1000, 262145}) {
        std::vector<long long> v(n);
        std::iota(v.begin(), v.end(), 1);
        auto fs = test::findings_of([&] {
            long long sum = simt::reduce([] __host__ __device__ (long long a, long long b) { return a + b; }, simt::to_device(v));
            INFO("n = " << n);
            CHECK(sum == static_cast<long long>(n) * (n + 1) / 2);
        });
        INFO(test::all_text(fs));
        CHECK(fs.empty());
    }
}

TEST_CASE("simt::reduce takes any associative operation and an initial value", "[reduce]") {
    std::vector<int> v(3000);
    for (int i = 0; i < 3000; ++i) v[i] = (i * 7919) % 3001 - 1500;
    auto d = simt::to_device(v);
    CHECK(simt::reduce([] __host__ __device__ (int a, int b) { return a > b ? a : b; }, d) == *std::max_element(v.begin(), v.end()));
    CHECK(simt::reduce([] __host__ __device__ (int a, int b) { return a < b ? a : b; }, d) == *std::min_element(v.begin(), v.end()));
    CHECK(simt::reduce([] __host__ __device__ (int a, int b) { return a + b; }, v, 100) == std::accumulate(v.begin(), v.end(), 100));
}

TEST_CASE("simt::reduce of an empty array is the initial value", "[reduce]") {
    std::vector<float> empty;
    CHECK(simt::reduce([] __host__ __device__ (float a, float b) { return a + b; }, empty) == 0.0f);
    CHECK(simt::reduce([] __host__ __device__ (float a, float b) { return a + b; }, empty, 2.5f) == 2.5f);
}
