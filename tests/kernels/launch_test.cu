// The launch path: limits, argument conversion, streams, events and asynchronous completion.
#include <catch2/catch.hpp>
#include <simt/simt.hpp>

#include <string>
#include <vector>

__global__ void fill(simt::span<int> out, int value) {
    int i = simt::grid<1>();
    if (i < static_cast<int>(out.size())) out[i] = value;
}

__global__ void add_one_slowly(simt::span<int> data) {
    int i = simt::grid<1>();
    if (i >= static_cast<int>(data.size())) return;
    int v = data[i];
    for (int k = 0; k < 100; ++k) v = (v * 3 + 1) % 1000003;
    data[i] = data[i] + 1 + (v == -1);
}

__global__ void nothing() {}

using Catch::Matchers::Contains;

TEST_CASE("Each launch limit is refused with the limit and the value given", "[launch][limits]") {
    CHECK_THROWS_WITH(simt::launch(nothing, 1, 1025)(), Contains("1025 threads") && Contains("1024"));
    CHECK_THROWS_WITH(simt::launch(nothing, 1, dim3(2048, 1, 1))(), Contains("(2048, 1, 1)"));
    CHECK_THROWS_WITH(simt::launch(nothing, 1, dim3(1, 1, 65))(), Contains("(1024, 1024, 64)"));
    CHECK_THROWS_WITH(simt::launch(nothing, 1, dim3(32, 32, 2))(), Contains("2048 threads"));
    CHECK_THROWS_WITH(simt::launch(nothing, dim3(1, 65536, 1), 1)(), Contains("65535"));
    CHECK_THROWS_WITH(simt::launch(nothing, dim3(1, 1, 70000), 1)(), Contains("65535"));
    CHECK_THROWS_WITH(simt::launch(nothing, dim3(0, 1, 1), 1)(), Contains("zero dimension"));
    CHECK_THROWS_WITH(simt::launch(nothing, 1, dim3(4, 0, 1))(), Contains("zero dimension"));
    CHECK_THROWS_WITH(simt::launch(nothing, 1, 32, {.shared_bytes = 48 * 1024 + 1})(),
                      Contains("49153 bytes") && Contains("shared_optin"));
    CHECK_THROWS_WITH(simt::launch(nothing, 1, 32, {.shared_bytes = 228 * 1024, .shared_optin = true})(),
                      Contains("233472 bytes"));
    CHECK_THROWS_AS(simt::launch(nothing, 1, 1025)(), simt::LaunchError);
}

TEST_CASE("Launches at the limits are accepted", "[launch][limits]") {
    CHECK_NOTHROW(simt::launch(nothing, 1, 1024)());
    CHECK_NOTHROW(simt::launch(nothing, dim3(1, 65535, 1), dim3(1, 1, 64))());
    CHECK_NOTHROW(simt::launch(nothing, 1, 32, {.shared_bytes = 100 * 1024, .shared_optin = true})());
    CHECK_NOTHROW(simt::synchronize());
}

TEST_CASE("Kernel arguments are converted to the parameter types", "[launch]") {
    auto out = simt::device_array<int>(10);
    simt::launch(fill, 1, 16)(out, 7.9);  // a double for an int parameter, as C++ converts it
    for (int x : out.copy_to_host()) REQUIRE(x == 7);
}

TEST_CASE("synchronize waits for a queued kernel and the event recorded after it", "[launch][stream]") {
    const int n = 1 << 20;
    auto d = simt::to_device(std::vector<int>(n, 0));
    simt::Event done;
    simt::launch(add_one_slowly, n / 256, 256)(d);
    done.record();
    simt::synchronize();
    REQUIRE(done.query());
    auto v = d.copy_to_host();
    REQUIRE(v[0] == 1);
    REQUIRE(v[n - 1] == 1);
}

TEST_CASE("Launches on one stream run in order", "[launch][stream]") {
    simt::Stream s;
    auto d = simt::device_array<int>(1000);
    for (int k = 0; k < 5; ++k) simt::launch(fill, 4, 256, {.stream = &s})(d, k);
    s.synchronize();
    for (int x : d.copy_to_host()) REQUIRE(x == 4);
}

TEST_CASE("Two streams each finish their own work", "[launch][stream]") {
    simt::Stream a, b;
    auto da = simt::to_device(std::vector<int>(4096, 0));
    auto db = simt::to_device(std::vector<int>(4096, 10));
    for (int k = 0; k < 3; ++k) {
        simt::launch(add_one_slowly, 16, 256, {.stream = &a})(da);
        simt::launch(add_one_slowly, 16, 256, {.stream = &b})(db);
    }
    simt::synchronize();
    for (int x : da.copy_to_host()) REQUIRE(x == 3);
    for (int x : db.copy_to_host()) REQUIRE(x == 13);
}

TEST_CASE("Events measure the time between two points of a stream", "[launch][event]") {
    simt::Event start, stop;
    auto d = simt::to_device(std::vector<int>(1 << 18, 0));
    start.record();
    simt::launch(add_one_slowly, (1 << 18) / 256, 256)(d);
    stop.record();
    stop.synchronize();
    float ms = start.elapsed_ms(stop);
    CHECK(ms > 0.0f);
    CHECK(ms < 60000.0f);
    simt::Event never;
    CHECK_THROWS_WITH(never.elapsed_ms(stop), Contains("recorded"));
}

TEST_CASE("A stream waits for an event recorded on another stream", "[launch][event]") {
    simt::Stream producer, consumer;
    auto d = simt::to_device(std::vector<int>(4096, 0));
    simt::launch(add_one_slowly, 16, 256, {.stream = &producer})(d);
    simt::Event produced;
    produced.record(producer);
    consumer.wait(produced);
    simt::launch(add_one_slowly, 16, 256, {.stream = &consumer})(d);
    consumer.synchronize();
    for (int x : d.copy_to_host()) REQUIRE(x == 2);
}

TEST_CASE("The device describes its limits", "[device]") {
    simt::DeviceProperties p = simt::device_properties();
    CHECK(p.max_threads_per_block == 1024);
    CHECK(p.warp_size == 32);
    CHECK(p.max_grid_size[1] == 65535);
    CHECK(p.shared_mem_per_block == 48 * 1024);
    CHECK(p.major >= 8);
    CHECK(simt::detect());
}
