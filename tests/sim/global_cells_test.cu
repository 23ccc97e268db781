// Global memory's packed shadow cells (sim/src/check/shadow.hpp): a stamp whose barrier interval or
// warp clock does not fit its 8 bytes escapes to the cell's Extra, and the race rule decides
// exactly as it does with the whole stamp, on this launch and on later ones.
#include <string>
#include <vector>

#include <simt/simt.hpp>

#include <catch2/catch.hpp>

#include "../support/findings.hpp"
#include "../support/workers.hpp"

using test::findings_of;
using test::Workers;
using test::lines_of;

namespace {

// More barriers than a launch from a new site has intervals for (16 per block) before the
// accesses: their stamps escape. The barriers between the write and the read order them.
constexpr unsigned many_write = __LINE__ + 4;
__global__ void write_then_read_after_many_barriers(int* a, int* out, int rounds) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int r = 0; r < rounds; ++r) __syncthreads();
    a[i] = i;
    for (int r = 0; r < 16; ++r) __syncthreads();  // as many as a first launch has per block
    out[i] = a[blockIdx.x * blockDim.x + (threadIdx.x + 1) % blockDim.x];
}

// The same, with the barrier between the write and the read forgotten.
constexpr unsigned late_write = __LINE__ + 4, late_read = __LINE__ + 5;
__global__ void neighbours_after_many_barriers(int* a, int* out, int rounds) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int r = 0; r < rounds; ++r) __syncthreads();
    a[i] = i;
    out[i] = a[blockIdx.x * blockDim.x + (threadIdx.x + 1) % blockDim.x];
}

// Lanes of one warp exchange through global memory: __syncwarp moves each lane's warp clock past
// its starting value, so every stamp after it escapes.
constexpr unsigned lane_write = __LINE__ + 4, lane_read = __LINE__ + 6;
__global__ void lanes_through_global(int* g, int* out, bool sync) {
    unsigned lane = threadIdx.x;
    __syncwarp();
    g[lane] = int(lane) * 3;
    if (sync) __syncwarp();
    out[lane] = g[lane ^ 1];
    if (sync) __syncwarp();
    g[lane] = 0;  // after the partner's read: ordered only with the second __syncwarp
}

// Every thread of every block reads each element: concurrent readers need the Extras.
__global__ void all_read_all(const int* a, int* out, int n) {
    int sum = 0;
    for (int k = 0; k < n; ++k) sum += a[k];
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

constexpr unsigned each_write = __LINE__ + 1;
__global__ void each_writes_its_own(int* a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 1; }

}  // namespace

TEST_CASE("Accesses after more barriers than a block's intervals hold are ordered by the barrier between them",
          "[racecheck][shadow]") {
    int *a, *out;
    cudaMalloc(&a, 4 * 64 * sizeof(int));
    cudaMalloc(&out, 4 * 64 * sizeof(int));
    // The first launch from the site escapes past 16 barriers; the second has room for 40.
    for (int launch = 0; launch < 2; ++launch) {
        auto fs = findings_of([&] { write_then_read_after_many_barriers<<<4, 64>>>(a, out, 40); });
        CHECK(fs.empty());
    }
    std::vector<int> back(4 * 64);
    cudaMemcpy(back.data(), out, back.size() * sizeof(int), cudaMemcpyDeviceToHost);
    CHECK(back[5] == 6);
    CHECK(back[63] == 0);
    CHECK(back[64 + 63] == 64);
    cudaFree(a);
    cudaFree(out);
}

