// CUB's warp- and block-level collectives as a course uses them: WarpReduce and WarpScan (full
// warps and logical warps of 16), BlockReduce (1-D, a block of 120 threads, a 2-D block),
// BlockScan (single items, four items per thread, a running prefix across tiles), BlockLoad and
// BlockStore with each algorithm on a partial last tile, the direct load and store functions, and
// BlockRadixSort on keys and on key-value pairs.
// Each result is checked against a CPU loop; prints PASS, or FAILED: <what> and returns 1.
#include <algorithm>
#include <cstdio>
#include <vector>

#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include "cub_checks.cuh"

// CUB 3 has no cub::Max; a functor of one's own works with every version.
template <typename T>
struct MaxOp {
    __host__ __device__ T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};

// ---- Warp level --------------------------------------------------------------------------

// Four warps, each reducing its own 32 values. Only lane 0's result is defined.
__global__ void warp_reductions(const int* in, int* sums, int* partial_sums, int* maxima) {
    typedef cub::WarpReduce<int> WarpReduce;
    __shared__ typename WarpReduce::TempStorage temp[4];
    int warp = threadIdx.x / 32;
    int x = in[threadIdx.x];

    int sum = WarpReduce(temp[warp]).Sum(x);
    __syncwarp();  // the warp's storage is reused by the next call
    // Each warp counts a different number of lanes; the x of the lanes past it must not count.
    int partial = WarpReduce(temp[warp]).Sum(x, 32 - 7 * warp);
    __syncwarp();
    int largest = WarpReduce(temp[warp]).Reduce(x, MaxOp<int>());

    if (threadIdx.x % 32 == 0) {
        sums[warp] = sum;
        partial_sums[warp] = partial;
        maxima[warp] = largest;
    }
}

// Scans give every lane a result, and the aggregate to every lane too.
__global__ void warp_scans(const int* in, int* inclusive, int* exclusive, int* aggregate,
                           int* seeded_max, int* broadcast) {
    typedef cub::WarpScan<int> WarpScan;
    __shared__ typename WarpScan::TempStorage temp[4];
    int warp = threadIdx.x / 32;
    int x = in[threadIdx.x];

    int incl, excl, total, seeded;
    WarpScan(temp[warp]).InclusiveSum(x, incl);
    __syncwarp();
    WarpScan(temp[warp]).ExclusiveSum(x, excl, total);
    __syncwarp();
    WarpScan(temp[warp]).ExclusiveScan(x, seeded, 25, MaxOp<int>());
    __syncwarp();
    int from_lane5 = WarpScan(temp[warp]).Broadcast(x, 5);

    inclusive[threadIdx.x] = incl;
    exclusive[threadIdx.x] = excl;
    aggregate[threadIdx.x] = total;
    seeded_max[threadIdx.x] = seeded;
    broadcast[threadIdx.x] = from_lane5;
}

// Logical warps of 16: eight independent reductions in a block of 128.
__global__ void half_warp_sums(const float* in, float* sums) {
    typedef cub::WarpReduce<float, 16> HalfWarpReduce;
    __shared__ typename HalfWarpReduce::TempStorage temp[8];
    int group = threadIdx.x / 16;
    float sum = HalfWarpReduce(temp[group]).Sum(in[threadIdx.x]);
    if (threadIdx.x % 16 == 0) sums[group] = sum;
}

