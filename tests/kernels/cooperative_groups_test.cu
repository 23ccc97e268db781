// Cooperative groups on both backends: tiles and their collectives, coalesced groups, cg::reduce
// and the scans, each kernel beside the values it must give.
#include <catch2/catch.hpp>
#include <simt/simt.hpp>

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

#include <algorithm>
#include <vector>

namespace cg = cooperative_groups;

__global__ void tile_shuffles(simt::span<int> out) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<8> tile = cg::tiled_partition<8>(block);
    int r = tile.thread_rank();
    auto o = &out[block.thread_rank() * 8];
    o[0] = r;
    o[1] = tile.meta_group_rank();
    o[2] = tile.meta_group_size();
    o[3] = tile.shfl(r * 10, 3);
    o[4] = tile.shfl_down(r, 1);
    o[5] = tile.shfl_up(r, 2);
    o[6] = tile.shfl_xor(r, 1);
    o[7] = tile.size();
}

TEST_CASE("Tiles of 8 rank their threads from 0 and shuffle within the tile", "[cg]") {
    auto out = simt::device_array<int>(64 * 8);
    simt::launch(tile_shuffles, 1, 64)(out);
    auto h = out.copy_to_host();
    for (int t = 0; t < 64; ++t) {
        int r = t % 8;
        INFO("thread " << t);
        CHECK(h[t * 8 + 0] == r);
        CHECK(h[t * 8 + 1] == t / 8);
        CHECK(h[t * 8 + 2] == 8);
        CHECK(h[t * 8 + 3] == 30);
        CHECK(h[t * 8 + 4] == (r < 7 ? r + 1 : r));
        CHECK(h[t * 8 + 5] == (r >= 2 ? r - 2 : r));
        CHECK(h[t * 8 + 6] == (r ^ 1));
        CHECK(h[t * 8 + 7] == 8);
    }
}

__global__ void tile_votes(simt::span<unsigned> out) {
    auto tile = cg::tiled_partition<16>(cg::this_thread_block());
    unsigned r = tile.thread_rank();
    auto o = &out[threadIdx.x * 5];
    o[0] = tile.ballot(r % 2 == 1);
    o[1] = tile.any(r == 15);
    o[2] = tile.all(r < 15);
    o[3] = tile.match_any(r / 4);
    int pred = 0;
    o[4] = tile.match_all(7, pred) == 0xffffu && pred;
}

TEST_CASE("Tile ballots and matches number the lanes by rank in every tile", "[cg]") {
    auto out = simt::device_array<unsigned>(64 * 5);
    simt::launch(tile_votes, 1, 64)(out);
    auto h = out.copy_to_host();
    for (unsigned t = 0; t < 64; ++t) {
        INFO("thread " << t);
        CHECK(h[t * 5 + 0] == 0xaaaau);
        CHECK(h[t * 5 + 1] == 1u);
        CHECK(h[t * 5 + 2] == 0u);
        CHECK(h[t * 5 + 3] == 0xfu << (t % 16 / 4 * 4));
        CHECK(h[t * 5 + 4] == 1u);
    }
}

__global__ void tile_reduce(simt::span<const int> in, simt::span<int> out) {
    auto tile = cg::tiled_partition<32>(cg::this_thread_block());
    int v = in[threadIdx.x];
    auto o = &out[threadIdx.x * 5];
    o[0] = cg::reduce(tile, v, cg::plus<int>());
    o[1] = cg::reduce(tile, v, cg::less<int>());
    o[2] = cg::reduce(tile, v, cg::greater<int>());
    o[3] = cg::reduce(tile, v, cg::bit_or<int>());
    o[4] = cg::reduce(tile, v, [](int a, int b) { return a ^ b; });
}

TEST_CASE("cg::reduce gives every lane of a tile the sum, minimum, maximum and bitwise results", "[cg]") {
    std::vector<int> in(64);
    for (int i = 0; i < 64; ++i) in[i] = (i * 7) % 23;
    auto din = simt::to_device(in);
    auto out = simt::device_array<int>(64 * 5);
    simt::launch(tile_reduce, 1, 64)(din, out);
    auto h = out.copy_to_host();
    for (int w = 0; w < 2; ++w) {
        int sum = 0, lo = 1 << 30, hi = -1, ors = 0, xors = 0;
        for (int l = 0; l < 32; ++l) {
            int v = in[w * 32 + l];
            sum += v, lo = std::min(lo, v), hi = std::max(hi, v), ors |= v, xors ^= v;
        }
        for (int l = 0; l < 32; ++l) {
            int t = w * 32 + l;
            CHECK(h[t * 5 + 0] == sum);
            CHECK(h[t * 5 + 1] == lo);
            CHECK(h[t * 5 + 2] == hi);
            CHECK(h[t * 5 + 3] == ors);
            CHECK(h[t * 5 + 4] == xors);
        }
    }
}

__global__ void tile_scans(simt::span<int> out) {
    auto tile = cg::tiled_partition<16>(cg::this_thread_block());
    int r = tile.thread_rank();
    out[threadIdx.x * 3 + 0] = cg::inclusive_scan(tile, r + 1);
    out[threadIdx.x * 3 + 1] = cg::exclusive_scan(tile, 2);
    out[threadIdx.x * 3 + 2] = cg::inclusive_scan(tile, 16 - r, cg::greater<int>());
}

