// simt::vectorize: ufuncs over device arrays, host vectors and broadcast scalars.
#include <simt/simt.hpp>

#include <catch2/catch.hpp>
#include <cmath>

#include "../support/findings.hpp"

using Catch::Matchers::Contains;

namespace {
__host__ __device__ float square(float x) { return x * x; }
}  // namespace

TEST_CASE("A ufunc over device arrays returns a device array of the results", "[vectorize]") {
    auto hypot = simt::vectorize([] __host__ __device__ (float a, float b) { return std::sqrt(square(a) + square(b)); });
    auto a = simt::to_device(std::vector<float>(1000, 3.0f));
    auto b = simt::to_device(std::vector<float>(1000, 4.0f));
    auto fs = test::findings_of([&] {
        simt::DeviceArray<float> c = hypot(a, b);
        CHECK(c.copy_to_host() == std::vector<float>(1000, 5.0f));
    });
    INFO(test::all_text(fs));
    CHECK(fs.empty());
}

TEST_CASE("A ufunc over host vectors returns a host vector, and scalars are broadcast", "[vectorize]") {
    auto axpy = simt::vectorize([] __host__ __device__ (double a, double x, double y) { return a * x + y; });
    std::vector<double> x{1, 2, 3}, y{10, 20, 30};
    std::vector<double> r = axpy(2.0, x, y);
    CHECK(r == std::vector<double>{12, 24, 36});
}

TEST_CASE("A ufunc writes into an output array given with simt::out", "[vectorize]") {
    auto twice = simt::vectorize([] __host__ __device__ (int v) { return 2 * v; });
    auto a = simt::to_device(std::vector<int>{1, 2, 3, 4});
    auto result = simt::device_array<int>(4);
    twice(a, simt::out(result));
    CHECK(result.copy_to_host() == std::vector<int>{2, 4, 6, 8});
    auto wrong = simt::device_array<int>(3);
    CHECK_THROWS_WITH(twice(a, simt::out(wrong)), Contains("output array has 3 elements"));
}

TEST_CASE("A ufunc refuses arrays of different sizes", "[vectorize]") {
    auto add = simt::vectorize([] __host__ __device__ (int p, int q) { return p + q; });
    std::vector<int> p(3, 1), q(4, 1);
    CHECK_THROWS_WITH(add(p, q), Contains("differ in size (3 and 4)"));
}
