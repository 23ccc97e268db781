// simt::DeviceArray: shapes as Numba's device_array takes them, arrays that own nothing, arrays
// of size 0, and host vectors staged around a launch.
#include <catch2/catch.hpp>
#include <simt/simt.hpp>

#include <utility>
#include <vector>

__global__ void number_2d(simt::mdspan<int, 2> m) {
    auto [x, y] = simt::grid<2>();
    if (y < static_cast<int>(m.extent(0)) && x < static_cast<int>(m.extent(1))) m(y, x) = y * 100 + x;
}

__global__ void number_3d(simt::mdspan<int, 3> m) {
    auto [x, y, z] = simt::grid<3>();
    if (z < static_cast<int>(m.extent(0)) && y < static_cast<int>(m.extent(1)) &&
        x < static_cast<int>(m.extent(2)))
        m(z, y, x) = z * 10000 + y * 100 + x;
}

__global__ void copy_plus_one(simt::span<int> out, simt::span<const int> in) {
    int i = simt::grid<1>();
    if (i < static_cast<int>(out.size())) out[i] = in[i] + 1;
}

__global__ void touch(simt::span<int> a) {
    if (simt::grid<1>() < static_cast<int>(a.size())) a[simt::grid<1>()] = 1;
}

using Catch::Matchers::Contains;

TEST_CASE("device_array<int>(rows, cols) is a 2-D array, as Numba's device_array((rows, cols))",
          "[device_array]") {
    auto m = simt::device_array<int>(3, 5);
    REQUIRE(m.rank() == 2);
    REQUIRE(m.extent(0) == 3);
    REQUIRE(m.extent(1) == 5);
    simt::launch(number_2d, 1, dim3(8, 4))(m);
    std::vector<int> h = m.copy_to_host();
    REQUIRE(h.size() == 15);
    CHECK(h[0] == 0);
    CHECK(h[4] == 4);
    CHECK(h[5] == 100);
    CHECK(h[14] == 204);
}

TEST_CASE("device_array<int>(d0, d1, d2) is a 3-D array", "[device_array]") {
    auto m = simt::device_array<int>(2, 3, 4);
    REQUIRE(m.rank() == 3);
    REQUIRE(m.shape().str() == "(2, 3, 4)");
    simt::launch(number_3d, 1, dim3(4, 3, 2))(m);
    std::vector<int> h = m.copy_to_host();
    CHECK(h[0] == 0);
    CHECK(h[3] == 3);
    CHECK(h[4] == 100);
    CHECK(h[23] == 10203);
}

TEST_CASE("A moved-from DeviceArray throws naming the call instead of crashing", "[device_array]") {
    auto a = simt::to_device(std::vector<int>{1, 2, 3});
    auto b = std::move(a);
    REQUIRE_FALSE(a.owns_memory());
    REQUIRE(b.owns_memory());
    CHECK_THROWS_WITH(a.copy_to_host(), Contains("copy_to_host()") && Contains("empty DeviceArray") &&
                                            Contains("moved-from or default-constructed"));
    std::vector<int> h(3);
    CHECK_THROWS_WITH(a.copy_from_host(h), Contains("copy_from_host"));
    CHECK_THROWS_WITH(a.copy_to_host(std::span<int>(h)), Contains("copy_to_host"));
    CHECK_THROWS_WITH(simt::launch(touch, 1, 32)(a), Contains("simt::launch: argument 1") &&
                                                         Contains("empty DeviceArray"));
    CHECK_THROWS_WITH(simt::device_array_like(a), Contains("device_array_like()"));
    CHECK(b.copy_to_host() == std::vector<int>{1, 2, 3});
}

TEST_CASE("A default-constructed DeviceArray throws naming the call, as a view or an argument",
          "[device_array]") {
    simt::DeviceArray<int> empty;
    CHECK_THROWS_AS(empty.copy_to_host(), simt::Error);
    CHECK_THROWS_WITH((void)simt::span<int>(empty), Contains("conversion to simt::span"));
    CHECK_THROWS_WITH(((void)simt::mdspan<int, 1>(empty)), Contains("conversion to simt::mdspan"));
    CHECK_THROWS_WITH((void)simt::ptr<const int>(empty), Contains("conversion to simt::ptr"));
    CHECK_THROWS_WITH(simt::launch(copy_plus_one, 1, 32)(empty, empty), Contains("argument 1"));
    empty = simt::device_array<int>(4);  // assigning an array makes it usable
    CHECK(empty.copy_to_host().size() == 4);
}

TEST_CASE("An array made with size 0 is legal, copies nothing and launches", "[device_array]") {
    auto z = simt::device_array<int>(0);
    REQUIRE(z.owns_memory());
    CHECK(z.copy_to_host().empty());
    std::vector<int> none;
    CHECK_NOTHROW(z.copy_from_host(none));
    CHECK_NOTHROW(simt::launch(touch, 1, 32)(z));
    CHECK_NOTHROW(simt::synchronize());
}

TEST_CASE("A host vector is copied back only through a parameter the kernel may write", "[launch]") {
    // The same vector is both arguments: copied back through `const int` as well, its original
    // values would land last and hide the kernel's result.
    std::vector<int> v{1, 2, 3};
    simt::launch(copy_plus_one, 1, 32)(v, v);
    CHECK(v == std::vector<int>{2, 3, 4});
}