static int test_warps() {
    const int n = 128;
    std::vector<int> in = make_ints(n, 1, -50, 50);
    int *d_in, *d_sums, *d_partial, *d_max, *d_incl, *d_excl, *d_total, *d_seeded, *d_bcast;
    CHECK(to_device(&d_in, in));
    CHECK(cudaMalloc(&d_sums, 4 * sizeof(int)));
    CHECK(cudaMalloc(&d_partial, 4 * sizeof(int)));
    CHECK(cudaMalloc(&d_max, 4 * sizeof(int)));
    CHECK(cudaMalloc(&d_incl, n * sizeof(int)));
    CHECK(cudaMalloc(&d_excl, n * sizeof(int)));
    CHECK(cudaMalloc(&d_total, n * sizeof(int)));
    CHECK(cudaMalloc(&d_seeded, n * sizeof(int)));
    CHECK(cudaMalloc(&d_bcast, n * sizeof(int)));

    warp_reductions<<<1, n>>>(d_in, d_sums, d_partial, d_max);
    CHECK(cudaGetLastError());
    warp_scans<<<1, n>>>(d_in, d_incl, d_excl, d_total, d_seeded, d_bcast);
    CHECK(cudaGetLastError());

    std::vector<int> sums(4), partial(4), maxima(4);
    CHECK(to_host(sums, d_sums));
    CHECK(to_host(partial, d_partial));
    CHECK(to_host(maxima, d_max));
    std::vector<int> want_sums(4, 0), want_partial(4, 0), want_max(4, -1000);
    for (int w = 0; w < 4; ++w) {
        for (int lane = 0; lane < 32; ++lane) {
            int x = in[w * 32 + lane];
            want_sums[w] += x;
            if (lane < 32 - 7 * w) want_partial[w] += x;
            want_max[w] = std::max(want_max[w], x);
        }
    }
    expect_equal(sums, want_sums, "WarpReduce<int>::Sum gives each warp's sum");
    expect_equal(partial, want_partial, "WarpReduce<int>::Sum with valid_items counts only those lanes");
    expect_equal(maxima, want_max, "WarpReduce<int>::Reduce with a max functor gives each warp's maximum");

    std::vector<int> incl(n), excl(n), total(n), seeded(n), bcast(n);
    CHECK(to_host(incl, d_incl));
    CHECK(to_host(excl, d_excl));
    CHECK(to_host(total, d_total));
    CHECK(to_host(seeded, d_seeded));
    CHECK(to_host(bcast, d_bcast));
    std::vector<int> want_incl(n), want_excl(n), want_total(n), want_seeded(n), want_bcast(n);
    for (int w = 0; w < 4; ++w) {
        int running = 0, running_max = 25;
        for (int lane = 0; lane < 32; ++lane) {
            int i = w * 32 + lane;
            want_excl[i] = running;
            want_seeded[i] = running_max;
            running += in[i];
            running_max = std::max(running_max, in[i]);
            want_incl[i] = running;
            want_bcast[i] = in[w * 32 + 5];
        }
        for (int lane = 0; lane < 32; ++lane) want_total[w * 32 + lane] = running;
    }
    expect_equal(incl, want_incl, "WarpScan<int>::InclusiveSum");
    expect_equal(excl, want_excl, "WarpScan<int>::ExclusiveSum starts each warp at 0");
    expect_equal(total, want_total, "WarpScan<int>::ExclusiveSum gives every lane the warp aggregate");
    expect_equal(seeded, want_seeded, "WarpScan<int>::ExclusiveScan with an initial value and a max functor");
    expect_equal(bcast, want_bcast, "WarpScan<int>::Broadcast hands lane 5's value to its warp");

    // Halves and quarters add exactly in any order, so the float sums compare with ==.
    std::vector<float> halves(n);
    for (int i = 0; i < n; ++i) halves[i] = float(in[i]) * 0.5f;
    float *d_halves, *d_half_sums;
    CHECK(to_device(&d_halves, halves));
    CHECK(cudaMalloc(&d_half_sums, 8 * sizeof(float)));
    half_warp_sums<<<1, n>>>(d_halves, d_half_sums);
    CHECK(cudaGetLastError());
    std::vector<float> half_sums(8), want_half_sums(8, 0.0f);
    CHECK(to_host(half_sums, d_half_sums));
    for (int i = 0; i < n; ++i) want_half_sums[i / 16] += halves[i];
    expect_equal(half_sums, want_half_sums, "WarpReduce<float, 16>::Sum reduces each logical warp of 16");

    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_sums));
    CHECK(cudaFree(d_partial));
    CHECK(cudaFree(d_max));
    CHECK(cudaFree(d_incl));
    CHECK(cudaFree(d_excl));
    CHECK(cudaFree(d_total));
    CHECK(cudaFree(d_seeded));
    CHECK(cudaFree(d_bcast));
    CHECK(cudaFree(d_halves));
    CHECK(cudaFree(d_half_sums));
    return 0;
}

