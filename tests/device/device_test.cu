// The simulated GPU (SIMT_DEVICE) as a program sees it: cudaGetDeviceProperties, the occupancy
// API and cooperative launches answer with the model's published values, never the host's cores.
#include <catch2/catch.hpp>
#include <simt/simt.hpp>

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstring>
#include <string>
#include <vector>

#include "../../sim/src/device/model.hpp"

namespace cg = cooperative_groups;
using Catch::Matchers::Contains;

namespace {

/// Sets one simulator setting for the scope of a test.
struct Setting {
    simt::sim::Config saved = simt::sim::config();
    Setting(const char* name, const char* value) { simt::sim::apply_setting(simt::sim::config(), name, value); }
    ~Setting() { simt::sim::config() = saved; }
};

cudaDeviceProp properties() {
    cudaDeviceProp p;
    REQUIRE(cudaGetDeviceProperties(&p, 0) == cudaSuccess);
    return p;
}

int attribute(cudaDeviceAttr a) {
    int v = -1;
    REQUIRE(cudaDeviceGetAttribute(&v, a, 0) == cudaSuccess);
    return v;
}

__global__ void noop(int*) {}

int blocks_per_sm(int threads, std::size_t shared = 0) {
    int n = -1;
    REQUIRE(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, noop, threads, shared) == cudaSuccess);
    return n;
}

}  // namespace

TEST_CASE("By default the device is an A100-SXM4-80GB with its published values", "[device]") {
    cudaDeviceProp p = properties();
    CHECK_THAT(std::string(p.name), Contains("A100-SXM4-80GB"));
    CHECK(p.major == 8);
    CHECK(p.minor == 0);
    CHECK(p.multiProcessorCount == 108);
    CHECK(p.maxThreadsPerMultiProcessor == 2048);
    CHECK(p.maxBlocksPerMultiProcessor == 32);
    CHECK(p.regsPerMultiprocessor == 65536);
    CHECK(p.sharedMemPerMultiprocessor == 167936);
    CHECK(p.sharedMemPerBlock == 49152);
    CHECK(p.sharedMemPerBlockOptin == 166912);
    CHECK(p.reservedSharedMemPerBlock == 1024);
    CHECK(attribute(cudaDevAttrMultiProcessorCount) == 108);
}

TEST_CASE("SIMT_DEVICE=H100 gives 132 SMs, compute capability 9.0 and 232448 bytes opted in", "[device]") {
    Setting h100("SIMT_DEVICE", "H100");
    cudaDeviceProp p = properties();
    CHECK_THAT(std::string(p.name), Contains("H100"));
    CHECK(p.multiProcessorCount == 132);
    CHECK(p.major == 9);
    CHECK(p.minor == 0);
    CHECK(p.sharedMemPerMultiprocessor == 233472);
    CHECK(p.sharedMemPerBlockOptin == 232448);
    CHECK(attribute(cudaDevAttrComputeCapabilityMajor) == 9);
    CHECK(attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin) == 232448);
    CHECK(simt::device_properties().multi_processor_count == 132);
}

TEST_CASE("SIMT_DEVICE=T4 and RTX4090 give compute capability 7.5 and 8.9 with their limits", "[device]") {
    {
        Setting t4("SIMT_DEVICE", "T4");
        cudaDeviceProp p = properties();
        CHECK(p.multiProcessorCount == 40);
        CHECK(p.major * 10 + p.minor == 75);
        CHECK(p.maxThreadsPerMultiProcessor == 1024);
        CHECK(p.maxBlocksPerMultiProcessor == 16);
        CHECK(p.sharedMemPerBlockOptin == 65536);
        CHECK(p.reservedSharedMemPerBlock == 0);
    }
    Setting ada("SIMT_DEVICE", "RTX4090");
    cudaDeviceProp p = properties();
    CHECK(p.multiProcessorCount == 128);
    CHECK(p.major * 10 + p.minor == 89);
    CHECK(p.maxThreadsPerMultiProcessor == 1536);
    CHECK(p.maxBlocksPerMultiProcessor == 24);
    CHECK(p.sharedMemPerBlockOptin == 101376);
}

TEST_CASE("Each model's FP64 throughput ratio and a kernel's PTX version follow SIMT_DEVICE", "[device]") {
    struct Expected {
        const char* model;
        int ratio, ptx;
    };
    for (Expected e : {Expected{"A100", 2, 80}, Expected{"T4", 32, 75}, Expected{"RTX4090", 64, 89},
                       Expected{"H100", 2, 90}}) {
        Setting model("SIMT_DEVICE", e.model);
        INFO(e.model);
        CHECK(attribute(cudaDevAttrSingleToDoublePrecisionPerfRatio) == e.ratio);
        cudaFuncAttributes f;
        REQUIRE(cudaFuncGetAttributes(&f, noop) == cudaSuccess);
        CHECK(f.ptxVersion == e.ptx);
        CHECK(f.binaryVersion == e.ptx);
    }
}

