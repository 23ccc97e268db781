// Cooperative groups in the simulator: grid.sync() under cudaLaunchCooperativeKernel, what the
// checkers see across it, and misuse ending in a KernelError rather than a hang.
#include <catch2/catch.hpp>
#include <simt/simt.hpp>

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "../support/findings.hpp"

namespace cg = cooperative_groups;
using Catch::Matchers::Contains;
using test::findings_of;

namespace {

/// Two cores run blocks (SIMT_WORKERS=2), whatever the machine; the device's limits do not change.
struct TwoWorkers {
    simt::sim::Config saved = simt::sim::config();
    TwoWorkers() { simt::sim::apply_setting(simt::sim::config(), "SIMT_WORKERS", "2"); }
    ~TwoWorkers() { simt::sim::config() = saved; }
};

/// Launches `kernel` cooperatively on 2 blocks of `threads` and waits; throws what the launch ends with.
template <class... P>
void cooperative(void (*kernel)(P...), unsigned threads, P... args) {
    void* argv[] = {&args...};
    REQUIRE(cudaLaunchCooperativeKernel(kernel, dim3(2), dim3(threads), argv) == cudaSuccess);
    simt::synchronize();
}

constexpr unsigned write_line = __LINE__ + 4, read_line = __LINE__ + 6;
__global__ void exchange(int* data, int* out, bool with_sync) {
    cg::grid_group grid = cg::this_grid();
    unsigned me = blockIdx.x * blockDim.x + threadIdx.x;
    data[me] = static_cast<int>(me) * 10;
    if (with_sync) grid.sync();
    out[me] = data[(me + blockDim.x) % grid.size()];  // the other block's element
}

TEST_CASE("grid.sync() orders one block's writes before another block's reads", "[cg][grid][race]") {
    TwoWorkers two;
    int *data, *out;
    cudaMalloc(&data, 64 * sizeof(int));
    cudaMalloc(&out, 64 * sizeof(int));
    auto sorted = [](std::vector<unsigned> v) {
        std::sort(v.begin(), v.end());
        return v;
    };
    auto fs = findings_of([&] { cooperative(exchange, 32, data, out, true); });
    CHECK(fs.empty());
    std::vector<int> h(64);
    cudaMemcpy(h.data(), out, sizeof(int) * 64, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 64; ++i) CHECK(h[i] == (i + 32) % 64 * 10);

#if defined(SIMT_RAW_CHECKS)  // raw accesses are checked (not in AddressSanitizer builds)
    fs = findings_of([&] { cooperative(exchange, 32, data, out, false); });
    const auto* race = test::first_of(fs, "data-race");
    CHECK(race != nullptr);
    if (race) {
        CHECK(sorted(test::lines_of(*race)) == std::vector<unsigned>{write_line, read_line});
        CHECK_THAT(race->text, Contains("ordered only by grid.sync(): put one between these accesses"));
    }
#else
    (void)sorted;
#endif
    cudaFree(data);
    cudaFree(out);
}

// Before grid.sync(), blocks 0 and 1 read data[0]; after it, block 2 reads data[2], data[1] and
// then data[0], which block 3 overwrites, with nothing between those two. The reads are one
// loop's: one site, as a loop over a shared input has.
constexpr unsigned reread_line = __LINE__ + 8, overwrite_line = __LINE__ + 11;
__global__ void read_then_overwrite(int* data, int* out, int last) {
    cg::grid_group grid = cg::this_grid();
    const bool first = threadIdx.x == 0;
    if (first && blockIdx.x < 2) out[blockIdx.x] = data[0];
    grid.sync();
    if (first && blockIdx.x == 2) {
        int sum = 0;
        for (int k = last; k >= 0; --k) sum += data[k];
        out[2] = sum;
    }
    if (first && blockIdx.x == 3) data[0] = 7;
}

TEST_CASE("A read after grid.sync() races with another block's write after it, whoever read before it",
          "[cg][grid][race]") {
    TwoWorkers two;
    int *data, *out;
    cudaMalloc(&data, 4 * sizeof(int));
    cudaMalloc(&out, 4 * sizeof(int));
    const int values[4] = {3, 4, 5, 6};
    cudaMemcpy(data, values, sizeof values, cudaMemcpyHostToDevice);
    auto fs = findings_of([&] {
        int last = 2;
        void* argv[] = {&data, &out, &last};
        REQUIRE(cudaLaunchCooperativeKernel(read_then_overwrite, dim3(4), dim3(32), argv) ==
                cudaSuccess);
    });
#if defined(SIMT_RAW_CHECKS)
    const auto* race = test::first_of(fs, "data-race");
    REQUIRE(race != nullptr);
    auto lines = test::lines_of(*race);
    std::sort(lines.begin(), lines.end());
    CHECK(lines == std::vector<unsigned>{reread_line, overwrite_line});
#else
    (void)fs;
#endif
    cudaFree(data);
    cudaFree(out);
}

__global__ void keeps_shared(int* out) {
    __shared__ int mine[32];
    mine[threadIdx.x] = static_cast<int>(blockIdx.x * 100 + threadIdx.x);
    cg::this_grid().sync();
    cg::this_grid().sync();
    out[blockIdx.x * 32 + threadIdx.x] = mine[31 - threadIdx.x];
}

TEST_CASE("Shared memory written before grid.sync() is still the block's after it", "[cg][grid][init]") {
    TwoWorkers two;
    int* out;
    cudaMalloc(&out, 64 * sizeof(int));
    auto fs = findings_of([&] { cooperative(keeps_shared, 32, out); });
    CHECK(fs.empty());
    std::vector<int> h(64);
    cudaMemcpy(h.data(), out, sizeof(int) * 64, cudaMemcpyDeviceToHost);
    for (int b = 0; b < 2; ++b)
        for (int t = 0; t < 32; ++t) CHECK(h[b * 32 + t] == b * 100 + 31 - t);
    cudaFree(out);
}

constexpr unsigned sync_line = __LINE__ + 2;
__global__ void grid_sync_without_cooperation(simt::span<int> out) {
    cg::this_grid().sync();
    out[threadIdx.x] = 1;
}

TEST_CASE("grid.sync() in a kernel launched with <<<>>> is a KernelError naming thread, block and line", "[cg][grid][errors]") {
    auto out = simt::device_array<int>(32);
    simt::launch(grid_sync_without_cooperation, 2, 32)(out);
    CHECK_THROWS_WITH(simt::synchronize(),
                      Contains("thread (0,0,0) of block (0,0,0) calls grid_group::sync() at cooperative_test.cu:" +
                               std::to_string(sync_line)) &&
                          Contains("only cudaLaunchCooperativeKernel promises"));
}

constexpr unsigned early_sync_line = __LINE__ + 3;
__global__ void one_block_leaves(int* out) {
    if (blockIdx.x == 1) return;
    cg::this_grid().sync();
    out[threadIdx.x] = 1;
}

TEST_CASE("A block that ends while the others wait at grid.sync() is a deadlock, not a hang", "[cg][grid][errors]") {
    TwoWorkers two;
    int* out;
    cudaMalloc(&out, 32 * sizeof(int));
    std::string message;
    auto fs = findings_of([&] {
        try {
            cooperative(one_block_leaves, 32, out);
        } catch (const simt::KernelError& e) {
            message = e.what();
        }
    });
    CHECK_THAT(message, Contains("grid_group::sync() at cooperative_test.cu:" + std::to_string(early_sync_line) +
                                 " can never complete"));
    CHECK_THAT(message, Contains("1 block waits there: (0,0,0)"));
    CHECK_THAT(message, Contains("1 block ended without reaching it: (1,0,0)"));
    REQUIRE(test::first_of(fs, "deadlock") != nullptr);
    cudaFree(out);
}

__global__ void second_block_throws(int* out) {
    cg::this_grid().sync();
    if (blockIdx.x == 1 && threadIdx.x == 3) throw std::runtime_error("bad input 7");
    cg::this_grid().sync();
    out[threadIdx.x] = 1;
}

TEST_CASE("An error in one block of a cooperative launch ends the others waiting at grid.sync()", "[cg][grid][errors]") {
    TwoWorkers two;
    int* out;
    cudaMalloc(&out, 32 * sizeof(int));
    CHECK_THROWS_WITH(cooperative(second_block_throws, 32, out),
                      Contains("thread (3,0,0) block (1,0,0)") && Contains("bad input 7"));
    cudaFree(out);
}

__global__ void count_phases(int* counter, int* seen) {
    cg::grid_group grid = cg::this_grid();
    for (int phase = 0; phase < 3; ++phase) {
        if (grid.thread_rank() == 0) *counter = phase + 1;
        grid.sync();
        seen[phase * grid.size() + grid.thread_rank()] = *counter + grid.is_valid() * 100;
        grid.sync();
    }
}

TEST_CASE("Each grid.sync() of a loop is a barrier for the whole grid", "[cg][grid]") {
    TwoWorkers two;
    int *counter, *seen;
    cudaMalloc(&counter, sizeof(int));
    cudaMalloc(&seen, 3 * 128 * sizeof(int));
    auto fs = findings_of([&] { cooperative(count_phases, 64, counter, seen); });
    CHECK(fs.empty());
    std::vector<int> h(3 * 128);
    cudaMemcpy(h.data(), seen, h.size() * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < 3 * 128; ++i) CHECK(h[i] == i / 128 + 1 + 100);
    cudaFree(counter);
    cudaFree(seen);
}

__global__ void noop(int*) {}

TEST_CASE("A cooperative grid larger than the device holds is refused with cudaErrorCooperativeLaunchTooLarge", "[cg][grid]") {
    TwoWorkers two;
    int sms = 0, per_sm = 0, cooperative_launch = 0;
    REQUIRE(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) == cudaSuccess);
    REQUIRE(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, noop, 256, 0) == cudaSuccess);
    REQUIRE(cudaDeviceGetAttribute(&cooperative_launch, cudaDevAttrCooperativeLaunch, 0) == cudaSuccess);
    CHECK(sms == 108);   // the A100's, whatever SIMT_WORKERS says
    CHECK(per_sm == 8);  // 64 warps per SM / 8 per block
    CHECK(cooperative_launch == 1);
    int* p = nullptr;
    void* args[] = {&p};
    CHECK(cudaLaunchCooperativeKernel(noop, dim3(sms * per_sm + 1), dim3(256), args) ==
          cudaErrorCooperativeLaunchTooLarge);
    CHECK(cudaGetLastError() == cudaErrorCooperativeLaunchTooLarge);
    CHECK(cudaLaunchCooperativeKernel(noop, dim3(2), dim3(1025), args) == cudaErrorInvalidValue);
    CHECK(cudaGetLastError() == cudaErrorInvalidValue);
    CHECK(cudaLaunchCooperativeKernel(noop, dim3(sms * per_sm), dim3(256), args) == cudaSuccess);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
}