// ---- BlockReduce ---------------------------------------------------------------------------

// Each block owns a tile of 512 ints: one item per thread from its first 128, then four per
// thread (blocked) over all of it. Only thread 0's results are defined.
__global__ void block_reductions(const int* in, int* results, int num_valid) {
    typedef cub::BlockReduce<int, 128> BlockReduce;
    __shared__ typename BlockReduce::TempStorage temp;
    const int* tile = in + blockIdx.x * 512;
    int x = tile[threadIdx.x];
    int items[4];
    for (int i = 0; i < 4; ++i) items[i] = tile[threadIdx.x * 4 + i];

    int sum = BlockReduce(temp).Sum(x);
    __syncthreads();  // temp is reused by every call below
    int sum4 = BlockReduce(temp).Sum(items);
    __syncthreads();
    int largest = BlockReduce(temp).Reduce(x, MaxOp<int>());
    __syncthreads();
    int partial = BlockReduce(temp).Sum(x, num_valid);

    if (threadIdx.x == 0) {
        results[blockIdx.x * 4 + 0] = sum;
        results[blockIdx.x * 4 + 1] = sum4;
        results[blockIdx.x * 4 + 2] = largest;
        results[blockIdx.x * 4 + 3] = partial;
    }
}

// 120 threads: the last warp is partly empty.
__global__ void block120_sums(const float* in, float* sums, int num_valid) {
    typedef cub::BlockReduce<float, 120> BlockReduce120;
    __shared__ typename BlockReduce120::TempStorage temp;
    float x = in[blockIdx.x * 120 + threadIdx.x];
    float sum = BlockReduce120(temp).Sum(x);
    __syncthreads();
    float partial = BlockReduce120(temp).Sum(x, num_valid);
    if (threadIdx.x == 0) {
        sums[blockIdx.x * 2 + 0] = sum;
        sums[blockIdx.x * 2 + 1] = partial;
    }
}

// A 16 x 8 block: CUB ranks the threads as threadIdx.y * 16 + threadIdx.x.
__global__ void block2d_sums(const int* in, int* sums) {
    typedef cub::BlockReduce<int, 16, cub::BLOCK_REDUCE_WARP_REDUCTIONS, 8> BlockReduce2D;
    __shared__ typename BlockReduce2D::TempStorage temp;
    int rank = threadIdx.y * 16 + threadIdx.x;
    int sum = BlockReduce2D(temp).Sum(in[blockIdx.x * 128 + rank]);
    if (threadIdx.x == 0 && threadIdx.y == 0) sums[blockIdx.x] = sum;
}

