// CUB's block-level collectives beyond the first set, as a kernel uses them: BlockExchange between
// the striped, blocked and warp-striped arrangements (in place and into a second array),
// BlockHistogram into a shared-memory histogram (whole, and built up with InitHistogram and two
// Composites), and BlockDiscontinuity flagging heads (with and without the previous tile's last
// item), tails, and both at once. Three blocks of 128 threads, four items per thread, each one
// TempStorage reused with __syncthreads between the calls.
// Each result is checked against a CPU loop; prints PASS, or FAILED: <what> and returns 1.
#include <algorithm>
#include <cstdio>
#include <vector>

#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include "cub_checks.cuh"

const int kThreads = 128, kItems = 4, kTile = kThreads * kItems, kBlocks = 3;

// ---- BlockExchange -------------------------------------------------------------------------

// Each thread records what it holds after an exchange at [thread * 4 + item] of its block's tile,
// whatever the arrangement, so that the host can tell which input item every slot received.
// The order makes each exchange write TempStorage in another arrangement than the one the
// exchange before it read, so every barrier between them is needed.
__global__ void exchanges(const int* in, int* striped_to_blocked, int* blocked_to_striped,
                          int* warp_striped_to_blocked, int* blocked_to_warp_striped) {
    typedef cub::BlockExchange<int, kThreads, kItems> BlockExchange;
    __shared__ typename BlockExchange::TempStorage temp;
    const int* tile = in + blockIdx.x * kTile;
    const int t = threadIdx.x, warp = t / 32, lane = t % 32;
    const int mine = blockIdx.x * kTile + t * kItems;
    int items[kItems], out[kItems];

    for (int i = 0; i < kItems; ++i) items[i] = tile[t * kItems + i];
    BlockExchange(temp).BlockedToStriped(items);
    for (int i = 0; i < kItems; ++i) blocked_to_striped[mine + i] = items[i];
    __syncthreads();  // temp is reused by every exchange below

    for (int i = 0; i < kItems; ++i) items[i] = tile[t * kItems + i];
    BlockExchange(temp).BlockedToWarpStriped(items, out);
    for (int i = 0; i < kItems; ++i) blocked_to_warp_striped[mine + i] = out[i];
    __syncthreads();

    for (int i = 0; i < kItems; ++i) items[i] = tile[i * kThreads + t];
    BlockExchange(temp).StripedToBlocked(items, out);
    for (int i = 0; i < kItems; ++i) striped_to_blocked[mine + i] = out[i];
    __syncthreads();

    // Warp-striped: each warp owns 128 consecutive items, striped across its 32 lanes.
    for (int i = 0; i < kItems; ++i) items[i] = tile[warp * 32 * kItems + i * 32 + lane];
    BlockExchange(temp).WarpStripedToBlocked(items);
    for (int i = 0; i < kItems; ++i) warp_striped_to_blocked[mine + i] = items[i];
}

static int test_exchange() {
    const int n = kBlocks * kTile;
    std::vector<int> in = make_ints(n, 1, -100000, 100000);
    int *d_in, *d_s2b, *d_b2s, *d_ws2b, *d_b2ws;
    CHECK(to_device(&d_in, in));
    CHECK(cudaMalloc(&d_s2b, n * sizeof(int)));
    CHECK(cudaMalloc(&d_b2s, n * sizeof(int)));
    CHECK(cudaMalloc(&d_ws2b, n * sizeof(int)));
    CHECK(cudaMalloc(&d_b2ws, n * sizeof(int)));
    exchanges<<<kBlocks, kThreads>>>(d_in, d_s2b, d_b2s, d_ws2b, d_b2ws);
    CHECK(cudaGetLastError());

    std::vector<int> s2b(n), b2s(n), ws2b(n), b2ws(n);
    CHECK(to_host(s2b, d_s2b));
    CHECK(to_host(b2s, d_b2s));
    CHECK(to_host(ws2b, d_ws2b));
    CHECK(to_host(b2ws, d_b2ws));
    std::vector<int> want_blocked(n), want_striped(n), want_warp_striped(n);
    for (int b = 0; b < kBlocks; ++b) {
        for (int t = 0; t < kThreads; ++t) {
            for (int i = 0; i < kItems; ++i) {
                int slot = b * kTile + t * kItems + i;
                want_blocked[slot] = in[slot];
                want_striped[slot] = in[b * kTile + i * kThreads + t];
                want_warp_striped[slot] = in[b * kTile + (t / 32) * 32 * kItems + i * 32 + t % 32];
            }
        }
    }
    expect_equal(b2s, want_striped, "BlockExchange::BlockedToStriped in place");
    expect_equal(b2ws, want_warp_striped,
                 "BlockExchange::BlockedToWarpStriped into a second array");
    expect_equal(s2b, want_blocked, "BlockExchange::StripedToBlocked into a second array");
    expect_equal(ws2b, want_blocked, "BlockExchange::WarpStripedToBlocked in place");
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_s2b));
    CHECK(cudaFree(d_b2s));
    CHECK(cudaFree(d_ws2b));
    CHECK(cudaFree(d_b2ws));
    return 0;
}