TEST_CASE("Scans over a tile give each rank its prefix", "[cg]") {
    auto out = simt::device_array<int>(32 * 3);
    simt::launch(tile_scans, 1, 32)(out);
    auto h = out.copy_to_host();
    for (int t = 0; t < 32; ++t) {
        int r = t % 16;
        CHECK(h[t * 3 + 0] == (r + 1) * (r + 2) / 2);
        CHECK(h[t * 3 + 1] == 2 * r);
        CHECK(h[t * 3 + 2] == 16);
    }
}

// Warp-aggregated atomics, as NVIDIA's blog writes them: one atomicAdd per coalesced group.
__device__ int reserve_slot(simt::ptr<int> count) {
    cg::coalesced_group g = cg::coalesced_threads();
    int base = 0;
    if (g.thread_rank() == 0) base = atomicAdd(count, g.size());
    return g.shfl(base, 0) + g.thread_rank();
}

__global__ void keep_positive(simt::span<const int> in, simt::span<int> out, simt::ptr<int> count,
                              simt::span<int> groups) {
    int i = threadIdx.x;
    if (in[i] > 0) {
        out[reserve_slot(count)] = in[i];
        cg::coalesced_group g = cg::coalesced_threads();
        groups[i * 3 + 0] = g.size();
        groups[i * 3 + 1] = g.thread_rank();
        groups[i * 3 + 2] = cg::reduce(g, in[i], cg::plus<int>());
    }
}

TEST_CASE("coalesced_threads() in a branch groups the lanes that took it", "[cg]") {
    std::vector<int> in(64);
    for (int i = 0; i < 64; ++i) in[i] = i % 3 == 0 ? i : -i;  // 22 positive (0 is not)
    auto din = simt::to_device(in);
    auto out = simt::to_device(std::vector<int>(64, 0));
    auto count = simt::to_device(std::vector<int>{0});
    auto groups = simt::to_device(std::vector<int>(64 * 3, -1));
    simt::launch(keep_positive, 1, 64)(din, out, count, groups);
    auto h = out.copy_to_host();
    auto g = groups.copy_to_host();
    REQUIRE(count.copy_to_host()[0] == 21);
    std::vector<int> kept(h.begin(), h.begin() + 21);
    std::sort(kept.begin(), kept.end());
    std::vector<int> expected;
    for (int i = 0; i < 64; ++i)
        if (in[i] > 0) expected.push_back(in[i]);
    CHECK(kept == expected);
    for (int w = 0; w < 2; ++w) {
        int size = 0, sum = 0;
        for (int l = 0; l < 32; ++l)
            if (in[w * 32 + l] > 0) ++size, sum += in[w * 32 + l];
        for (int l = 0, rank = 0; l < 32; ++l) {
            int t = w * 32 + l;
            if (in[t] <= 0) continue;
            INFO("thread " << t);
            CHECK(g[t * 3 + 0] == size);
            CHECK(g[t * 3 + 1] == rank++);
            CHECK(g[t * 3 + 2] == sum);
        }
    }
}

__global__ void dynamic_tiles(simt::span<int> out) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_group tile = cg::tiled_partition(block, 4);
    auto o = &out[threadIdx.x * 5];
    o[0] = tile.thread_rank();
    o[1] = tile.size();
    tile.sync();
    cg::sync(block);
    o[2] = cg::thread_rank(block);
    auto quarter = cg::tiled_partition<4>(cg::tiled_partition<16>(block));
    o[3] = quarter.meta_group_rank();
    o[4] = quarter.meta_group_size();
}

TEST_CASE("A tiled_partition of a block sized at run time ranks as the static tile does", "[cg]") {
    auto out = simt::device_array<int>(40 * 5);
    simt::launch(dynamic_tiles, 1, 40)(out);
    auto h = out.copy_to_host();
    for (int t = 0; t < 40; ++t) {
        CHECK(h[t * 5 + 0] == t % 4);
        CHECK(h[t * 5 + 1] == 4);
        CHECK(h[t * 5 + 2] == t);
        CHECK(h[t * 5 + 3] == t % 16 / 4);  // a tile of a tile: which quarter of its 16
        CHECK(h[t * 5 + 4] == 4);
    }
}

__global__ void block_shape(simt::span<unsigned> out) {
    cg::thread_block b = cg::this_thread_block();
    if (b.thread_rank() != 0) return;
    out[0] = b.size();
    out[1] = b.group_dim().y;
    out[2] = b.group_index().x;
    out[3] = cg::this_grid().size();
}

TEST_CASE("A thread_block describes its 3-D block, and the grid counts every thread", "[cg]") {
    auto out = simt::device_array<unsigned>(4);
    simt::launch(block_shape, 1, dim3(4, 2, 3))(out);
    auto h = out.copy_to_host();
    CHECK(h[0] == 24u);
    CHECK(h[1] == 2u);
    CHECK(h[2] == 0u);
    CHECK(h[3] == 24u);
}
