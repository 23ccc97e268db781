// Warp intrinsics on 32-lane warps: shuffles, votes, __syncwarp and __activemask.
#include <catch2/catch.hpp>
#include <simt/simt.hpp>

#include <vector>

__global__ void warp_sum(simt::span<const int> in, simt::span<int> out) {
    int t = simt::grid<1>();
    int v = in[t];
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    if (threadIdx.x % 32 == 0) out[t / 32] = v;
}

__global__ void shuffles(simt::span<int> out) {
    int lane = threadIdx.x % 32;
    out[threadIdx.x * 4 + 0] = __shfl_sync(0xffffffffu, lane * 10, 3);          // broadcast lane 3
    out[threadIdx.x * 4 + 1] = __shfl_up_sync(0xffffffffu, lane, 2);            // lane - 2
    out[threadIdx.x * 4 + 2] = __shfl_xor_sync(0xffffffffu, lane, 1);           // neighbour
    out[threadIdx.x * 4 + 3] = __shfl_sync(0xffffffffu, lane, lane + 1, 8);     // within 8-groups
}

__global__ void votes(simt::span<unsigned> out) {
    int lane = threadIdx.x % 32;
    unsigned b = __ballot_sync(0xffffffffu, lane % 4 == 0);
    int any = __any_sync(0xffffffffu, lane == 17);
    int all = __all_sync(0xffffffffu, lane < 32);
    int none = __any_sync(0xffffffffu, 0);
    if (lane == 0) {
        out[0] = b;
        out[1] = any;
        out[2] = all;
        out[3] = none;
    }
}

__global__ void syncwarp_exchange(simt::span<int> out) {
    __shared__ simt::shared<int[32]> s;
    int lane = threadIdx.x;
    s[lane] = lane * lane;
    __syncwarp();
    out[lane] = s[31 - lane];
}

__global__ void half_warp_shuffle(simt::span<int> out) {
    int lane = threadIdx.x;
    if (lane < 16) out[lane] = __shfl_xor_sync(0x0000ffffu, lane + 100, 8);
    else out[lane] = -1;
}

__global__ void active_after_exit(simt::span<unsigned> out) {
    if (threadIdx.x >= 8) return;
    __syncwarp(0xffu);
    out[threadIdx.x] = __activemask();
}

TEST_CASE("A shuffle-down tree sums each warp", "[warp]") {
    std::vector<int> in(256);
    for (int i = 0; i < 256; ++i) in[i] = i;
    auto din = simt::to_device(in);
    auto out = simt::device_array<int>(8);
    simt::launch(warp_sum, 2, 128)(din, out);
    auto v = out.copy_to_host();
    for (int w = 0; w < 8; ++w) REQUIRE(v[w] == 32 * 32 * w + 31 * 32 / 2);
}

TEST_CASE("__shfl_sync, _up, _xor and a width of 8 fetch from the right lanes", "[warp]") {
    auto out = simt::device_array<int>(64 * 4);
    simt::launch(shuffles, 1, 64)(out);
    auto v = out.copy_to_host();
    for (int t = 0; t < 64; ++t) {
        int lane = t % 32;
        REQUIRE(v[t * 4 + 0] == 30);
        REQUIRE(v[t * 4 + 1] == (lane >= 2 ? lane - 2 : lane));
        REQUIRE(v[t * 4 + 2] == (lane ^ 1));
        REQUIRE(v[t * 4 + 3] == (lane & ~7) + ((lane + 1) & 7));
    }
}

TEST_CASE("__ballot_sync, __any_sync and __all_sync vote over the warp", "[warp]") {
    auto out = simt::device_array<unsigned>(4);
    simt::launch(votes, 1, 32)(out);
    auto v = out.copy_to_host();
    CHECK(v[0] == 0x11111111u);
    CHECK(v[1] == 1u);
    CHECK(v[2] == 1u);
    CHECK(v[3] == 0u);
}

TEST_CASE("__syncwarp orders a shared-memory exchange between lanes", "[warp]") {
    auto out = simt::device_array<int>(32);
    simt::launch(syncwarp_exchange, 1, 32)(out);
    auto v = out.copy_to_host();
    for (int l = 0; l < 32; ++l) REQUIRE(v[l] == (31 - l) * (31 - l));
}

TEST_CASE("A half-warp mask lets 16 lanes shuffle among themselves", "[warp]") {
    auto out = simt::device_array<int>(32);
    simt::launch(half_warp_shuffle, 1, 32)(out);
    auto v = out.copy_to_host();
    for (int l = 0; l < 16; ++l) REQUIRE(v[l] == (l ^ 8) + 100);
    for (int l = 16; l < 32; ++l) REQUIRE(v[l] == -1);
}

TEST_CASE("__activemask leaves out lanes that have exited", "[warp]") {
    auto out = simt::device_array<unsigned>(8);
    simt::launch(active_after_exit, 1, 32)(out);
    for (unsigned m : out.copy_to_host()) REQUIRE(m == 0xffu);
}