// ---- BlockHistogram ------------------------------------------------------------------------

// Each block reads two tiles of 512 samples: Histogram counts the first; then InitHistogram
// clears the counters and two Composites add both tiles on top of each other.
__global__ void histograms(const unsigned char* samples, unsigned* first_tile,
                           unsigned* both_tiles) {
    typedef cub::BlockHistogram<unsigned char, kThreads, kItems, 256> BlockHistogram;
    __shared__ typename BlockHistogram::TempStorage temp;
    __shared__ unsigned int histogram[256];
    const unsigned char* tiles = samples + blockIdx.x * 2 * kTile;
    const int t = threadIdx.x;
    unsigned char items[kItems];

    for (int i = 0; i < kItems; ++i) items[i] = tiles[t * kItems + i];
    BlockHistogram(temp).Histogram(items, histogram);
    __syncthreads();  // every count is in before any thread copies one out
    for (int bin = t; bin < 256; bin += kThreads)
        first_tile[blockIdx.x * 256 + bin] = histogram[bin];
    __syncthreads();  // every copy is out before the counters are cleared, by whichever threads

    BlockHistogram(temp).InitHistogram(histogram);
    __syncthreads();
    BlockHistogram(temp).Composite(items, histogram);
    __syncthreads();  // temp and the counters are reused by the second Composite
    for (int i = 0; i < kItems; ++i) items[i] = tiles[kTile + t * kItems + i];
    BlockHistogram(temp).Composite(items, histogram);
    __syncthreads();
    for (int bin = t; bin < 256; bin += kThreads)
        both_tiles[blockIdx.x * 256 + bin] = histogram[bin];
}

static int test_histogram() {
    const int n = kBlocks * 2 * kTile;
    // Block 0: every sample the same, one bin taking all 512. Block 1: uniform over 0 to 255.
    // Block 2: mostly 0, 7 and 255, so that many threads count into the same bins.
    std::vector<int> draws = make_ints(n, 2, 0, 255);
    std::vector<unsigned char> samples(n);
    for (int k = 0; k < n; ++k) {
        int block = k / (2 * kTile);
        int x = draws[k];
        if (block == 0) x = 200;
        if (block == 2 && x >= 64) x = x < 128 ? 0 : x < 192 ? 7 : 255;
        samples[k] = (unsigned char)x;
    }
    unsigned char* d_samples;
    unsigned *d_first, *d_both;
    CHECK(to_device(&d_samples, samples));
    CHECK(cudaMalloc(&d_first, kBlocks * 256 * sizeof(unsigned)));
    CHECK(cudaMalloc(&d_both, kBlocks * 256 * sizeof(unsigned)));
    histograms<<<kBlocks, kThreads>>>(d_samples, d_first, d_both);
    CHECK(cudaGetLastError());

    std::vector<unsigned> first(kBlocks * 256), both(kBlocks * 256);
    CHECK(to_host(first, d_first));
    CHECK(to_host(both, d_both));
    std::vector<unsigned> want_first(kBlocks * 256, 0), want_both(kBlocks * 256, 0);
    for (int k = 0; k < n; ++k) {
        int block = k / (2 * kTile);
        if (k % (2 * kTile) < kTile) ++want_first[block * 256 + samples[k]];
        ++want_both[block * 256 + samples[k]];
    }
    expect_equal(first, want_first,
                 "BlockHistogram<unsigned char, 128, 4, 256>::Histogram into a shared histogram");
    expect_equal(both, want_both,
                 "BlockHistogram::InitHistogram, then Composite twice, adds both tiles");
    CHECK(cudaFree(d_samples));
    CHECK(cudaFree(d_first));
    CHECK(cudaFree(d_both));
    return 0;
}

// ---- BlockDiscontinuity --------------------------------------------------------------------

// CUB 3 has no cub::Inequality; a functor of one's own works with every version.
struct NotEqual {
    __host__ __device__ bool operator()(const int& a, const int& b) const { return a != b; }
};

// Not symmetric, so that a swap of the two arguments shows: flags where the sequence goes down
// from a to b. FlagHeads passes (previous item, item); FlagTails passes (item, next item).
struct GoesDown {
    __host__ __device__ bool operator()(const int& a, const int& b) const { return a > b; }
};

