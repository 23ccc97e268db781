// The time model (sim/src/device/timing.hpp) on the A100's row, against predictions worked out
// by hand from docs/profiling.md's terms: 108 SMs at 1.41 GHz, DRAM at 0.9 x 2,039 GB/s =
// 1,835.1 GB/s, L2 at 5,120 B/clock = 7,219.2 GB/s, 40 MiB of L2, 64 FP32 lanes an SM, latencies
// 480 ns (DRAM) and 200 ns (L2), 3 us a launch.
#include <catch2/catch.hpp>

#include "../../sim/src/device/model.hpp"
#include "../../sim/src/device/timing.hpp"
#include "../../sim/src/profile/counters.hpp"

namespace {

using simt::sim::detail::find_gpu_model;
using simt::sim::detail::LaunchWork;
using simt::sim::detail::predict_time;
using simt::sim::detail::TimeBound;
using simt::sim::detail::profile::arithmetic_ops;
using simt::sim::detail::profile::SectorSet;

const simt::sim::detail::GpuModel& a100() {
    const auto* m = find_gpu_model("A100");
    REQUIRE(m != nullptr);
    return *m;
}

}  // namespace

TEST_CASE("A copy of 64 MiB is DRAM-bound: 128 MiB through DRAM at 1,835 GB/s plus the launch") {
    LaunchWork w;
    const std::uint64_t sectors = (64u << 20) / 32;  // each way
    w.distinct_read_sectors = w.distinct_written_sectors = sectors;
    w.distinct_sectors = 2 * sectors;
    w.sectors = 2 * sectors;
    w.warps = (16u << 20) / 32;  // one float a thread
    w.global_waits = w.warps;  // the load; the store is sent, not waited for
    w.warp_instructions = 2 * w.warps;
    w.waves = 75.85;  // 65,536 blocks of 256 over 108 x 8
    auto p = predict_time(a100(), w);
    CHECK(p.bound == TimeBound::dram);
    CHECK(p.dram_bytes == Approx(134217728.0));
    CHECK(p.dram_us == Approx(73.139).epsilon(1e-4));
    CHECK(p.l2_us == Approx(18.592).epsilon(1e-4));
    // 76 waves of one load a warp, each from DRAM.
    CHECK(p.latency_us == Approx(36.48).epsilon(1e-4));
    CHECK(p.us == Approx(76.139).epsilon(1e-4));
}

TEST_CASE("Re-reading a footprint twice the size of L2 sends half of the re-reads to DRAM") {
    LaunchWork w;
    const std::uint64_t footprint = 2 * (40u << 20) / 32;  // sectors
    w.distinct_read_sectors = w.distinct_sectors = footprint;
    w.sectors = 4 * footprint;  // every sector read four times
    auto p = predict_time(a100(), w);
    // 80 MiB once, then 240 MiB of re-reads of which half miss: 80 + 120 = 200 MiB.
    CHECK(p.dram_bytes == Approx(200.0 * (1 << 20)));
    CHECK(p.l2_bytes == Approx(320.0 * (1 << 20)));
}

TEST_CASE("A transpose whose shared tile conflicts is bound by shared-memory wavefronts") {
    LaunchWork w;
    w.shared_wavefronts = 1u << 30;
    w.distinct_read_sectors = w.distinct_written_sectors = 1 << 16;
    w.distinct_sectors = 1 << 17;
    w.sectors = 1 << 17;
    auto p = predict_time(a100(), w);
    CHECK(p.bound == TimeBound::shared);
    // 2^30 wavefronts at one a clock on each of 108 SMs at 1.41 GHz.
    CHECK(p.shared_us == Approx(7050.9).epsilon(1e-4));
    CHECK(p.us == Approx(7053.9).epsilon(1e-4));
}

TEST_CASE("A loop of arithmetic with little memory is compute-bound at the FP32 lanes' rate") {
    LaunchWork w;
    w.thread_ops = 1'000'000'000'000ull;
    w.warps = 1 << 15;
    w.global_waits = w.warp_instructions = 1 << 15;
    w.distinct_written_sectors = w.distinct_sectors = w.sectors = 1 << 17;
    w.waves = 4;
    auto p = predict_time(a100(), w);
    CHECK(p.bound == TimeBound::compute);
    // 10^12 operations at 108 x 64 x 1.41e9 a second; issuing them as 3.1e10 warp instructions
    // at four a clock per SM would take half as long.
    CHECK(p.compute_us == Approx(102607.9).epsilon(1e-4));
}

TEST_CASE("One block of eight warps, each making 1,000 requests in turn, is latency-bound") {
    LaunchWork w;
    w.warps = 8;
    w.global_waits = w.warp_instructions = 8000;
    w.distinct_read_sectors = w.distinct_sectors = w.sectors = 8000;
    w.waves = 1.0 / 864;
    auto p = predict_time(a100(), w);
    CHECK(p.bound == TimeBound::latency);
    CHECK(p.waves == 1);
    CHECK(p.requests_per_warp == 1000);
    CHECK(p.latency_ns == Approx(480));  // every sector comes from DRAM
    CHECK(p.latency_us == Approx(480));
    CHECK(p.us == Approx(483));
}

TEST_CASE("A launch that does almost nothing costs the launch itself") {
    LaunchWork w;
    w.warps = 1;
    w.global_waits = w.warp_instructions = 1;
    w.distinct_written_sectors = w.distinct_sectors = w.sectors = 1;
    w.waves = 1.0 / 864;
    auto p = predict_time(a100(), w);
    CHECK(p.bound == TimeBound::launch);
    CHECK(p.us == Approx(3.48));  // 3 us and one request's 480 ns
}