TEST_CASE("An unknown SIMT_DEVICE is refused with the models it accepts", "[device]") {
    simt::sim::Config c;
    CHECK_THROWS_WITH(simt::sim::apply_setting(c, "SIMT_DEVICE", "V100"),
                      Contains("SIMT_DEVICE=V100") && Contains("A100, T4, RTX4090 or H100"));
    CHECK_THROWS_WITH(simt::sim::apply_setting(c, "SIMT_DEVICE", "a100"), Contains("SIMT_DEVICE=a100"));
    CHECK_THROWS_WITH(simt::sim::apply_setting(c, "SIMT_DEVICE", "2"),
                      Contains("SIMT_DEVICES=2 sets how many devices there are"));
}

TEST_CASE("SIMT_DEVICE accepts every model of the table, and its help names each", "[device]") {
    std::string accepted;
    for (const simt::sim::Setting& s : simt::sim::settings())
        if (std::string(s.name) == "SIMT_DEVICE") accepted = s.accepted;
    REQUIRE(!accepted.empty());
    for (const auto& m : simt::sim::detail::gpu_models()) {
        INFO(m.key);
        simt::sim::Config c;
        simt::sim::apply_setting(c, "SIMT_DEVICE", m.key);
        CHECK(c.device == m.key);
        CHECK_THAT(accepted, Contains(m.key));
    }
}

TEST_CASE("SIMT_WORKERS=1 and 2 give the same properties and occupancy", "[device]") {
    auto seen = [] {
        cudaDeviceProp p = properties();
        return std::to_string(p.multiProcessorCount) + " " + std::to_string(p.maxBlocksPerMultiProcessor) +
               " " + std::to_string(p.sharedMemPerMultiprocessor) + " " +
               std::to_string(blocks_per_sm(256)) + " " + std::to_string(blocks_per_sm(64, 20000));
    };
    std::string one, two;
    {
        Setting w("SIMT_WORKERS", "1");
        one = seen();
    }
    {
        Setting w("SIMT_WORKERS", "2");
        two = seen();
    }
    CHECK(one == "108 32 167936 8 7");  // 20000 + 1024 reserved -> 21120, 7 in 167936
    CHECK(two == one);
}

TEST_CASE("cudaOccupancyMaxActiveBlocksPerMultiprocessor follows the A100's limits", "[device][occupancy]") {
    CHECK(blocks_per_sm(256) == 8);
    CHECK(blocks_per_sm(1024) == 2);
    CHECK(blocks_per_sm(256, 48 * 1024) == 3);
    CHECK(blocks_per_sm(32) == 32);
    CHECK(blocks_per_sm(1025) == 0);
    int n = -1;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, noop, 512, 0, cudaOccupancyDefault) == cudaSuccess);
    CHECK(n == 4);
}

TEST_CASE("cudaOccupancyMaxActiveBlocksPerMultiprocessor follows each model's limits", "[device][occupancy]") {
    {
        Setting h100("SIMT_DEVICE", "H100");
        CHECK(blocks_per_sm(256, 48 * 1024) == 4);
        CHECK(blocks_per_sm(32) == 32);
    }
    {
        Setting t4("SIMT_DEVICE", "T4");
        CHECK(blocks_per_sm(1024) == 1);
        CHECK(blocks_per_sm(32) == 16);
    }
    Setting ada("SIMT_DEVICE", "RTX4090");
    CHECK(blocks_per_sm(256) == 6);
    CHECK(blocks_per_sm(32) == 24);
}

TEST_CASE("Above 48 KiB of dynamic shared memory a block fits only once the kernel opted in", "[device][occupancy]") {
    CHECK(blocks_per_sm(256, 64 * 1024) == 0);
    REQUIRE(cudaFuncSetAttribute(noop, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024) == cudaSuccess);
    CHECK(blocks_per_sm(256, 64 * 1024) == 2);  // 65536 + 1024 reserved, twice in 167936
}

TEST_CASE("cudaOccupancyMaxPotentialBlockSize picks the largest block that fills an SM", "[device][occupancy]") {
    int grid = 0, block = 0;
    REQUIRE(cudaOccupancyMaxPotentialBlockSize(&grid, &block, noop) == cudaSuccess);
    CHECK(block == 1024);
    CHECK(grid == 2 * 108);
    // 64 bytes a thread: 1024 threads need 64 KiB, too much without opting in; 512 threads
    // (32 KiB + 1 KiB reserved) fit 4 blocks, 2048 threads, the first size from the top to do so.
    REQUIRE(cudaOccupancyMaxPotentialBlockSizeVariableSMem(
                &grid, &block, noop, [](int threads) { return threads * 64; }) == cudaSuccess);
    CHECK(block == 512);
    CHECK(grid == 4 * 108);
    // At most 96 threads: 96 fit 21 blocks (2016 threads), 64 fit 32 (2048), the block limit.
    REQUIRE(cudaOccupancyMaxPotentialBlockSize(&grid, &block, noop, 0, 96) == cudaSuccess);
    CHECK(block == 64);
    CHECK(grid == 32 * 108);
}

