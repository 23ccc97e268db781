// The occupancy rule (sim/src/device/occupancy.hpp) on each GPU model, against numbers worked out
// by hand from the model's published limits.
#include <catch2/catch.hpp>

#include <cstddef>

#include "../../sim/src/device/model.hpp"
#include "../../sim/src/device/occupancy.hpp"

namespace {

using simt::DeviceProperties;
using simt::sim::detail::available_dynamic_shared;
using simt::sim::detail::find_gpu_model;
using simt::sim::detail::occupancy;
using simt::sim::detail::properties_of;

DeviceProperties gpu(const char* key) {
    const auto* m = find_gpu_model(key);
    REQUIRE(m != nullptr);
    return properties_of(*m);
}

constexpr std::size_t KiB = 1024;

}  // namespace

TEST_CASE("On an A100, 256 threads with 32 registers fill an SM with 8 blocks", "[occupancy][A100]") {
    auto o = occupancy(gpu("A100"), 256, 0, 32, 216);
    CHECK(o.limit_blocks == 32);
    CHECK(o.limit_warps == 8);       // 64 warps / 8 per block
    CHECK(o.limit_registers == 8);   // 32 x 32 = 1024 per warp: 16 warps per sub-partition, 64
    CHECK(o.limit_shared_mem == 164);  // only the reserved 1 KiB: 164 KiB / 1 KiB
    CHECK(o.active_blocks == 8);
    CHECK(o.active_warps == 64);
    CHECK(o.theoretical_pct == 100.0);
    CHECK(o.waves_per_multiprocessor == 0.25);  // 216 / (8 x 108)
    CHECK_FALSE(o.registers_assumed);
}

TEST_CASE("On an A100, blocks of 1024 threads fit 2 per SM", "[occupancy][A100]") {
    auto o = occupancy(gpu("A100"), 1024, 0, 32, 0);
    CHECK(o.limit_warps == 2);
    CHECK(o.limit_registers == 2);
    CHECK(o.active_blocks == 2);
    CHECK(o.theoretical_pct == 100.0);
}

TEST_CASE("On an A100, 48 KiB of shared memory per block limits an SM to 3 blocks", "[occupancy][A100]") {
    // 48 KiB + 1 KiB reserved = 50176 bytes a block; 167936 / 50176 = 3.3
    auto o = occupancy(gpu("A100"), 256, 48 * KiB, 32, 0);
    CHECK(o.limit_shared_mem == 3);
    CHECK(o.active_blocks == 3);
    CHECK(o.active_warps == 24);
    CHECK(o.theoretical_pct == 37.5);
}

TEST_CASE("On an A100, 64 registers per thread limit 256-thread blocks to 4 per SM", "[occupancy][A100]") {
    // 64 x 32 = 2048 registers a warp; 16384 per sub-partition hold 8 warps, 32 in all
    auto o = occupancy(gpu("A100"), 256, 0, 64, 0);
    CHECK(o.limit_registers == 4);
    CHECK(o.active_blocks == 4);
    CHECK(o.theoretical_pct == 50.0);
}

TEST_CASE("On an A100, 32-thread blocks stop at the 32-block limit, half the warps", "[occupancy][A100]") {
    auto o = occupancy(gpu("A100"), 32, 0, 32, 0);
    CHECK(o.limit_blocks == 32);
    CHECK(o.limit_warps == 64);
    CHECK(o.active_blocks == 32);
    CHECK(o.theoretical_pct == 50.0);
}

TEST_CASE("Registers are allocated per sub-partition: 192 per thread fit 8 warps, not 10", "[occupancy][A100]") {
    // 192 x 32 = 6144 a warp; 16384 / 6144 = 2 warps in each of 4 sub-partitions. Counted over the
    // whole 65536 it would be 10.
    auto o = occupancy(gpu("A100"), 64, 0, 192, 0);
    CHECK(o.limit_registers == 4);  // 8 warps / 2 per block
}

TEST_CASE("A register count is rounded up per warp to the allocation unit of 256", "[occupancy][A100]") {
    // 33 x 32 = 1056 -> 1280 a warp: 12 warps per sub-partition, 48 in all, 6 blocks of 8 warps
    CHECK(occupancy(gpu("A100"), 256, 0, 33, 0).limit_registers == 6);
}

TEST_CASE("A block that cannot launch has occupancy 0", "[occupancy][A100]") {
    auto a100 = gpu("A100");
    CHECK(occupancy(a100, 1024, 0, 255, 0).active_blocks == 0);  // 8192 x 32 warps > 65536
    CHECK(occupancy(a100, 256, 0, 255, 0).active_blocks == 1);
    CHECK(occupancy(a100, 256, 0, 256, 0).limit_registers == 0);  // more than 255 per thread
    CHECK(occupancy(a100, 1025, 0, 32, 0).limit_warps == 0);
    CHECK(occupancy(a100, 32, 163 * KiB, 32, 0).active_blocks == 1);  // the opt-in maximum
    CHECK(occupancy(a100, 32, 163 * KiB + 1, 32, 0).limit_shared_mem == 0);
    auto none = occupancy(a100, 32, 163 * KiB + 1, 32, 1000);
    CHECK(none.theoretical_pct == 0.0);
    CHECK(none.waves_per_multiprocessor == 0.0);
}

TEST_CASE("Without a register count the rule assumes 32 and says so", "[occupancy]") {
    auto o = occupancy(gpu("A100"), 256, 0, 0, 0);
    CHECK(o.registers_assumed);
    CHECK(o.registers_per_thread == 32);
    CHECK(o.active_blocks == 8);
}