__global__ void add_one(float* x, int n, float by) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += by;
}

TEST_CASE("cudaLaunchKernel reads the kernel's arguments from void* args at the launch", "[cg][launch]") {
    float* x;
    cudaMalloc(&x, 100 * sizeof(float));
    cudaMemset(x, 0, 100 * sizeof(float));
    int n = 100;
    float by = 2.5f;
    void* args[] = {&x, &n, &by};
    REQUIRE(cudaLaunchKernel(add_one, dim3(4), dim3(32), args) == cudaSuccess);
    by = 100.0f;  // copied when launched: no effect
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    std::vector<float> h(100);
    cudaMemcpy(h.data(), x, sizeof(float) * 100, cudaMemcpyDeviceToHost);
    CHECK(h == std::vector<float>(100, 2.5f));
    const void* untyped = reinterpret_cast<const void*>(add_one);
    CHECK(cudaLaunchKernel(untyped, dim3(1), dim3(1), args) == cudaErrorInvalidDeviceFunction);
    CHECK(cudaGetLastError() == cudaErrorInvalidDeviceFunction);
    cudaFree(x);
}

constexpr unsigned tile_sync_line = __LINE__ + 4;
__global__ void half_tile_syncs(simt::span<int> out) {
    auto tile = cg::tiled_partition<16>(cg::this_thread_block());
    if (tile.thread_rank() < 8) {
        tile.sync();
        out[threadIdx.x] = 1;
    }
}

