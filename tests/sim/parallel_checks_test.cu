// Checked launches tried on every worker (sim/src/check/attempt.hpp): kept when the blocks share
// only inputs, run again one block at a time when they meet, and reporting the same either way.
#include <cstdio>
#include <string>
#include <vector>

#include <simt/simt.hpp>

#include <catch2/catch.hpp>

#include "../support/findings.hpp"
#include "../support/workers.hpp"
#include "shadow_peek.hpp"

using Catch::Matchers::Contains;
using test::findings_of;
using test::Workers;

namespace {

// Every block reads all of `a` and `b` (a row of each, as a matrix multiply does) and writes
// only its own outputs: nothing for the blocks to meet at.
__global__ void row_times_column(const float* a, const float* b, float* c, int n) {
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n || col >= n) return;
    float sum = 0;
    for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
    c[row * n + col] = sum;
}

// Every block adds into one counter: the blocks meet at it, and the atomics order nothing.
__global__ void count_blocks(int* counter) {
    if (threadIdx.x == 0) atomicAdd(counter, 1);
}

// Block 1 reads what block 0 writes, with nothing between them: a race between blocks.
constexpr unsigned race_write = __LINE__ + 3, race_read = __LINE__ + 4;
__global__ void read_the_block_before(int* data, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    data[i] = i;
    if (blockIdx.x > 0) out[i] = data[i - blockDim.x];
}

// Each thread reads x[0], then again after a barrier: the read that stays in the cell is the
// second one of the lowest block's thread 0, in the serial order.
constexpr unsigned second_read = __LINE__ + 5;
__global__ void everyone_reads_twice(const int* x, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int first = x[0];
    __syncthreads();
    out[i] = first + x[0];
}

// Each thread reads a row and a column of `m`, as a matrix multiply reads its two inputs: every
// element is read by the 2 x 8 blocks of its row and column of blocks, by several threads each.
__global__ void rows_and_columns(const int* m, int* out, int n) {
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    int sum = 0;
    for (int k = 0; k < n; ++k) sum += m[row * n + k] * m[k * n + col];
    __syncthreads();
    out[row * n + col] = sum + m[row * n + col];
}

// Block b writes x[b] and reads x[b + 1], which block b + 1 writes: in block order block b reads
// it before anything wrote it. An attempt that lets block b + 1 write first must be undone whole,
// or the run in order would find x[b + 1] written and miss the uninitialised read.
constexpr unsigned next_read = __LINE__ + 4;
__global__ void read_the_next_block(int* x, int* out) {
    if (threadIdx.x != 0) return;
    x[blockIdx.x] = blockIdx.x;
    out[blockIdx.x] = x[blockIdx.x + 1];
}

// Each block counts itself into pinned host memory, which a kernel reaches as it does device
// memory, here through a struct, and into one device counter, where the blocks meet.
struct Tally {
    int* per_block;
    int* counter;
};
__global__ void count_into_host_memory(Tally tally) {
    if (threadIdx.x != 0) return;
    tally.per_block[blockIdx.x] += 1;
    atomicAdd(tally.counter, 1);
}

// Each block sums its 64 elements in a __shared__ array: the blocks share nothing.
__global__ void sums_in_shared(const int* in, int* sums) {
    __shared__ int part[64];
    int t = threadIdx.x;
    part[t] = in[blockIdx.x * 64 + t];
    __syncthreads();
    for (int half = 32; half > 0; half /= 2) {
        if (t < half) part[t] += part[t + half];
        __syncthreads();
    }
    if (t == 0) sums[blockIdx.x] = part[0];
}

// Each thread reads and writes its own elements: a block's elements lie in granules no other
// block touches.
__global__ void add_one(const int* in, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] + 1;
}

// Each thread increments its own element; then the last block reads element 0, which block 0
// wrote, with nothing between them: a race, found after most blocks have run.
constexpr unsigned late_read = __LINE__ + 5, early_write = __LINE__ + 3;
__global__ void increment_then_read_the_first(int* x, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i] += 1;
    __syncthreads();
    if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0) out[0] = x[0];
}

__global__ void write_the_first(int* x) { x[0] = 1; }

// Each block sums its 64 inputs into one output of its own: neighbouring blocks write
// neighbouring elements, which share a granule of 32 unless the granules get smaller.
__global__ void sum_per_block(const int* in, int* sums) {
    __shared__ int part[64];
    int t = threadIdx.x;
    part[t] = in[blockIdx.x * 64 + t];
    __syncthreads();
    if (t == 0) {
        int sum = 0;
        for (int k = 0; k < 64; ++k) sum += part[k];
        sums[blockIdx.x] = sum;
    }
}

