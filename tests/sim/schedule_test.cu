// Schedules change the order threads run in, never the result of a correct kernel; reports do
// not depend on the number of cores.
#include <catch2/catch.hpp>
#include <simt/simt.hpp>

#include <numeric>
#include <vector>

using Catch::Matchers::Contains;

namespace {
/// Sets simulator settings for one test and restores them after.
struct Settings {
    simt::sim::Config saved = simt::sim::config();
    Settings(std::initializer_list<std::pair<const char*, const char*>> kv) {
        for (auto& [k, v] : kv) simt::sim::apply_setting(simt::sim::config(), k, v);
    }
    ~Settings() { simt::sim::config() = saved; }
};
}  // namespace

__global__ void block_scan(simt::span<int> data) {
    __shared__ simt::shared<int[128]> s;
    int t = threadIdx.x;
    s[t] = data[blockIdx.x * 128 + t];
    __syncthreads();
    for (int off = 1; off < 128; off *= 2) {
        int v = t >= off ? s[t - off] : 0;
        __syncthreads();
        s[t] += v;
        __syncthreads();
    }
    data[blockIdx.x * 128 + t] = s[t];
}

__global__ void racy_counter(simt::ptr<int> c) { c[0] += 1; }

__global__ void order_of_arrival(simt::span<int> order, simt::ptr<int> next) {
    order[atomicAdd(&next[0], 1)] = threadIdx.x;
}

__global__ void oob_everywhere(simt::span<int> out) { out[simt::grid<1>() + 1] = 1; }

std::vector<int> run_scan() {
    std::vector<int> v(4 * 128);
    std::iota(v.begin(), v.end(), 1);
    auto d = simt::to_device(v);
    simt::launch(block_scan, 4, 128)(d);
    return d.copy_to_host();
}

TEST_CASE("A prefix scan gives the same result in order, reversed and in random order", "[schedule]") {
    std::vector<int> expect(4 * 128);
    for (int b = 0; b < 4; ++b) {
        int acc = 0;
        for (int t = 0; t < 128; ++t) expect[b * 128 + t] = acc += b * 128 + t + 1;
    }
    for (const char* s : {"in-order", "reverse", "random:1", "random:99", "interleave:5"}) {
        Settings set{{"SIMT_SCHEDULE", s}};
        INFO(s);
        CHECK(run_scan() == expect);
    }
}

TEST_CASE("The reverse schedule starts threads from the highest index", "[schedule]") {
    Settings set{{"SIMT_SCHEDULE", "reverse"}};
    auto order = simt::device_array<int>(8);
    auto next = simt::to_device(std::vector<int>{0});
    simt::launch(order_of_arrival, 1, 8)(order, next);
    CHECK(order.copy_to_host() == std::vector<int>{7, 6, 5, 4, 3, 2, 1, 0});
}

TEST_CASE("A random schedule is reproducible for a seed", "[schedule]") {
    auto run = [] {
        auto order = simt::device_array<int>(64);
        auto next = simt::to_device(std::vector<int>{0});
        simt::launch(order_of_arrival, 1, 64)(order, next);
        return order.copy_to_host();
    };
    Settings set{{"SIMT_SCHEDULE", "random:7"}};
    auto a = run(), b = run();
    CHECK(a == b);
    std::vector<int> sorted = a;
    std::sort(sorted.begin(), sorted.end());
    std::vector<int> ids(64);
    std::iota(ids.begin(), ids.end(), 0);
    CHECK(sorted == ids);
    CHECK(a != ids);
}

TEST_CASE("The racy counter loses updates under the interleave schedule, reproducibly", "[schedule]") {
    auto run = [] {
        auto c = simt::to_device(std::vector<int>{0});
        simt::launch(racy_counter, 1, 1024)(c);  // one block: only the schedule decides
        return c.copy_to_host()[0];
    };
    {
        Settings in_order{{"SIMT_SCHEDULE", "in-order"}};
        CHECK(run() == 1024);  // fibers run one at a time: nothing is lost, the race is hidden
    }
    Settings set{{"SIMT_SCHEDULE", "interleave:3"}};
    int a = run(), b = run();
    CHECK(a < 1024);
    CHECK(a == b);
}

TEST_CASE("Findings are the same with one worker and with two", "[schedule][determinism]") {
    auto run = [](const char* workers) {
        Settings set{{"SIMT_WORKERS", workers}};
        simt::sim::clear_findings();
        auto out = simt::device_array<int>(64 * 64);
        simt::launch(oob_everywhere, 64, 64)(out);
        simt::synchronize();
        auto fs = simt::sim::findings();
        REQUIRE(fs.size() == 1);
        return fs[0].text;
    };
    std::string one = run("1"), two = run("2");
    CHECK(one == two);
    CHECK_THAT(one, Contains("thread (63,0,0) block (63,0,0)"));
}

TEST_CASE("Bad settings are refused with the variable's name", "[config]") {
    simt::sim::Config c;
    CHECK_THROWS_WITH(simt::sim::apply_setting(c, "SIMT_SCHEDULE", "sideways"), Contains("SIMT_SCHEDULE=sideways"));
    CHECK_THROWS_WITH(simt::sim::apply_setting(c, "SIMT_CHECK", "race,speed"), Contains("'speed'"));
    CHECK_THROWS_WITH(simt::sim::apply_setting(c, "SIMT_STACK_SIZE", "12"), Contains("at least 16K"));
    simt::sim::apply_setting(c, "SIMT_STACK_SIZE", "256K");
    CHECK(c.stack_size == 256 * 1024);
    simt::sim::apply_setting(c, "SIMT_CHECK", "race,init");
    CHECK((c.check_race && c.check_init && !c.check_leak && !c.check_sync));
    simt::sim::apply_setting(c, "SIMT_SCHEDULE", "interleave:12");
    CHECK((c.schedule == simt::sim::Schedule::interleave && c.seed == 12));
}

TEST_CASE("A larger stack size lets a deep local array run", "[schedule][stack]") {
    Settings set{{"SIMT_STACK_SIZE", "512K"}};
    // 256 KiB of locals per thread: far beyond the 64 KiB default.
    auto out = simt::device_array<long long>(4);
    simt::launch(+[](simt::span<long long> o) {
        volatile long long big[32768];
        for (int i = 0; i < 32768; ++i) big[i] = i;
        __syncthreads();
        long long s = 0;
        for (int i = 0; i < 32768; ++i) s += big[i];
        o[threadIdx.x] = s;
    }, 1, 4)(out);
    for (long long s : out.copy_to_host()) CHECK(s == 32767LL * 32768 / 2);
}