static int test_block_reduce() {
    const int blocks = 3, num_valid = 100;
    std::vector<int> in = make_ints(blocks * 512, 2, -1000, 1000);
    int *d_in, *d_results;
    CHECK(to_device(&d_in, in));
    CHECK(cudaMalloc(&d_results, blocks * 4 * sizeof(int)));
    block_reductions<<<blocks, 128>>>(d_in, d_results, num_valid);
    CHECK(cudaGetLastError());
    std::vector<int> results(blocks * 4);
    CHECK(to_host(results, d_results));
    std::vector<int> sums(blocks), sums4(blocks), maxima(blocks), partials(blocks);
    std::vector<int> want_sums(blocks, 0), want_sums4(blocks, 0), want_max(blocks, -1000000),
        want_partials(blocks, 0);
    for (int b = 0; b < blocks; ++b) {
        sums[b] = results[b * 4 + 0];
        sums4[b] = results[b * 4 + 1];
        maxima[b] = results[b * 4 + 2];
        partials[b] = results[b * 4 + 3];
        for (int t = 0; t < 128; ++t) {
            int x = in[b * 512 + t];
            want_sums[b] += x;
            want_max[b] = std::max(want_max[b], x);
            if (t < num_valid) want_partials[b] += x;
        }
        for (int i = 0; i < 512; ++i) want_sums4[b] += in[b * 512 + i];
    }
    expect_equal(sums, want_sums, "BlockReduce<int, 128>::Sum");
    expect_equal(sums4, want_sums4, "BlockReduce<int, 128>::Sum over four items per thread");
    expect_equal(maxima, want_max, "BlockReduce<int, 128>::Reduce with a max functor");
    expect_equal(partials, want_partials, "BlockReduce<int, 128>::Sum with num_valid counts only those threads");

    // Quarters add exactly in any order.
    std::vector<float> quarters(2 * 120);
    for (int i = 0; i < 2 * 120; ++i) quarters[i] = float(in[i] % 64) * 0.25f;
    float *d_quarters, *d_float_sums;
    CHECK(to_device(&d_quarters, quarters));
    CHECK(cudaMalloc(&d_float_sums, 4 * sizeof(float)));
    block120_sums<<<2, 120>>>(d_quarters, d_float_sums, 77);
    CHECK(cudaGetLastError());
    std::vector<float> float_sums(4), want_float_sums(4, 0.0f);
    CHECK(to_host(float_sums, d_float_sums));
    for (int b = 0; b < 2; ++b) {
        for (int t = 0; t < 120; ++t) {
            want_float_sums[b * 2] += quarters[b * 120 + t];
            if (t < 77) want_float_sums[b * 2 + 1] += quarters[b * 120 + t];
        }
    }
    expect_equal(float_sums, want_float_sums, "BlockReduce<float, 120>::Sum, all threads and the first 77");

    int* d_sums2d;
    CHECK(cudaMalloc(&d_sums2d, blocks * sizeof(int)));
    block2d_sums<<<blocks, dim3(16, 8)>>>(d_in, d_sums2d);
    CHECK(cudaGetLastError());
    std::vector<int> sums2d(blocks), want_sums2d(blocks, 0);
    CHECK(to_host(sums2d, d_sums2d));
    for (int i = 0; i < blocks * 128; ++i) want_sums2d[i / 128] += in[i];
    expect_equal(sums2d, want_sums2d, "BlockReduce on a 16 x 8 block sums all 128 threads");

    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_results));
    CHECK(cudaFree(d_quarters));
    CHECK(cudaFree(d_float_sums));
    CHECK(cudaFree(d_sums2d));
    return 0;
}

// ---- BlockScan -----------------------------------------------------------------------------

__global__ void block_scans(const int* in, int* exclusive, int* inclusive, int* exclusive2,
                            int* aggregate, int* seeded_max) {
    typedef cub::BlockScan<int, 128> BlockScan;
    __shared__ typename BlockScan::TempStorage temp;
    int i = blockIdx.x * 128 + threadIdx.x;
    int x = in[i];

    int excl, incl, excl2, total, seeded;
    BlockScan(temp).ExclusiveSum(x, excl);
    __syncthreads();
    BlockScan(temp).InclusiveSum(x, incl);
    __syncthreads();
    BlockScan(temp).ExclusiveSum(x, excl2, total);
    __syncthreads();
    BlockScan(temp).ExclusiveScan(x, seeded, 25, MaxOp<int>());

    exclusive[i] = excl;
    inclusive[i] = incl;
    exclusive2[i] = excl2;
    aggregate[i] = total;
    seeded_max[i] = seeded;
}

// Four consecutive items per thread (a blocked arrangement), scanned in place.
__global__ void block_scan_items(const int* in, int* out) {
    typedef cub::BlockScan<int, 128> BlockScan;
    __shared__ typename BlockScan::TempStorage temp;
    int first = blockIdx.x * 512 + threadIdx.x * 4;
    int items[4];
    for (int k = 0; k < 4; ++k) items[k] = in[first + k];
    BlockScan(temp).ExclusiveSum(items, items);
    for (int k = 0; k < 4; ++k) out[first + k] = items[k];
}

// Carries the running total from one tile to the next. The scan calls it from its first warp
// with the tile's total; what lane 0 returns is the prefix the whole tile starts from.
struct RunningTotal {
    int total;
    __device__ explicit RunningTotal(int start) : total(start) {}
    __device__ int operator()(int tile_total) {
        int tile_prefix = total;
        total += tile_total;
        return tile_prefix;
    }
};