// Blocks of 16 x 16 threads, one element each: a block's rows are 16 elements wide.
__global__ void add_matrices(const float* a, const float* b, float* c, int n) {
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    c[row * n + col] = a[row * n + col] + b[row * n + col];
}

// Block 0 works a while, then reads x[n - 1], which the last block writes: in block order the
// read comes first, of an element nothing wrote. An attempt in which the last block wrote first
// must give its cell back as it was, or the run in order would find the element written.
constexpr unsigned slow_read = __LINE__ + 7;
__global__ void read_late_what_the_last_block_writes(int* x, float* out, int n) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        float v = 0;
        for (int k = 0; k < 3000000; ++k) v = v * 0.5f + 1.0f;
        out[0] = v;
        out[1] = float(x[n - 1]);
    }
    if (blockIdx.x == gridDim.x - 1) x[n - 1] = 7;
}

/// `fs` (a run on one worker) holds an uninitialised read at `line` by block 0.
void require_unwritten_read_by_block_0(const std::vector<test::Finding>& fs, unsigned line) {
    const auto* uninit = test::first_of(fs, "uninitialized-read");
    REQUIRE(uninit);
    CHECK(uninit->sites[0].line == line);
    CHECK(uninit->sites[0].block.x == 0);
}

// An array reached through a struct, which the launch's pointer arguments do not name: the
// attempt learns its size only when it copies it.
struct Reached {
    float* data;
};
__global__ void write_first_element(Reached r) {
    if (blockIdx.x == 0 && threadIdx.x == 0) r.data[0] = 1.0f;
}
// Every block reads the same element: tried owning, then with locks, which copy it whole.
__global__ void read_first_element(Reached r, float* out) {
    out[blockIdx.x * blockDim.x + threadIdx.x] = r.data[0];
}