TEST_CASE("On a T4, an SM holds 1024 threads, 16 blocks and allocates shared memory in 256 bytes", "[occupancy][T4]") {
    auto t4 = gpu("T4");
    CHECK(occupancy(t4, 1024, 0, 32, 0).active_blocks == 1);
    CHECK(occupancy(t4, 256, 0, 32, 0).active_blocks == 4);
    auto small = occupancy(t4, 32, 0, 32, 0);
    CHECK(small.active_blocks == 16);
    CHECK(small.theoretical_pct == 50.0);
    CHECK(small.limit_shared_mem == 16);  // nothing reserved, nothing used: no limit but the blocks'
    CHECK(occupancy(t4, 32, 100, 32, 0).limit_shared_mem == 256);  // 100 -> 256 of 65536
    CHECK(occupancy(t4, 256, 32 * KiB, 32, 0).limit_shared_mem == 2);
    CHECK(occupancy(t4, 256, 48 * KiB, 32, 0).limit_shared_mem == 1);
}

TEST_CASE("On an RTX 4090, an SM holds 48 warps and 24 blocks", "[occupancy][RTX4090]") {
    auto ada = gpu("RTX4090");
    auto full = occupancy(ada, 256, 0, 32, 0);
    CHECK(full.active_blocks == 6);
    CHECK(full.theoretical_pct == 100.0);
    auto big = occupancy(ada, 1024, 0, 32, 0);
    CHECK(big.active_blocks == 1);
    CHECK(big.theoretical_pct == Approx(200.0 / 3));
    CHECK(occupancy(ada, 32, 0, 32, 0).active_blocks == 24);
    CHECK(occupancy(ada, 256, 48 * KiB, 32, 0).limit_shared_mem == 2);  // 102400 / 50176
}

TEST_CASE("On an H100, 228 KiB per SM hold 4 blocks of 48 KiB", "[occupancy][H100]") {
    auto h100 = gpu("H100");
    CHECK(occupancy(h100, 256, 48 * KiB, 32, 0).limit_shared_mem == 4);  // 233472 / 50176
    CHECK(occupancy(h100, 256, 227 * KiB, 32, 0).active_blocks == 1);
    CHECK(occupancy(h100, 256, 0, 32, 132 * 8).waves_per_multiprocessor == 1.0);
}

TEST_CASE("The dynamic shared memory available to n resident blocks leaves room for the reserved bytes", "[occupancy]") {
    auto a100 = gpu("A100");
    // 167936 / 4 = 41984 a block, 1 KiB of it reserved
    CHECK(available_dynamic_shared(a100, 256, 4, 0, 0) == 40960);
    CHECK(occupancy(a100, 256, 40960, 0, 0).active_blocks == 4);
    CHECK(occupancy(a100, 256, 40960 + 1, 0, 0).active_blocks == 3);
    CHECK(available_dynamic_shared(a100, 256, 1, 0, 0) == 166912);  // the opt-in maximum
    CHECK(available_dynamic_shared(a100, 256, 9, 0, 0) == 0);       // 9 never fit
    CHECK(available_dynamic_shared(gpu("T4"), 128, 3, 0, 0) == 21760);  // 65536 / 3 in 256s
}

#if defined(SIMT_HAVE_CUDA_OCCUPANCY_H)
#include <cuda_occupancy.h>

TEST_CASE("The occupancy rule agrees with the CUDA toolkit's cuda_occupancy.h on every model", "[occupancy][toolkit]") {
    long cases = 0;
    for (const auto& m : simt::sim::detail::gpu_models()) {
        const DeviceProperties d = properties_of(m);
        cudaOccDeviceProp p;
        p.computeMajor = d.major;
        p.computeMinor = d.minor;
        p.maxThreadsPerBlock = d.max_threads_per_block;
        p.maxThreadsPerMultiprocessor = d.max_threads_per_multiprocessor;
        p.regsPerBlock = d.regs_per_block;
        p.regsPerMultiprocessor = d.regs_per_multiprocessor;
        p.warpSize = d.warp_size;
        p.sharedMemPerBlock = d.shared_mem_per_block;
        p.sharedMemPerMultiprocessor = d.shared_mem_per_multiprocessor;
        p.numSms = d.multi_processor_count;
        p.sharedMemPerBlockOptin = d.shared_mem_per_block_optin;
        p.reservedSharedMemPerBlock = d.reserved_shared_mem_per_block;
        for (int threads = 1; threads <= 1024; threads += threads < 64 ? 1 : 13)
            for (int regs = 1; regs <= 255; regs += 5)
                for (std::size_t shared = 0; shared <= d.shared_mem_per_block_optin; shared += 7001) {
                    cudaOccFuncAttributes a;
                    a.maxThreadsPerBlock = d.max_threads_per_block;
                    a.numRegs = regs;
                    a.sharedSizeBytes = 0;
                    a.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
                    a.maxDynamicSharedSizeBytes = d.shared_mem_per_block_optin;
                    cudaOccDeviceState state;
                    cudaOccResult r;
                    REQUIRE(cudaOccMaxActiveBlocksPerMultiprocessor(&r, &p, &a, &state, threads, shared) ==
                            CUDA_OCC_SUCCESS);
                    const auto o = occupancy(d, threads, shared, regs, 0);
                    ++cases;
                    if (o.active_blocks == r.activeBlocksPerMultiprocessor &&
                        o.limit_registers == r.blockLimitRegs && o.limit_warps == r.blockLimitWarps)
                        continue;
                    INFO(m.key << ": " << threads << " threads, " << regs << " registers, " << shared
                               << " bytes of shared memory");
                    CHECK(o.active_blocks == r.activeBlocksPerMultiprocessor);
                    CHECK(o.limit_registers == r.blockLimitRegs);
                    CHECK(o.limit_warps == r.blockLimitWarps);
                }
    }
    CHECK(cases > 100000);
}
#endif