// One block scans all n items, a tile of 128 x 4 at a time; the last tile is partial.
__global__ void scan_in_tiles(const int* in, int* out, int n) {
    const int tile_items = 128 * 4;
    typedef cub::BlockLoad<int, 128, 4, cub::BLOCK_LOAD_TRANSPOSE> BlockLoad;
    typedef cub::BlockScan<int, 128> BlockScan;
    typedef cub::BlockStore<int, 128, 4, cub::BLOCK_STORE_TRANSPOSE> BlockStore;
    __shared__ union {
        typename BlockLoad::TempStorage load;
        typename BlockScan::TempStorage scan;
        typename BlockStore::TempStorage store;
    } temp;

    RunningTotal prefix(0);
    for (int tile = 0; tile < n; tile += tile_items) {
        int valid = n - tile < tile_items ? n - tile : tile_items;
        int items[4];
        BlockLoad(temp.load).Load(in + tile, items, valid, 0);
        __syncthreads();  // the union's bytes pass from the load to the scan
        BlockScan(temp.scan).ExclusiveSum(items, items, prefix);
        __syncthreads();
        BlockStore(temp.store).Store(out + tile, items, valid);
        __syncthreads();  // and back to the next tile's load
    }
}

static int test_block_scan() {
    const int blocks = 2, n = blocks * 128;
    std::vector<int> in = make_ints(n, 3, -50, 50);
    int *d_in, *d_excl, *d_incl, *d_excl2, *d_total, *d_seeded;
    CHECK(to_device(&d_in, in));
    CHECK(cudaMalloc(&d_excl, n * sizeof(int)));
    CHECK(cudaMalloc(&d_incl, n * sizeof(int)));
    CHECK(cudaMalloc(&d_excl2, n * sizeof(int)));
    CHECK(cudaMalloc(&d_total, n * sizeof(int)));
    CHECK(cudaMalloc(&d_seeded, n * sizeof(int)));
    block_scans<<<blocks, 128>>>(d_in, d_excl, d_incl, d_excl2, d_total, d_seeded);
    CHECK(cudaGetLastError());
    std::vector<int> excl(n), incl(n), excl2(n), total(n), seeded(n);
    CHECK(to_host(excl, d_excl));
    CHECK(to_host(incl, d_incl));
    CHECK(to_host(excl2, d_excl2));
    CHECK(to_host(total, d_total));
    CHECK(to_host(seeded, d_seeded));
    std::vector<int> want_excl(n), want_incl(n), want_total(n), want_seeded(n);
    for (int b = 0; b < blocks; ++b) {
        int running = 0, running_max = 25;
        for (int t = 0; t < 128; ++t) {
            int i = b * 128 + t;
            want_excl[i] = running;
            want_seeded[i] = running_max;
            running += in[i];
            running_max = std::max(running_max, in[i]);
            want_incl[i] = running;
        }
        for (int t = 0; t < 128; ++t) want_total[b * 128 + t] = running;
    }
    expect_equal(excl, want_excl, "BlockScan<int, 128>::ExclusiveSum");
    expect_equal(incl, want_incl, "BlockScan<int, 128>::InclusiveSum");
    expect_equal(excl2, want_excl, "BlockScan<int, 128>::ExclusiveSum with a block aggregate");
    expect_equal(total, want_total, "BlockScan<int, 128>::ExclusiveSum gives every thread the block aggregate");
    expect_equal(seeded, want_seeded, "BlockScan<int, 128>::ExclusiveScan with an initial value and a max functor");

    // Four items per thread over two tiles of 512.
    const int n4 = blocks * 512;
    std::vector<int> in4 = make_ints(n4, 4, -50, 50);
    int *d_in4, *d_out4;
    CHECK(to_device(&d_in4, in4));
    CHECK(cudaMalloc(&d_out4, n4 * sizeof(int)));
    block_scan_items<<<blocks, 128>>>(d_in4, d_out4);
    CHECK(cudaGetLastError());
    std::vector<int> out4(n4), want_out4(n4);
    CHECK(to_host(out4, d_out4));
    for (int b = 0; b < blocks; ++b) {
        int running = 0;
        for (int i = b * 512; i < (b + 1) * 512; ++i) {
            want_out4[i] = running;
            running += in4[i];
        }
    }
    expect_equal(out4, want_out4, "BlockScan<int, 128>::ExclusiveSum over four items per thread");

    // 1000 items in tiles of 512, carried by the prefix callback: one scan of the whole array.
    const int n_tiles = 1000;
    std::vector<int> long_in = make_ints(n_tiles, 5, -50, 50);
    int *d_long_in, *d_long_out;
    CHECK(to_device(&d_long_in, long_in));
    CHECK(cudaMalloc(&d_long_out, n_tiles * sizeof(int)));
    scan_in_tiles<<<1, 128>>>(d_long_in, d_long_out, n_tiles);
    CHECK(cudaGetLastError());
    std::vector<int> long_out(n_tiles), want_long(n_tiles);
    CHECK(to_host(long_out, d_long_out));
    int running = 0;
    for (int i = 0; i < n_tiles; ++i) {
        want_long[i] = running;
        running += long_in[i];
    }
    expect_equal(long_out, want_long, "BlockScan with a prefix callback scans 1000 items in tiles of 512");

    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_excl));
    CHECK(cudaFree(d_incl));
    CHECK(cudaFree(d_excl2));
    CHECK(cudaFree(d_total));
    CHECK(cudaFree(d_seeded));
    CHECK(cudaFree(d_in4));
    CHECK(cudaFree(d_out4));
    CHECK(cudaFree(d_long_in));
    CHECK(cudaFree(d_long_out));
    return 0;
}