TEST_CASE("cudaOccupancyAvailableDynamicSMemPerBlock leaves each resident block its reserved KiB", "[device][occupancy]") {
    std::size_t bytes = 0;
    REQUIRE(cudaOccupancyAvailableDynamicSMemPerBlock(&bytes, noop, 4, 256) == cudaSuccess);
    CHECK(bytes == 40960);  // 167936 / 4 - 1024
    REQUIRE(cudaOccupancyAvailableDynamicSMemPerBlock(&bytes, noop, 1, 256) == cudaSuccess);
    CHECK(bytes == 49152);  // the kernel has not opted in
    CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(&bytes, noop, 9, 256) == cudaErrorInvalidValue);
    CHECK(cudaGetLastError() == cudaErrorInvalidValue);
}

TEST_CASE("cudaFuncGetAttributes says the kernel uses the 32 registers the simulator assumes", "[device]") {
    cudaFuncAttributes a;
    REQUIRE(cudaFuncGetAttributes(&a, noop) == cudaSuccess);
    CHECK(a.numRegs == 32);
    CHECK(a.maxThreadsPerBlock == 1024);
}

namespace {

__global__ void count_blocks(int* arrived, int* seen) {
    auto grid = cg::this_grid();
    if (threadIdx.x == 0) atomicAdd(arrived, 1);
    grid.sync();
    if (threadIdx.x == 0) seen[blockIdx.x] = *arrived;
}

}  // namespace

TEST_CASE("A cooperative grid sized by the occupancy API runs, and one block more is refused", "[device][cg]") {
    // 160 KiB of dynamic shared memory: one block per SM, 108 blocks on the A100
    const std::size_t shared = 160 * 1024;
    REQUIRE(cudaFuncSetAttribute(count_blocks, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 static_cast<int>(shared)) == cudaSuccess);
    int per_sm = 0;
    REQUIRE(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, count_blocks, 64, shared) == cudaSuccess);
    REQUIRE(per_sm == 1);
    const int blocks = per_sm * attribute(cudaDevAttrMultiProcessorCount);
    REQUIRE(blocks == 108);
    int *arrived, *seen;
    cudaMalloc(&arrived, sizeof(int));
    cudaMalloc(&seen, (blocks + 1) * sizeof(int));
    cudaMemset(arrived, 0, sizeof(int));
    void* args[] = {&arrived, &seen};
    REQUIRE(cudaLaunchCooperativeKernel(count_blocks, dim3(blocks), dim3(64), args, shared) == cudaSuccess);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    std::vector<int> h(blocks);
    cudaMemcpy(h.data(), seen, blocks * sizeof(int), cudaMemcpyDeviceToHost);
    CHECK(h == std::vector<int>(blocks, blocks));  // every block arrived before any went on
    CHECK(cudaLaunchCooperativeKernel(count_blocks, dim3(blocks + 1), dim3(64), args, shared) ==
          cudaErrorCooperativeLaunchTooLarge);
    CHECK(cudaGetLastError() == cudaErrorCooperativeLaunchTooLarge);
    cudaFree(arrived);
    cudaFree(seen);
}

TEST_CASE("A block opting into more shared memory than the model allows is refused naming it", "[device]") {
    Setting ada("SIMT_DEVICE", "RTX4090");
    CHECK(cudaFuncSetAttribute(noop, cudaFuncAttributeMaxDynamicSharedMemorySize, 101376) == cudaSuccess);
    CHECK(cudaFuncSetAttribute(noop, cudaFuncAttributeMaxDynamicSharedMemorySize, 101377) == cudaErrorInvalidValue);
    CHECK(cudaGetLastError() == cudaErrorInvalidValue);
    simt::LaunchOptions o;
    o.shared_bytes = 101377;
    o.shared_optin = true;
    CHECK_THROWS_WITH(simt::launch(noop, 1, 32, o)(static_cast<int*>(nullptr)),
                      Contains("101377 bytes per block exceeds 101376 bytes") &&
                          Contains("GeForce RTX 4090") && Contains("SIMT_DEVICE=RTX4090"));
}

#include "../../sim/src/fiber/fiber.hpp"

TEST_CASE("A slab stack's canary shows a write past the stack's bottom, and a reused stack starts clean", "[device][cg]") {
    using namespace simt::sim::detail;
    const std::size_t bytes = 64 * 1024;
    std::byte* lo = slab_stack_allocate(bytes);
    auto intact = [&] {
        FiberSlot s;  // a bare slot: only its stack fields are read
        s.slab = true;
        s.guard_lo = lo;
        bool ok = stack_intact(s);
        s.slab = false;  // the stack is not the slot's to free
        return ok;
    };
    CHECK(intact());
    lo[300] = std::byte{1};  // above the canary: the stack's own memory
    CHECK(intact());
    lo[17] = std::byte{1};   // in the canary: the stack ran past its end
    CHECK_FALSE(intact());
    CHECK(intact());  // reported once: the canary is set again
    lo[0] = std::byte{1};
    slab_stack_free(lo, bytes);
    std::byte* again = slab_stack_allocate(bytes);
    CHECK(again == lo);
    CHECK(intact());
    slab_stack_free(again, bytes);
}
