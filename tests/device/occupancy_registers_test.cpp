// The register limit of the occupancy that SIMT_PROFILE prints and lesson 15 teaches
// (sim/src/device/occupancy.hpp), at register counts where allocating per sub-partition and
// dividing the whole register file give different answers.
#include <catch2/catch.hpp>

#include "../../sim/src/device/model.hpp"
#include "../../sim/src/device/occupancy.hpp"

namespace {

simt::DeviceProperties a100() {
    const auto* m = simt::sim::detail::find_gpu_model("A100");
    REQUIRE(m != nullptr);
    return simt::sim::detail::properties_of(*m);
}

}  // namespace

TEST_CASE("At 40 registers a thread an A100 SM holds 48 warps, not the 51 that 65536 / 1280 gives", "[occupancy][A100]") {
    using simt::sim::detail::occupancy;
    // 40 x 32 = 1280 a warp; floor(16384 / 1280) = 12 warps in each of 4 sub-partitions.
    auto one_warp = occupancy(a100(), 32, 0, 40, 0);
    CHECK(one_warp.limit_registers == 48);
    auto two_warps = occupancy(a100(), 64, 0, 40, 0);
    CHECK(two_warps.limit_registers == 24);  // 65536 / (2 x 1280) would say 25
    CHECK(two_warps.active_blocks == 24);
    CHECK(two_warps.theoretical_pct == 75.0);
    auto three_warps = occupancy(a100(), 96, 0, 40, 0);
    CHECK(three_warps.limit_registers == 16);  // 65536 / (3 x 1280) would say 17
}

TEST_CASE("At 72 registers a thread blocks of 256 get 28 warps' worth of registers: 3 blocks", "[occupancy][A100]") {
    // Lesson 15's exercise: 2304 a warp, floor(16384 / 2304) = 7 per sub-partition, 28 in all.
    auto o = simt::sim::detail::occupancy(a100(), 256, 0, 72, 0);
    CHECK(o.limit_registers == 3);
    CHECK(o.theoretical_pct == 37.5);
}