// ---- BlockLoad and BlockStore ----------------------------------------------------------------

// Loads a tile of 512 with one algorithm, records what each thread holds, adds 1 and stores it
// back with the matching store. The last tile is partial: its load is guarded and fills the
// missing items with -1, its store writes only the valid ones.
template <cub::BlockLoadAlgorithm LOAD, cub::BlockStoreAlgorithm STORE>
__global__ void load_add_store(const int* in, int* out, int* held, int n) {
    typedef cub::BlockLoad<int, 128, 4, LOAD> BlockLoad;
    typedef cub::BlockStore<int, 128, 4, STORE> BlockStore;
    __shared__ union {
        typename BlockLoad::TempStorage load;
        typename BlockStore::TempStorage store;
    } temp;
    int tile = blockIdx.x * 512;
    int valid = n - tile < 512 ? n - tile : 512;

    int items[4];
    if (valid == 512) BlockLoad(temp.load).Load(in + tile, items);
    else BlockLoad(temp.load).Load(in + tile, items, valid, -1);
    for (int k = 0; k < 4; ++k) {
        held[(blockIdx.x * 128 + threadIdx.x) * 4 + k] = items[k];
        items[k] += 1;
    }
    __syncthreads();  // the load's storage becomes the store's
    if (valid == 512) BlockStore(temp.store).Store(out + tile, items);
    else BlockStore(temp.store).Store(out + tile, items, valid);
}

// The free functions: each thread loads four consecutive items and stores them striped, which
// transposes each tile as a 128 x 4 matrix.
__global__ void blocked_to_striped(const int* in, int* out) {
    int tile = blockIdx.x * 512;
    int items[4];
    cub::LoadDirectBlocked(threadIdx.x, in + tile, items);
    cub::StoreDirectStriped<128>(threadIdx.x, out + tile, items);
}