TEST_CASE("A tile sync that half the tile skips is a deadlock naming the line and the missing lanes", "[cg][errors]") {
    auto out = simt::device_array<int>(32);
    std::string message;
    auto fs = findings_of([&] {
        simt::launch(half_tile_syncs, 1, 32)(out);
        try {
            simt::synchronize();
        } catch (const simt::KernelError& e) {
            message = e.what();
        }
    });
    CHECK_THAT(message, Contains("deadlock in block (0,0,0)"));
    CHECK_THAT(message, Contains("16 threads wait at thread_block_tile::sync() at cooperative_test.cu:" +
                                 std::to_string(tile_sync_line) + ": (0,0,0)..(7,0,0), (16,0,0)..(23,0,0)"));
    CHECK_THAT(message, Contains("also waits for (8,0,0)..(15,0,0)"));
    REQUIRE(fs.size() == 1);
    CHECK(fs[0].kind == simt::sim::FindingKind::deadlock);
}

constexpr unsigned tile_write_line = __LINE__ + 4, tile_read_line = __LINE__ + 6;
__global__ void tile_neighbours(simt::span<int> out, bool with_sync) {
    __shared__ simt::shared<int[32]> vals;  // a view: checked in AddressSanitizer builds too
    auto tile = cg::tiled_partition<8>(cg::this_thread_block());
    vals[threadIdx.x] = static_cast<int>(threadIdx.x);
    if (with_sync) tile.sync();
    out[threadIdx.x] = vals[(tile.thread_rank() + 1) % 8 + tile.meta_group_rank() * 8];
}