std::vector<float> multiply_checked(const char* workers, int n) {
    Workers set(workers);
    std::vector<float> a(n * n), b(n * n);
    for (int i = 0; i < n * n; ++i) a[i] = float(i % 7), b[i] = float(i % 5);
    float *da, *db, *dc;
    cudaMalloc(&da, a.size() * sizeof(float));
    cudaMalloc(&db, b.size() * sizeof(float));
    cudaMalloc(&dc, a.size() * sizeof(float));
    cudaMemcpy(da, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(db, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice);
    dim3 block(8, 8), grid((n + 7) / 8, (n + 7) / 8);
    row_times_column<<<grid, block>>>(da, db, dc, n);
    std::vector<float> c(a.size());
    cudaMemcpy(c.data(), dc, c.size() * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    return c;
}

}  // namespace

TEST_CASE("A checked launch whose blocks share only inputs is kept from its run on every worker",
          "[racecheck][parallel]") {
    const auto before = simt::sim::checked_launches();
    std::vector<float> one, four;
    auto fs = findings_of([&] { four = multiply_checked("4", 40); });
    const auto after = simt::sim::checked_launches();
    CHECK(fs.empty());
    CHECK(after.tried_in_parallel == before.tried_in_parallel + 1);
    CHECK(after.kept == before.kept + 1);
    // Blocks share the inputs' granules: tried owning, then again with locks, which holds.
    CHECK(after.kept_owning == before.kept_owning);
    one = multiply_checked("1", 40);
    CHECK(simt::sim::checked_launches().tried_in_parallel ==
          after.tried_in_parallel);  // one worker: never tried
    CHECK(one == four);
}

TEST_CASE("Blocks that meet at an atomic counter run again one at a time, with the right count",
          "[racecheck][parallel]") {
    Workers set("4");
    int* counter;
    cudaMalloc(&counter, sizeof(int));
    cudaMemset(counter, 0, sizeof(int));
    const auto before = simt::sim::checked_launches();
    auto fs = findings_of([&] { count_blocks<<<64, 32>>>(counter); });
    const auto after = simt::sim::checked_launches();
    int count = 0;
    cudaMemcpy(&count, counter, sizeof count, cudaMemcpyDeviceToHost);
    cudaFree(counter);
    CHECK(fs.empty());
    CHECK(count == 64);  // the attempt's adds were undone: each block added once
    CHECK(after.tried_in_parallel == before.tried_in_parallel + 1);
    CHECK(after.kept == before.kept);
}

TEST_CASE("A launch statement whose attempt met is not tried on every worker again",
          "[racecheck][parallel]") {
    Workers set("4");
    int* counter;
    cudaMalloc(&counter, sizeof(int));
    cudaMemset(counter, 0, sizeof(int));
    const auto before = simt::sim::checked_launches();
    for (int i = 0; i < 3; ++i) count_blocks<<<16, 32>>>(counter);  // one statement, three launches
    cudaDeviceSynchronize();
    int count = 0;
    cudaMemcpy(&count, counter, sizeof count, cudaMemcpyDeviceToHost);
    cudaFree(counter);
    CHECK(count == 3 * 16);
    CHECK(simt::sim::checked_launches().tried_in_parallel == before.tried_in_parallel + 1);
}

TEST_CASE("A race between blocks found on every worker is reported as on one, at its lines",
          "[racecheck][parallel]") {
    auto run = [](const char* workers) {
        Workers set(workers);
        int *data, *out;
        cudaMalloc(&data, 64 * 32 * sizeof(int));
        cudaMalloc(&out, 64 * 32 * sizeof(int));
        auto fs = findings_of([&] { read_the_block_before<<<64, 32>>>(data, out); });
        cudaFree(data);
        cudaFree(out);
        return fs;
    };
    auto one = run("1"), eight = run("8");
    REQUIRE(one.size() == 1);
    CHECK(test::all_text(one) == test::all_text(eight));
    CHECK(test::lines_of(eight[0]) == std::vector<unsigned>{race_read, race_write});
    CHECK(eight[0].sites[0].block.x == 1);
    CHECK(eight[0].sites[1].block.x == 0);
}

TEST_CASE("Reads of one element by many blocks leave its shadow cell as the serial run does",
          "[racecheck][parallel]") {
    // What a later launch on another stream would name in a race report: the read the serial
    // run keeps first (r: the lowest block's latest ordered read) and the other (r2: the highest
    // block's latest), whatever order the blocks ran in.
    auto run = [&](const char* workers) {
        Workers set(workers);
        int *x, *out;
        cudaMalloc(&x, sizeof(int));
        cudaMalloc(&out, 64 * 32 * sizeof(int));
        cudaMemset(x, 0, sizeof(int));
        auto fs = findings_of([&] { everyone_reads_twice<<<64, 32>>>(x, out); });
        CHECK(fs.empty());
        auto kept = test::kept_reads(x);
        cudaFree(x);
        cudaFree(out);
        return kept;
    };
    const auto one = run("1");
    const auto tried = simt::sim::checked_launches().tried_in_parallel;
    const auto eight = run("8");
    CHECK(simt::sim::checked_launches().tried_in_parallel == tried + 1);
    REQUIRE(one);
    REQUIRE(eight);
    CHECK(one->r == test::ShadowRead{true, 0, 0, second_read});
    CHECK(one->r2 == test::ShadowRead{true, 1, 31, second_read});
    CHECK(eight->r == one->r);
    CHECK(eight->r2 == one->r2);
}

TEST_CASE("Every element many blocks read keeps the reads the serial run keeps, on eight workers",
          "[racecheck][parallel]") {
    // Blocks arrive at an element in any order, lower ones taking its first read over from higher
    // ones (check_cell_in_attempt): each run on eight workers must leave every cell as one does.
    constexpr int n = 64;
    auto run = [](const char* workers) {
        Workers set(workers);
        int *m, *out;
        cudaMalloc(&m, n * n * sizeof(int));
        cudaMalloc(&out, n * n * sizeof(int));
        std::vector<int> host(n * n);
        for (int i = 0; i < n * n; ++i) host[i] = i % 9;
        cudaMemcpy(m, host.data(), host.size() * sizeof(int), cudaMemcpyHostToDevice);
        auto fs =
            findings_of([&] { rows_and_columns<<<dim3(n / 8, n / 8), dim3(8, 8)>>>(m, out, n); });
        CHECK(fs.empty());
        std::vector<test::ShadowReads> kept;
        for (int i = 0; i < n * n; ++i)
            kept.push_back(test::kept_reads(m + i).value_or(test::ShadowReads{}));
        cudaFree(m);
        cudaFree(out);
        return kept;
    };
    const auto one = run("1");
    REQUIRE(one.size() == std::size_t(n * n));
    CHECK(one[0].r.any);
    CHECK(one[0].r2.any);
    for (int attempt = 0; attempt < 3; ++attempt) {
        const auto tried = simt::sim::checked_launches().tried_in_parallel;
        const auto eight = run("8");
        CHECK(simt::sim::checked_launches().tried_in_parallel == tried + 1);
        int differ = 0, aside = 0;
        for (int i = 0; i < n * n; ++i) {
            differ += !(eight[i] == one[i]);  // the write as well as the reads
            aside += eight[i].w.other == test::ShadowRead::Other::set_aside;
        }
        CHECK(differ == 0);
        CHECK(aside == 0);  // every read set aside in an attempt gave the cell its write back
    }
}

TEST_CASE("An undone attempt leaves no element written that the run in order finds unwritten",
          "[racecheck][initcheck][parallel]") {
    auto run = [](const char* workers) {
        Workers set(workers);
        int *x, *out;
        cudaMalloc(&x, 65 * sizeof(int));
        cudaMalloc(&out, 64 * sizeof(int));
        auto fs = findings_of([&] { read_the_next_block<<<64, 32>>>(x, out); });
        cudaFree(x);
        cudaFree(out);
        return fs;
    };
    const auto one = run("1");
    require_unwritten_read_by_block_0(one, next_read);
    const auto before = simt::sim::checked_launches();
    CHECK(test::all_text(run("8")) == test::all_text(one));
    const auto after = simt::sim::checked_launches();
    CHECK(after.tried_in_parallel == before.tried_in_parallel + 1);  // tried, met, undone
    CHECK(after.kept == before.kept);
}

TEST_CASE("A write to pinned host memory ends an attempt, and the run in order writes it once",
          "[racecheck][parallel]") {
    Workers set("4");
    Tally tally;
    REQUIRE(cudaMallocHost(&tally.per_block, 16 * sizeof(int)) == cudaSuccess);
    for (int b = 0; b < 16; ++b) tally.per_block[b] = 0;
    cudaMalloc(&tally.counter, sizeof(int));
    cudaMemset(tally.counter, 0, sizeof(int));
    const auto before = simt::sim::checked_launches();
    auto fs = findings_of([&] { count_into_host_memory<<<16, 32>>>(tally); });
    const auto after = simt::sim::checked_launches();
    CHECK(fs.empty());
    CHECK(after.tried_in_parallel == before.tried_in_parallel + 1);
    CHECK(after.kept == before.kept);
    for (int b = 0; b < 16; ++b) CHECK(tally.per_block[b] == 1);
    int count = 0;
    cudaMemcpy(&count, tally.counter, sizeof count, cudaMemcpyDeviceToHost);
    CHECK(count == 16);
    cudaFreeHost(tally.per_block);
    cudaFree(tally.counter);
}

TEST_CASE("A kernel with a __shared__ array is kept from its run on every worker",
          "[racecheck][parallel][shared]") {
    Workers set("4");
    std::vector<int> host(32 * 64);
    for (std::size_t i = 0; i < host.size(); ++i) host[i] = int(i % 9);
    int *in, *sums;
    cudaMalloc(&in, host.size() * sizeof(int));
    cudaMalloc(&sums, 32 * sizeof(int));
    cudaMemcpy(in, host.data(), host.size() * sizeof(int), cudaMemcpyHostToDevice);
    const auto before = simt::sim::checked_launches();
    auto fs = findings_of([&] { sums_in_shared<<<32, 64>>>(in, sums); });
    const auto after = simt::sim::checked_launches();
    CHECK(fs.empty());
    // Its first use on each worker makes the array's thread-local record, which is no write
    // the attempt must undo.
    CHECK(after.tried_in_parallel == before.tried_in_parallel + 1);
    CHECK(after.kept == before.kept + 1);
    std::vector<int> back(32);
    cudaMemcpy(back.data(), sums, back.size() * sizeof(int), cudaMemcpyDeviceToHost);
    for (int blk = 0; blk < 32; ++blk) {
        int want = 0;
        for (int t = 0; t < 64; ++t) want += host[blk * 64 + t];
        CHECK(back[blk] == want);
    }
    cudaFree(in);
    cudaFree(sums);
}

TEST_CASE(
    "Blocks that each touch only their own elements are kept without locks, each cell as in order",
    "[racecheck][initcheck][parallel]") {
    constexpr int blocks = 64, threads = 64, n = blocks * threads;
    struct Run {
        std::vector<int> out;
        std::vector<test::ShadowReads> cells;  // in's, then out's
    };
    auto run = [](const char* workers) {
        Workers set(workers);
        std::vector<int> host(n);
        for (int i = 0; i < n; ++i) host[i] = 3 * i;
        int *in, *out;
        cudaMalloc(&in, n * sizeof(int));
        cudaMalloc(&out, n * sizeof(int));
        cudaMemcpy(in, host.data(), n * sizeof(int), cudaMemcpyHostToDevice);
        // Twice: the second launch finds the first one's stamps in every cell, which the
        // attempt copies with the elements.
        auto fs = findings_of([&] {
            for (int twice = 0; twice < 2; ++twice) add_one<<<blocks, threads>>>(in, out);
        });
        CHECK(fs.empty());
        Run r{std::vector<int>(n), {}};
        cudaMemcpy(r.out.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost);
        for (int* array : {in, out})
            for (int i = 0; i < n; ++i)
                r.cells.push_back(test::kept_reads(array + i).value_or(test::ShadowReads{}));
        cudaFree(in);
        cudaFree(out);
        return r;
    };
    const Run one = run("1");
    const auto before = simt::sim::checked_launches();
    const Run eight = run("8");
    const auto after = simt::sim::checked_launches();
    CHECK(after.tried_in_parallel == before.tried_in_parallel + 2);
    CHECK(after.kept_owning == before.kept_owning + 2);
    for (int i = 0; i < n; ++i) REQUIRE(eight.out[i] == 3 * i + 1);
    REQUIRE(one.cells.size() == std::size_t(2 * n));
    CHECK(one.cells[0].r.any);  // in[0]: read by block 0's thread 0
    CHECK(one.cells[n].w.any);  // out[0]: written by it
    int differ = 0;
    for (std::size_t i = 0; i < one.cells.size(); ++i) differ += !(eight.cells[i] == one.cells[i]);
    CHECK(differ == 0);
}

TEST_CASE(
    "An attempt undone after most blocks ran gives back every element, and reports as in order",
    "[racecheck][parallel]") {
    constexpr int blocks = 64, threads = 64, n = blocks * threads;
    auto run = [](const char* workers) {
        Workers set(workers);
        std::vector<int> host(n);
        for (int i = 0; i < n; ++i) host[i] = i;
        int *x, *out;
        cudaMalloc(&x, n * sizeof(int));
        cudaMalloc(&out, sizeof(int));
        cudaMemcpy(x, host.data(), n * sizeof(int), cudaMemcpyHostToDevice);
        cudaMemset(out, 0, sizeof(int));
        // add_one first, kept: the attempt that is undone then copies the cells it stamped.
        auto fs = findings_of([&] {
            add_one<<<blocks, threads>>>(x, x);
            increment_then_read_the_first<<<blocks, threads>>>(x, out);
        });
        cudaMemcpy(host.data(), x, n * sizeof(int), cudaMemcpyDeviceToHost);
        std::vector<test::ShadowReads> cells;
        for (int i = 0; i < n; ++i)
            cells.push_back(test::kept_reads(x + i).value_or(test::ShadowReads{}));
        cudaFree(x);
        cudaFree(out);
        return std::tuple{fs, host, cells};
    };
    const auto [one, one_x, one_cells] = run("1");
    REQUIRE(one.size() == 1);
    CHECK(test::lines_of(one[0]) == std::vector<unsigned>{late_read, early_write});
    const auto before = simt::sim::checked_launches();
    const auto [eight, eight_x, eight_cells] = run("8");
    const auto after = simt::sim::checked_launches();
    CHECK(after.tried_in_parallel == before.tried_in_parallel + 2);
    CHECK(after.kept == before.kept + 1);  // add_one's; the other met and was undone
    CHECK(test::all_text(eight) == test::all_text(one));
    int wrong = 0, differ = 0;
    for (int i = 0; i < n; ++i) {
        wrong += eight_x[i] != i + 2;  // add_one's, and one increment: the run in order's
        differ += !(eight_cells[i] == one_cells[i]);
    }
    CHECK(wrong == 0);
    CHECK(differ == 0);
}

TEST_CASE("An undone attempt gives back the cell of an element a later block wrote first",
          "[racecheck][initcheck][parallel]") {
    constexpr int n = 4096;
    auto run = [](const char* workers) {
        Workers set(workers);
        int* x;
        float* out;
        cudaMalloc(&x, n * sizeof(int));
        cudaMalloc(&out, 2 * sizeof(float));
        auto fs = findings_of([&] {
            write_the_first<<<1, 1>>>(x);  // x now has cells, which the attempt copies
            read_late_what_the_last_block_writes<<<64, 32>>>(x, out, n);
        });
        cudaFree(x);
        cudaFree(out);
        return fs;
    };
    const auto one = run("1");
    require_unwritten_read_by_block_0(one, slow_read);
    for (int again = 0; again < 3; ++again) CHECK(test::all_text(run("8")) == test::all_text(one));
}

TEST_CASE("Blocks that write neighbouring elements are kept without locks in smaller granules",
          "[racecheck][parallel]") {
    Workers set("4");
    constexpr int blocks = 128;
    std::vector<int> host(blocks * 64);
    for (std::size_t i = 0; i < host.size(); ++i) host[i] = int(i % 11);
    int *in, *sums;
    cudaMalloc(&in, host.size() * sizeof(int));
    cudaMalloc(&sums,
               host.size() * sizeof(int));  // more than the blocks write, as a reused buffer is
    cudaMemcpy(in, host.data(), host.size() * sizeof(int), cudaMemcpyHostToDevice);
    const auto before = simt::sim::checked_launches();
    // Three launches from one statement: the first learns that `sums` needs one-element granules
    // (ending an attempt there), the later ones start with them.
    auto fs = findings_of([&] {
        for (int i = 0; i < 3; ++i) sum_per_block<<<blocks, 64>>>(in, sums);
    });
    const auto after = simt::sim::checked_launches();
    CHECK(fs.empty());
    CHECK(after.tried_in_parallel == before.tried_in_parallel + 3);
    CHECK(after.kept_owning == before.kept_owning + 3);
    std::vector<int> back(blocks);
    cudaMemcpy(back.data(), sums, back.size() * sizeof(int), cudaMemcpyDeviceToHost);
    for (int blk = 0; blk < blocks; ++blk) {
        int want = 0;
        for (int t = 0; t < 64; ++t) want += host[blk * 64 + t];
        CHECK(back[blk] == want);
    }
    cudaFree(in);
    cudaFree(sums);
}

TEST_CASE("A matrix sum in blocks of 16 x 16 threads is kept without locks",
          "[racecheck][parallel]") {
    Workers set("4");
    constexpr int n = 128;
    std::vector<float> a(n * n), b(n * n);
    for (int i = 0; i < n * n; ++i) a[i] = float(i % 13), b[i] = float(i % 7);
    float *da, *db, *dc;
    for (float** p : {&da, &db, &dc}) cudaMalloc(p, n * n * sizeof(float));
    cudaMemcpy(da, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(db, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice);
    const auto before = simt::sim::checked_launches();
    auto fs =
        findings_of([&] { add_matrices<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(da, db, dc, n); });
    const auto after = simt::sim::checked_launches();
    CHECK(fs.empty());
    CHECK(after.kept_owning == before.kept_owning + 1);
    std::vector<float> c(n * n);
    cudaMemcpy(c.data(), dc, c.size() * sizeof(float), cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int i = 0; i < n * n; ++i) wrong += c[i] != a[i] + b[i];
    CHECK(wrong == 0);
    for (float* p : {da, db, dc}) cudaFree(p);
}

TEST_CASE("An attempt that would copy more than its room runs one block at a time instead",
          "[racecheck][parallel]") {
    Workers set("4");
    // 64 Mi floats: 256 MiB of data and 1 GiB of cells, past the 1 GiB the copies may take.
    constexpr std::size_t n = std::size_t(64) << 20;
    Reached big;
    REQUIRE(cudaMalloc(&big.data, n * sizeof(float)) == cudaSuccess);
    float* out;
    cudaMalloc(&out, 8 * 32 * sizeof(float));
    const auto before = simt::sim::checked_launches();
    auto fs = findings_of([&] {
        write_first_element<<<1, 32>>>(big);  // its cells exist now: a copy would take them all
        read_first_element<<<8, 32>>>(big, out);
    });
    const auto after = simt::sim::checked_launches();
    CHECK(fs.empty());
    CHECK(after.tried_in_parallel == before.tried_in_parallel + 1);
    CHECK(after.kept == before.kept);
    std::vector<float> back(8 * 32);
    cudaMemcpy(back.data(), out, back.size() * sizeof(float), cudaMemcpyDeviceToHost);
    for (float v : back) CHECK(v == 1.0f);
    cudaFree(big.data);
    cudaFree(out);
}