TEST_CASE("The same work predicts less time on an H100 than on a T4, for each bound") {
    LaunchWork w;
    w.distinct_read_sectors = w.distinct_sectors = w.sectors = 1 << 22;
    const auto* t4 = find_gpu_model("T4");
    const auto* h100 = find_gpu_model("H100");
    REQUIRE(t4);
    REQUIRE(h100);
    CHECK(predict_time(*h100, w).dram_us < predict_time(a100(), w).dram_us);
    CHECK(predict_time(a100(), w).dram_us < predict_time(*t4, w).dram_us);
}

TEST_CASE("A block's second load of a sector hits L1: it neither reaches L2 nor waits as long") {
    LaunchWork w;
    w.sectors = 1000;
    w.l1_hit_sectors = 900;  // 100 first loads, 50 of them of sectors DRAM must deliver
    w.distinct_read_sectors = w.distinct_sectors = 50;
    w.warps = 1;
    w.global_waits = w.warp_instructions = 10;
    w.waves = 1;
    auto p = predict_time(a100(), w);
    CHECK(p.l2_bytes == 3200);
    CHECK(p.dram_bytes == 1600);
    // (900 x 25 + 50 x 200 + 50 x 480) / 1000 ns
    CHECK(p.latency_ns == Approx(56.5));
    CHECK(p.latency_us == Approx(0.565));
}

// The time model's inputs that the profiler computes with rules of its own
// (sim/src/profile/counters.hpp): arithmetic per source line, and distinct sectors.

TEST_CASE("A line's arithmetic counts binary and compound operators, comparisons and math calls") {
    CHECK(arithmetic_ops("c[i] = a[i] + b[i];") == 1);
    CHECK(arithmetic_ops("y[i] = sqrtf(x[i]) + expf(-x[i]);") == 3);
    CHECK(arithmetic_ops("out[i] = fmaf(a, b, c);") == 1);
    CHECK(arithmetic_ops("if (i < n && j >= 0) v = p->x << 2;") == 4);
    CHECK(arithmetic_ops("v = (a - b) / c % d;") == 3);
}

TEST_CASE("A multiply beside an add counts once, as the fused multiply-add nvcc makes of it") {
    CHECK(arithmetic_ops("x = x * 0.999f + 0.001f;") == 1);
    CHECK(arithmetic_ops("sum += p * q;") == 1);
    CHECK(arithmetic_ops("r = (a * b) + c;") == 1);
    // One product fuses with the subtraction, the other stays a multiply.
    CHECK(arithmetic_ops("z = z * z - c * d;") == 2);
    // An add inside a factor is done first: no fusion.
    CHECK(arithmetic_ops("x = (a + b) * c;") == 2);
    CHECK(arithmetic_ops("s *= a + b;") == 2);
    // Not across a call's arguments, into or out of a call, a comparison, or a statement.
    CHECK(arithmetic_ops("y = fmaxf(a * b, c + d);") == 3);
    CHECK(arithmetic_ops("s += fmaxf(a * b, 0.0f);") == 3);
    CHECK(arithmetic_ops("if (a * b < c + d) n++;") == 4);
    CHECK(arithmetic_ops("x = a * b; y = c + d;") == 2);
    // A cast is a call: what it yields still fuses outside it.
    CHECK(arithmetic_ops("y = float(i) * h + x0;") == 1);
}

TEST_CASE("Loop control, index arithmetic and a signature count nothing") {
    CHECK(arithmetic_ops("for (int dy = -2; dy <= 2; ++dy)") == 0);
    CHECK(arithmetic_ops("for (int k = 0; k < n; ++k) x = x * 0.999f + 0.001f;") == 1);
    // Only the multiply-add of the values: the index products and sums are address arithmetic.
    CHECK(arithmetic_ops("sum += a[row * n + k] * b[k * n + col];") == 1);
    CHECK(arithmetic_ops("__global__ void scale(float* x, float a, int n) {") == 0);
    CHECK(arithmetic_ops("__device__ float sq(float v) { return v * v; }") == 1);
}

TEST_CASE("A unary minus, a dereference, a comment and a string count nothing") {
    CHECK(arithmetic_ops("x = -y;") == 0);
    CHECK(arithmetic_ops("v = *p;") == 0);
    CHECK(arithmetic_ops("a = b; // a * b + c") == 0);
    CHECK(arithmetic_ops("printf(\"%d + %d\\n\", a, b);") == 0);
    CHECK(arithmetic_ops("") == 0);
}

TEST_CASE("Sectors touched are counted once, and two sets together once each") {
    SectorSet reads, writes;
    reads.add_bytes(0, 4);      // sector 0
    reads.add_bytes(28, 8);     // sectors 0 and 1
    reads.add_bytes(1 << 20, 128);  // four sectors in another chunk
    CHECK(reads.count() == 6);
    writes.add_bytes(32, 4);    // sector 1, read too
    writes.add_bytes(64, 4);    // sector 2, only written
    CHECK(writes.count() == 2);
    CHECK(reads.count_with(writes) == 7);
    SectorSet merged;
    merged.merge(reads);
    merged.merge(writes);
    CHECK(merged.count() == 7);
    merged.clear();
    CHECK(merged.count() == 0);
}