template <cub::BlockLoadAlgorithm LOAD, cub::BlockStoreAlgorithm STORE>
static int check_load_store(const char* name, bool striped) {
    // Two tiles, the second with 488 of its 512 items; out has room for both and a sentinel.
    const int n = 1000, room = 1024, sentinel = 7777;
    std::vector<int> in = make_ints(n, 6, -100000, 100000);
    std::vector<int> out_init(room, sentinel);
    int *d_in, *d_out, *d_held;
    CHECK(to_device(&d_in, in));
    CHECK(to_device(&d_out, out_init));
    CHECK(cudaMalloc(&d_held, room * sizeof(int)));
    load_add_store<LOAD, STORE><<<2, 128>>>(d_in, d_out, d_held, n);
    CHECK(cudaGetLastError());
    std::vector<int> out(room), held(room), want_out(room), want_held(room);
    CHECK(to_host(out, d_out));
    CHECK(to_host(held, d_held));
    for (int i = 0; i < room; ++i) want_out[i] = i < n ? in[i] + 1 : sentinel;
    for (int b = 0; b < 2; ++b) {
        for (int t = 0; t < 128; ++t) {
            for (int k = 0; k < 4; ++k) {
                // Blocked: thread t holds items 4t..4t+3; striped: items t, t+128, t+256, t+384.
                int index = b * 512 + (striped ? k * 128 + t : t * 4 + k);
                want_held[(b * 128 + t) * 4 + k] = index < n ? in[index] : -1;
            }
        }
    }
    char what[160];
    std::snprintf(what, sizeof what, "%s: each thread holds its items, -1 past the end", name);
    expect_equal(held, want_held, what);
    std::snprintf(what, sizeof what, "%s: the store writes the valid items and nothing past them", name);
    expect_equal(out, want_out, what);
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_held));
    return 0;
}

static int test_load_store() {
    int err = 0;
    err |= check_load_store<cub::BLOCK_LOAD_DIRECT, cub::BLOCK_STORE_DIRECT>("BLOCK_LOAD_DIRECT", false);
    err |= check_load_store<cub::BLOCK_LOAD_STRIPED, cub::BLOCK_STORE_STRIPED>("BLOCK_LOAD_STRIPED", true);
    err |= check_load_store<cub::BLOCK_LOAD_TRANSPOSE, cub::BLOCK_STORE_TRANSPOSE>("BLOCK_LOAD_TRANSPOSE", false);
    err |= check_load_store<cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::BLOCK_STORE_WARP_TRANSPOSE>(
        "BLOCK_LOAD_WARP_TRANSPOSE", false);
    if (err) return 1;

    const int n = 1024;
    std::vector<int> in = make_ints(n, 7, 0, 1000000);
    int *d_in, *d_out;
    CHECK(to_device(&d_in, in));
    CHECK(cudaMalloc(&d_out, n * sizeof(int)));
    blocked_to_striped<<<2, 128>>>(d_in, d_out);
    CHECK(cudaGetLastError());
    std::vector<int> out(n), want(n);
    CHECK(to_host(out, d_out));
    for (int b = 0; b < 2; ++b)
        for (int t = 0; t < 128; ++t)
            for (int k = 0; k < 4; ++k) want[b * 512 + k * 128 + t] = in[b * 512 + t * 4 + k];
    expect_equal(out, want, "LoadDirectBlocked then StoreDirectStriped<128> transposes each tile");
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    return 0;
}

// ---- BlockRadixSort --------------------------------------------------------------------------

// Each block sorts its tile of 512; the sorted keys come back blocked (thread t holds ranks
// 4t..4t+3).
__global__ void sort_tiles(const int* in, int* out) {
    typedef cub::BlockRadixSort<int, 128, 4> BlockRadixSort;
    __shared__ typename BlockRadixSort::TempStorage temp;
    int first = blockIdx.x * 512 + threadIdx.x * 4;
    int keys[4];
    for (int k = 0; k < 4; ++k) keys[k] = in[first + k];
    BlockRadixSort(temp).Sort(keys);
    for (int k = 0; k < 4; ++k) out[first + k] = keys[k];
}

// Keys with their original positions as values, sorted up and then down.
__global__ void sort_pairs_both_ways(const unsigned* in, unsigned* up_keys, int* up_values,
                                     unsigned* down_keys, int* down_values) {
    typedef cub::BlockRadixSort<unsigned, 128, 4, int> BlockRadixSort;
    __shared__ typename BlockRadixSort::TempStorage temp;
    int first = blockIdx.x * 512 + threadIdx.x * 4;
    unsigned keys[4];
    int values[4];
    for (int k = 0; k < 4; ++k) {
        keys[k] = in[first + k];
        values[k] = first + k;
    }
    BlockRadixSort(temp).Sort(keys, values);
    for (int k = 0; k < 4; ++k) {
        up_keys[first + k] = keys[k];
        up_values[first + k] = values[k];
    }
    __syncthreads();
    for (int k = 0; k < 4; ++k) {
        keys[k] = in[first + k];
        values[k] = first + k;
    }
    BlockRadixSort(temp).SortDescending(keys, values);
    for (int k = 0; k < 4; ++k) {
        down_keys[first + k] = keys[k];
        down_values[first + k] = values[k];
    }
}