TEST_CASE("A race after more barriers than a block's intervals hold is found at its lines, on every launch and worker count",
          "[racecheck][shadow]") {
    auto run = [](const char* workers) {
        Workers set(workers);
        int *a, *out;
        cudaMalloc(&a, 4 * 64 * sizeof(int));
        cudaMalloc(&out, 4 * 64 * sizeof(int));
        cudaMemset(a, 0, 4 * 64 * sizeof(int));
        std::vector<std::vector<simt::sim::Finding>> each;
        for (int launch = 0; launch < 2; ++launch)
            each.push_back(findings_of([&] { neighbours_after_many_barriers<<<4, 64>>>(a, out, 40); }));
        cudaFree(a);
        cudaFree(out);
        return each;
    };
    const auto one = run("1"), four = run("4");
    for (const auto& fs : one) {
        REQUIRE(fs.size() == 1);
        CHECK(fs[0].kind == simt::sim::FindingKind::data_race);
        // Thread 0 runs first: thread 1's write comes after thread 0 read the element.
        CHECK(lines_of(fs[0]) == std::vector<unsigned>{late_write, late_read});
        CHECK(fs[0].sites[0].thread.x == 1);
        CHECK(fs[0].sites[1].thread.x == 0);
    }
    CHECK(test::all_text(one[0]) == test::all_text(one[1]));
    CHECK(test::all_text(four[0]) == test::all_text(one[0]));
    CHECK(test::all_text(four[1]) == test::all_text(one[1]));
}

TEST_CASE("Lanes that order global memory with __syncwarp are silent, and a race without it",
          "[racecheck][shadow][warp]") {
    int *g, *out;
    cudaMalloc(&g, 32 * sizeof(int));
    cudaMalloc(&out, 32 * sizeof(int));
    CHECK(findings_of([&] { lanes_through_global<<<1, 32>>>(g, out, true); }).empty());
    std::vector<int> back(32);
    cudaMemcpy(back.data(), out, sizeof(int) * 32, cudaMemcpyDeviceToHost);
    CHECK(back[4] == 15);
    auto fs = findings_of([&] { lanes_through_global<<<1, 32>>>(g, out, false); });
    REQUIRE(!fs.empty());
    CHECK(fs[0].kind == simt::sim::FindingKind::data_race);
    // Lane 0 runs first: lane 1's write comes after lane 0 read the element.
    CHECK(lines_of(fs[0]) == std::vector<unsigned>{lane_write, lane_read});
    CHECK(fs[0].sites[0].thread.x == 1);
    CHECK(fs[0].sites[1].thread.x == 0);
    cudaFree(g);
    cudaFree(out);
}

TEST_CASE("A launch on another stream races with an earlier launch's write stamped after many barriers",
          "[racecheck][shadow][streams]") {
    int *a, *out;
    cudaMalloc(&a, 64 * sizeof(int));
    cudaMalloc(&out, 64 * sizeof(int));
    cudaStream_t s1, s2;
    cudaStreamCreate(&s1);
    cudaStreamCreate(&s2);
    auto fs = findings_of([&] {
        write_then_read_after_many_barriers<<<1, 64, 0, s1>>>(a, out, 40);
        each_writes_its_own<<<1, 64, 0, s2>>>(a);  // nothing orders it after the first kernel
        cudaDeviceSynchronize();
    });
    REQUIRE(!fs.empty());
    CHECK(fs[0].kind == simt::sim::FindingKind::data_race);
    // The earlier kernel's write of a[0] by its thread 0, after its 40th barrier.
    CHECK(fs[0].sites[0].thread.x == 0);
    CHECK(lines_of(fs[0]) == std::vector<unsigned>{each_write, many_write});
    CHECK(fs[0].sites[1].thread.x == 0);
    cudaStreamDestroy(s1);
    cudaStreamDestroy(s2);
    cudaFree(a);
    cudaFree(out);
}

TEST_CASE("A global array's shadow is 16 bytes per element until concurrent readers need its Extras",
          "[racecheck][shadow]") {
    Workers set("1");
    constexpr int n = 4096;
    const auto start = simt::sim::shadow_usage().shadow_bytes;
    int *a, *out;
    cudaMalloc(&a, n * sizeof(int));
    cudaMalloc(&out, 256 * sizeof(int));
    CHECK(findings_of([&] { each_writes_its_own<<<n / 256, 256>>>(a); }).empty());
    const auto written = simt::sim::shadow_usage().shadow_bytes;
    CHECK(written - start == std::size_t(16) * n);
    CHECK(findings_of([&] { all_read_all<<<1, 256>>>(a, out, n); }).empty());
    const auto read = simt::sim::shadow_usage().shadow_bytes;
    CHECK(read - written == std::size_t(16) * 256 + std::size_t(16) * n);  // out's cells; a's Extras
    cudaFree(a);
    cudaFree(out);
    CHECK(simt::sim::shadow_usage().shadow_bytes == start);
}
