// Out-of-bounds and use-after-free accesses are reported with array, index, thread, block and line.
#include <catch2/catch.hpp>
#include <simt/simt.hpp>

#include <vector>

using Catch::Matchers::Contains;

__global__ void histogram_off_by_one(simt::span<const int> in, simt::ptr<int> bins) {
    int i = simt::grid<1>();
    if (i < static_cast<int>(in.size())) atomicAdd(&bins[in[i]], 1);
}

__global__ void write_past_end(simt::ptr<float> out, int n) {
    int i = simt::grid<1>();
    if (i <= n) out[i] = 1.0f;  // one too many
}

__global__ void read_shared_out_of_range(simt::span<int> out) {
    __shared__ simt::shared<int[4][8]> tile;
    tile[threadIdx.y][threadIdx.x] = 1;
    __syncthreads();
    out[threadIdx.y * 8 + threadIdx.x] = tile[threadIdx.y][threadIdx.x + 1];
}

__global__ void read_mdspan(simt::mdspan<const int, 2> m, simt::span<int> out) {
    out[threadIdx.x] = m(threadIdx.x, 3);
}

__global__ void read_one(simt::ptr<const int> p, simt::span<int> out) { out[0] = p[0]; }

const simt::sim::Finding* find(const std::vector<simt::sim::Finding>& fs, const std::string& kind) {
    for (auto& f : fs)
        if (simt::sim::to_string(f.kind) == kind) return &f;
    return nullptr;
}

TEST_CASE("A histogram bin past the end is reported once with its index and not performed", "[memcheck]") {
    simt::sim::clear_findings();
    auto in = simt::to_device(std::vector<int>{0, 1, 2, 10, 3, 10});
    auto bins = simt::to_device(std::vector<int>(10, 0));
    simt::launch(histogram_off_by_one, 1, 8)(in, bins);
    auto b = bins.copy_to_host();
    CHECK(b == std::vector<int>{1, 1, 1, 1, 0, 0, 0, 0, 0, 0});
    auto fs = simt::sim::findings();
    REQUIRE(fs.size() == 1);
    const auto& f = fs[0];
    CHECK(f.kind == simt::sim::FindingKind::out_of_bounds);
    CHECK(f.space == "global");
    CHECK(f.array == "bins");
    CHECK(f.index == "10");
    REQUIRE(f.sites.size() == 1);
    CHECK(f.sites[0].line == 11);
    CHECK(f.sites[0].thread.x == 3);  // the first offender in schedule order
    CHECK(f.sites[0].access == "atomic");
    CHECK_THAT(f.text, Contains("'bins'[10]") && Contains("memcheck_test.cu:11") && Contains("0..9"));
}

TEST_CASE("A write one past the end names the writing thread and the array's extent", "[memcheck]") {
    simt::sim::clear_findings();
    auto out = simt::device_array<float>(64);
    simt::launch(write_past_end, 1, 96)(out, 64);
    simt::synchronize();
    auto fs = simt::sim::findings();
    REQUIRE(fs.size() == 1);
    CHECK(fs[0].array == "out");
    CHECK(fs[0].index == "64");
    CHECK(fs[0].sites[0].thread.x == 64);
    CHECK(fs[0].sites[0].access == "write");
    CHECK(fs[0].sites[0].line == 16);
}

TEST_CASE("A shared index past a dimension names every index and extent", "[memcheck][shared]") {
    simt::sim::clear_findings();
    auto out = simt::device_array<int>(32);
    simt::launch(read_shared_out_of_range, 1, dim3(8, 4))(out);
    simt::synchronize();
    auto fs = simt::sim::findings();
    REQUIRE(fs.size() == 1);
    CHECK(fs[0].space == "shared");
    CHECK(fs[0].array == "tile");
    CHECK(fs[0].index == "(0, 8)");
    CHECK(fs[0].sites[0].thread.x == 7);
    CHECK_THAT(fs[0].text, Contains("index 8 is outside extent 8 of dimension 1"));
    auto v = out.copy_to_host();
    CHECK(v[0] == 1);
    CHECK(v[7] == -1);  // the read was not performed: poison
}

TEST_CASE("An mdspan row past the end is reported, in-range rows are read", "[memcheck]") {
    simt::sim::clear_findings();
    std::vector<int> m(3 * 4);
    for (int i = 0; i < 12; ++i) m[i] = i;
    auto dm = simt::to_device(m, {3, 4});
    auto out = simt::device_array<int>(4);
    simt::launch(read_mdspan, 1, 4)(dm, out);
    auto v = out.copy_to_host();
    CHECK(v[0] == 3);
    CHECK(v[2] == 11);
    auto fs = simt::sim::findings();
    REQUIRE(fs.size() == 1);
    CHECK(fs[0].index == "(3, 3)");
    CHECK(fs[0].array == "dm");
}

TEST_CASE("A view used after its array was freed is reported as use after free", "[memcheck]") {
    simt::sim::clear_findings();
    simt::ptr<const int> dangling;
    {
        auto a = simt::to_device(std::vector<int>{5});
        dangling = a;
    }
    auto out = simt::device_array<int>(1);
    simt::launch(read_one, 1, 1)(dangling, out);
    simt::synchronize();
    auto fs = simt::sim::findings();
    REQUIRE(find(fs, "use-after-free"));
    CHECK_THAT(find(fs, "use-after-free")->text, Contains("'a'") && Contains("freed"));
}

TEST_CASE("The same bad access repeated across blocks and launches is reported once", "[memcheck]") {
    simt::sim::clear_findings();
    auto out = simt::device_array<float>(64);
    for (int k = 0; k < 3; ++k) simt::launch(write_past_end, 4, 32)(out, 64);
    simt::synchronize();
    CHECK(simt::sim::findings().size() == 1);
}