static int test_radix_sort() {
    const int blocks = 2, n = blocks * 512;
    std::vector<int> in = make_ints(n, 8, -100000, 100000);
    int *d_in, *d_out;
    CHECK(to_device(&d_in, in));
    CHECK(cudaMalloc(&d_out, n * sizeof(int)));
    sort_tiles<<<blocks, 128>>>(d_in, d_out);
    CHECK(cudaGetLastError());
    std::vector<int> out(n), want(in);
    CHECK(to_host(out, d_out));
    for (int b = 0; b < blocks; ++b) std::sort(want.begin() + b * 512, want.begin() + (b + 1) * 512);
    expect_equal(out, want, "BlockRadixSort<int, 128, 4>::Sort sorts each tile, negatives first");

    // Few distinct keys, so that equal keys must keep their order (the sort is stable).
    std::vector<int> small = make_ints(n, 9, 0, 40);
    std::vector<unsigned> keys(small.begin(), small.end());
    for (unsigned& k : keys) k = k * 100000000u;  // uses the high bits too
    unsigned *d_keys, *d_up_keys, *d_down_keys;
    int *d_up_values, *d_down_values;
    CHECK(to_device(&d_keys, keys));
    CHECK(cudaMalloc(&d_up_keys, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&d_down_keys, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&d_up_values, n * sizeof(int)));
    CHECK(cudaMalloc(&d_down_values, n * sizeof(int)));
    sort_pairs_both_ways<<<blocks, 128>>>(d_keys, d_up_keys, d_up_values, d_down_keys, d_down_values);
    CHECK(cudaGetLastError());
    std::vector<unsigned> up_keys(n), down_keys(n), want_up_keys(n), want_down_keys(n);
    std::vector<int> up_values(n), down_values(n), want_up_values(n), want_down_values(n);
    CHECK(to_host(up_keys, d_up_keys));
    CHECK(to_host(down_keys, d_down_keys));
    CHECK(to_host(up_values, d_up_values));
    CHECK(to_host(down_values, d_down_values));
    for (int b = 0; b < blocks; ++b) {
        std::vector<int> order(512);
        for (int i = 0; i < 512; ++i) order[i] = b * 512 + i;
        std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return keys[x] < keys[y]; });
        for (int i = 0; i < 512; ++i) {
            want_up_values[b * 512 + i] = order[i];
            want_up_keys[b * 512 + i] = keys[order[i]];
        }
        for (int i = 0; i < 512; ++i) order[i] = b * 512 + i;
        std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return keys[x] > keys[y]; });
        for (int i = 0; i < 512; ++i) {
            want_down_values[b * 512 + i] = order[i];
            want_down_keys[b * 512 + i] = keys[order[i]];
        }
    }
    expect_equal(up_keys, want_up_keys, "BlockRadixSort<unsigned, 128, 4, int>::Sort sorts the keys");
    expect_equal(up_values, want_up_values, "BlockRadixSort<unsigned, 128, 4, int>::Sort carries the values, stably");
    expect_equal(down_keys, want_down_keys, "BlockRadixSort<unsigned, 128, 4, int>::SortDescending sorts the keys down");
    expect_equal(down_values, want_down_values,
                 "BlockRadixSort<unsigned, 128, 4, int>::SortDescending carries the values, stably");

    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_keys));
    CHECK(cudaFree(d_up_keys));
    CHECK(cudaFree(d_down_keys));
    CHECK(cudaFree(d_up_values));
    CHECK(cudaFree(d_down_values));
    return 0;
}

int main() {
    int err = 0;
    err |= test_warps();
    err |= test_block_reduce();
    err |= test_block_scan();
    err |= test_load_store();
    err |= test_radix_sort();
    if (err || failures) {
        if (failures) std::printf("FAILED: %d check(s)\n", failures);
        return 1;
    }
    std::printf("PASS\n");
    return 0;
}