__global__ void discontinuities(const int* in, const int* predecessors, int* heads,
                                int* heads_after, unsigned char* tails, int* both_heads,
                                int* both_tails) {
    typedef cub::BlockDiscontinuity<int, kThreads> BlockDiscontinuity;
    __shared__ typename BlockDiscontinuity::TempStorage temp;
    const int mine = blockIdx.x * kTile + threadIdx.x * kItems;
    int items[kItems];
    for (int i = 0; i < kItems; ++i) items[i] = in[mine + i];

    int head_flags[kItems];
    BlockDiscontinuity(temp).FlagHeads(head_flags, items, NotEqual());
    __syncthreads();  // temp is reused by every call below

    // Every thread passes the previous tile's last item; only thread 0 compares with it.
    int after_flags[kItems];
    BlockDiscontinuity(temp).FlagHeads(after_flags, items, GoesDown(), predecessors[blockIdx.x]);
    __syncthreads();

    unsigned char tail_flags[kItems];
    BlockDiscontinuity(temp).FlagTails(tail_flags, items, GoesDown());
    __syncthreads();

    int both_head_flags[kItems], both_tail_flags[kItems];
    BlockDiscontinuity(temp).FlagHeadsAndTails(both_head_flags, both_tail_flags, items, NotEqual());

    for (int i = 0; i < kItems; ++i) {
        heads[mine + i] = head_flags[i];
        heads_after[mine + i] = after_flags[i];
        tails[mine + i] = tail_flags[i];
        both_heads[mine + i] = both_head_flags[i];
        both_tails[mine + i] = both_tail_flags[i];
    }
}

static int test_discontinuity() {
    const int n = kBlocks * kTile;
    // Runs of 1 to 9 equal values from 0 to 5.
    std::vector<int> lengths = make_ints(n, 3, 1, 9), values = make_ints(n, 4, 0, 5);
    std::vector<int> in;
    for (int r = 0; int(in.size()) < n; ++r)
        for (int k = 0; k < lengths[r] && int(in.size()) < n; ++k) in.push_back(values[r]);
    // Across the first tile boundary the values go down, across the second they do not; block 0's
    // predecessor is below everything, so its first item is not a head as it is without one.
    in[kTile - 1] = 5;
    in[kTile] = 0;
    in[2 * kTile - 1] = 3;
    in[2 * kTile] = 3;
    std::vector<int> predecessors = {-1, in[kTile - 1], in[2 * kTile - 1]};

    int *d_in, *d_predecessors, *d_heads, *d_after, *d_both_heads, *d_both_tails;
    unsigned char* d_tails;
    CHECK(to_device(&d_in, in));
    CHECK(to_device(&d_predecessors, predecessors));
    CHECK(cudaMalloc(&d_heads, n * sizeof(int)));
    CHECK(cudaMalloc(&d_after, n * sizeof(int)));
    CHECK(cudaMalloc(&d_tails, n * sizeof(unsigned char)));
    CHECK(cudaMalloc(&d_both_heads, n * sizeof(int)));
    CHECK(cudaMalloc(&d_both_tails, n * sizeof(int)));
    discontinuities<<<kBlocks, kThreads>>>(d_in, d_predecessors, d_heads, d_after, d_tails,
                                           d_both_heads, d_both_tails);
    CHECK(cudaGetLastError());

    std::vector<int> heads(n), after(n), both_heads(n), both_tails(n);
    std::vector<unsigned char> tails(n);
    CHECK(to_host(heads, d_heads));
    CHECK(to_host(after, d_after));
    CHECK(to_host(tails, d_tails));
    CHECK(to_host(both_heads, d_both_heads));
    CHECK(to_host(both_tails, d_both_tails));

    // Without a neighbouring item, a tile's first item is always a head and its last always a
    // tail; the flags never look into another block's tile.
    std::vector<int> want_heads(n), want_after(n), want_both_tails(n);
    std::vector<unsigned char> want_tails(n);
    NotEqual differ;
    GoesDown down;
    for (int k = 0; k < n; ++k) {
        int b = k / kTile, j = k % kTile;
        bool first = j == 0, last = j == kTile - 1;
        want_heads[k] = first ? 1 : differ(in[k - 1], in[k]);
        want_after[k] = down(first ? predecessors[b] : in[k - 1], in[k]);
        want_tails[k] = last ? 1 : down(in[k], in[k + 1]);
        want_both_tails[k] = last ? 1 : differ(in[k], in[k + 1]);
    }
    expect_equal(heads, want_heads, "BlockDiscontinuity::FlagHeads with an inequality functor");
    expect_equal(after, want_after,
                 "BlockDiscontinuity::FlagHeads with the previous tile's last item and (previous, "
                 "item) to the functor");
    expect_equal(
        tails, want_tails,
        "BlockDiscontinuity::FlagTails into unsigned char flags, with (item, next) to the functor");
    expect_equal(both_heads, want_heads, "BlockDiscontinuity::FlagHeadsAndTails: the heads");
    expect_equal(both_tails, want_both_tails, "BlockDiscontinuity::FlagHeadsAndTails: the tails");
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_predecessors));
    CHECK(cudaFree(d_heads));
    CHECK(cudaFree(d_after));
    CHECK(cudaFree(d_tails));
    CHECK(cudaFree(d_both_heads));
    CHECK(cudaFree(d_both_tails));
    return 0;
}

int main() {
    int err = 0;
    err |= test_exchange();
    err |= test_histogram();
    err |= test_discontinuity();
    if (err || failures) {
        if (failures) std::printf("FAILED: %d check(s)\n", failures);
        return 1;
    }
    std::printf("PASS\n");
    return 0;
}