TEST_CASE("tile.sync() orders the tile's shared accesses as __syncwarp(mask) does", "[cg][race]") {
    auto out = simt::device_array<int>(32);
    auto fs = findings_of([&] { simt::launch(tile_neighbours, 1, 32)(out, true); });
    CHECK(fs.empty());
    fs = findings_of([&] { simt::launch(tile_neighbours, 1, 32)(out, false); });
    const auto* race = test::first_of(fs, "data-race");
    REQUIRE(race != nullptr);
    std::vector<unsigned> lines = test::lines_of(*race);
    std::sort(lines.begin(), lines.end());
    CHECK(lines == std::vector<unsigned>{tile_write_line, tile_read_line});
}

__global__ void bad_partition(simt::span<int> out) {
    cg::thread_group g = cg::tiled_partition(cg::this_thread_block(), 12);
    out[threadIdx.x] = static_cast<int>(g.size());
}

TEST_CASE("A tile size that is not a power of two up to 32 is a KernelError", "[cg][errors]") {
    auto out = simt::device_array<int>(32);
    simt::launch(bad_partition, 1, 32)(out);
    CHECK_THROWS_WITH(simt::synchronize(), Contains("tiled_partition(group, 12)") &&
                                               Contains("thread (0,0,0) of block (0,0,0)"));
}

}  // namespace

// CUDA 11's `_CG_ABI_EXPERIMENTAL` spelling of tiles of several warps, as NVIDIA's reduction
// sample writes it (CUDA 12 dropped the namespace; simt keeps it so that such code builds).
__global__ void experimental_tile_sums(int* out) {
    __shared__ cg::experimental::block_tile_memory<sizeof(int), 256> scratch;
    cg::thread_block block = cg::experimental::this_thread_block(scratch);
    auto tile = cg::experimental::tiled_partition<64>(block);
    int sum = cg::reduce(tile, int(tile.thread_rank()), cg::plus<int>());
    if (tile.thread_rank() == 0) out[tile.meta_group_rank()] = sum;
}

TEST_CASE("cg::experimental's block_tile_memory, this_thread_block and tiled_partition<64> sum each tile", "[cg][tile]") {
    int* out;
    REQUIRE(cudaMalloc(&out, 4 * sizeof(int)) == cudaSuccess);
    experimental_tile_sums<<<1, 256>>>(out);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    int h[4];
    REQUIRE(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
    for (int t = 0; t < 4; ++t) CHECK(h[t] == 64 * 63 / 2);
    cudaFree(out);
}
