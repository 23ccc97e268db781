// Kernels with a bug the checkers must name, at the right line, with the right threads.
#include <algorithm>

#include <simt/simt.hpp>

#include <catch2/catch.hpp>

#include "../support/findings.hpp"

using Catch::Matchers::Contains;
using test::findings_of;
using test::first_of;
using test::lines_of;

namespace {

// --- Shared memory ------------------------------------------------------------------------------

constexpr unsigned waw_line = __LINE__ + 3;
__global__ void shared_waw(simt::span<int> out) {
    __shared__ simt::shared<int[1]> last;
    last[0] = threadIdx.x;  // every thread writes the same element
    __syncthreads();
    if (threadIdx.x == 0) out[0] = last[0];
}

constexpr unsigned raw_write = __LINE__ + 3, raw_read = __LINE__ + 4;
__global__ void shared_raw_hidden(simt::span<int> out) {
    __shared__ simt::shared<int[32]> s;
    if (threadIdx.x == 0) s[0] = 42;           // thread 0 runs first in order: the value is there,
    if (threadIdx.x == 31) out[0] = s[0];      // but nothing orders the read after the write
}

constexpr unsigned war_read = __LINE__ + 5, war_write = __LINE__ + 6;
__global__ void shared_war(simt::span<int> out) {
    __shared__ simt::shared<int[64]> s;
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    int right = s[(threadIdx.x + 1) % 64];
    s[threadIdx.x] = right * 2;  // thread t overwrites the element thread t-1 has just read
    out[threadIdx.x] = right;
}

// A transpose tile read back before any barrier: a race, and one 2-D element named as such.
__global__ void tile_without_barrier(simt::span<int> out) {
    __shared__ simt::shared<int[4][8]> tile;
    tile[threadIdx.y][threadIdx.x] = threadIdx.x;
    out[threadIdx.y * 8 + threadIdx.x] = tile[threadIdx.x % 4][threadIdx.y + 1];
}

constexpr unsigned reduce_line = __LINE__ + 8;
__global__ void reduction_missing_barrier(simt::span<const int> in, simt::span<int> out) {
    __shared__ simt::shared<int[128]> s;
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * 128 + t];
    __syncthreads();
    for (unsigned stride = 64; stride > 0; stride /= 2) {
        if (t < stride)
            s[t] += s[t + stride];
        // __syncthreads() forgotten here
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

constexpr unsigned lanes_write = __LINE__ + 3, lanes_read = __LINE__ + 4;
__global__ void lanes_without_syncwarp(simt::span<int> out) {
    __shared__ simt::shared<int[32]> s;
    s[threadIdx.x] = threadIdx.x * 10;
    int neighbour = s[threadIdx.x ^ 1];  // the partner lane may not have written yet
    out[threadIdx.x] = neighbour;
}

// --- Global memory ------------------------------------------------------------------------------

constexpr unsigned nb_write = __LINE__ + 3, nb_read = __LINE__ + 4;
__global__ void global_neighbours(simt::span<int> a, simt::span<int> out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = i;
    out[i] = i > 0 ? a[i - 1] : 0;  // written by another thread, no barrier in between
}

constexpr unsigned ib_write = __LINE__ + 2, ib_read = __LINE__ + 3;
__global__ void read_other_block(simt::span<int> data, simt::span<int> out) {
    if (blockIdx.x == 0 && threadIdx.x == 0) data[0] = 7;
    if (blockIdx.x == 1 && threadIdx.x == 0) out[0] = data[0];  // blocks are never ordered
}

constexpr unsigned counter_line = __LINE__ + 2;
__global__ void racy_counter(simt::ptr<int> counter) {
    counter[0] += 1;
}

constexpr unsigned mix_atomic = __LINE__ + 3, mix_read = __LINE__ + 4;
__global__ void atomic_then_plain_read(simt::ptr<int> total, simt::span<int> seen) {
    unsigned t = threadIdx.x;
    atomicAdd(&total[0], 1);
    seen[t] = total[0];  // other threads' atomics are not ordered before this read
}

__global__ void write_all(simt::span<int> a, int v) { a[threadIdx.x] = v; }
__global__ void read_all(simt::span<const int> a, simt::span<int> out) { out[threadIdx.x] = a[threadIdx.x]; }

// --- Init and sync ------------------------------------------------------------------------------

constexpr unsigned uninit_global = __LINE__ + 2;
__global__ void read_uninitialised(simt::span<const float> in, simt::span<float> out) {
    out[threadIdx.x] = in[threadIdx.x] * 2;
}

constexpr unsigned uninit_shared = __LINE__ + 5;
__global__ void shared_read_before_write(simt::span<int> out) {
    __shared__ simt::shared<int[64]> s;
    if (threadIdx.x < 32) s[threadIdx.x] = 1;  // only half of the array is written
    __syncthreads();
    out[blockIdx.x * 64 + threadIdx.x] = s[threadIdx.x];
}

constexpr unsigned hist_uninit = __LINE__ + 2;
__global__ void histogram_unzeroed(simt::span<const int> in, simt::span<int> bins) {
    atomicAdd(&bins[in[threadIdx.x] % 4], 1);
}

constexpr unsigned cond_barrier = __LINE__ + 3;
__global__ void barrier_under_thread_condition(simt::span<int> out) {
    if (threadIdx.x < 16) {
        __syncthreads();
        out[threadIdx.x] = 1;
    }
}

constexpr unsigned half_a = __LINE__ + 2, half_b = __LINE__ + 3;
__global__ void halves_at_different_barriers() {
    if (threadIdx.x < 16) __syncthreads();
    else __syncthreads();
}

constexpr unsigned exit_barrier = __LINE__ + 6;
__global__ void guard_returns_before_barrier(simt::span<const int> in, simt::span<int> out) {
    __shared__ simt::shared<int[64]> s;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= static_cast<int>(in.size())) return;
    s[threadIdx.x] = in[i];
    __syncthreads();
    out[i] = s[threadIdx.x];
}

}  // namespace

TEST_CASE("Every thread writing one shared element is a write-after-write race", "[racecheck][shared]") {
    auto out = simt::device_array<int>(1);
    auto fs = findings_of([&] { simt::launch(shared_waw, 1, 64)(out); });
    INFO(test::all_text(fs));
    REQUIRE(fs.size() == 1);
    CHECK(fs[0].kind == simt::sim::FindingKind::data_race);
    CHECK(fs[0].hazard == "WAW");
    CHECK(fs[0].space == "shared");
    CHECK(fs[0].array == "last");
    CHECK(lines_of(fs[0]) == std::vector<unsigned>{waw_line, waw_line});
    CHECK_THAT(fs[0].text, Contains("write by thread (1,0,0) block (0,0,0)") &&
                               Contains("write by thread (0,0,0) block (0,0,0)"));
}

TEST_CASE("A read the in-order schedule happens to order after its write is still a race", "[racecheck][shared]") {
    auto out = simt::device_array<int>(1);
    auto fs = findings_of([&] { simt::launch(shared_raw_hidden, 1, 32)(out); });
    INFO(test::all_text(fs));
    REQUIRE(fs.size() == 1);
    CHECK(fs[0].hazard == "RAW");
    CHECK(lines_of(fs[0]) == std::vector<unsigned>{raw_read, raw_write});
    CHECK(fs[0].sites[0].thread.x == 31);
    CHECK(fs[0].sites[1].thread.x == 0);
    CHECK(out.copy_to_host()[0] == 42);  // the value was right: the report does not depend on it
}

TEST_CASE("Overwriting a shared element a neighbour still reads is a write-after-read race", "[racecheck][shared]") {
    auto out = simt::device_array<int>(64);
    auto fs = findings_of([&] { simt::launch(shared_war, 1, 64)(out); });
    INFO(test::all_text(fs));
    REQUIRE(fs.size() == 1);
    CHECK(fs[0].hazard == "WAR");
    CHECK(lines_of(fs[0]) == std::vector<unsigned>{war_write, war_read});
}

TEST_CASE("A race on a 2-D shared array names the element by row and column", "[racecheck][shared]") {
    auto out = simt::device_array<int>(32);
    auto fs = findings_of([&] { simt::launch(tile_without_barrier, 1, dim3(8, 4))(out); });
    INFO(test::all_text(fs));
    const auto* race = first_of(fs, "data-race");
    REQUIRE(race != nullptr);
    CHECK(race->array == "tile");
    CHECK(race->extent == "(4, 8)");
    // Thread (0,0) reads tile[0][1] before thread (1,0) writes it.
    CHECK(race->index == "(0, 1)");
    CHECK_THAT(race->text, Contains("'tile'[(0, 1)] (int, 4x8 elements") &&
                               Contains("write by thread (1,0,0)") &&
                               Contains("read by thread (0,0,0)"));
    const auto* uninit = first_of(fs, "uninitialized-read");
    REQUIRE(uninit != nullptr);
    CHECK(uninit->index == "(0, 1)");
}

TEST_CASE("A tree reduction without the barrier in its loop is reported at the update", "[racecheck][shared]") {
    auto in = simt::to_device(std::vector<int>(256, 1));
    auto out = simt::device_array<int>(2);
    auto fs = findings_of([&] { simt::launch(reduction_missing_barrier, 2, 128)(in, out); });
    INFO(test::all_text(fs));
    const auto* race = first_of(fs, "data-race");
    REQUIRE(race != nullptr);
    CHECK(race->space == "shared");
    CHECK(lines_of(*race) == std::vector<unsigned>{reduce_line, reduce_line});
    CHECK(race->sites[0].block.x == 0);  // reported for the first block, once
    CHECK(fs.size() == 1);
}

TEST_CASE("Lanes exchanging through shared memory without __syncwarp are flagged", "[racecheck][warp]") {
    auto out = simt::device_array<int>(32);
    auto fs = findings_of([&] { simt::launch(lanes_without_syncwarp, 1, 32)(out); });
    INFO(test::all_text(fs));
    const auto* race = first_of(fs, "data-race");
    REQUIRE(race != nullptr);
    CHECK(race->hazard == "WAR");  // lane 0 read lane 1's slot before lane 1 wrote it
    CHECK(lines_of(*race) == std::vector<unsigned>{lanes_write, lanes_read});
    const auto* uninit = first_of(fs, "uninitialized-read");
    REQUIRE(uninit != nullptr);
    CHECK(uninit->sites[0].line == lanes_read);
}

TEST_CASE("Reading a global element a neighbour thread wrote, without a barrier, is a race", "[racecheck][global]") {
    auto a = simt::device_array<int>(64);
    auto out = simt::device_array<int>(64);
    auto fs = findings_of([&] { simt::launch(global_neighbours, 1, 64)(a, out); });
    INFO(test::all_text(fs));
    REQUIRE(fs.size() == 1);
    CHECK(fs[0].space == "global");
    CHECK(fs[0].array == "a");
    CHECK(fs[0].index == "0");
    CHECK(lines_of(fs[0]) == std::vector<unsigned>{nb_read, nb_write});
}

TEST_CASE("A block reading what another block of the same launch wrote is a race", "[racecheck][global]") {
    auto data = simt::to_device(std::vector<int>{0});
    auto out = simt::device_array<int>(1);
    auto fs = findings_of([&] { simt::launch(read_other_block, 2, 32)(data, out); });
    INFO(test::all_text(fs));
    REQUIRE(fs.size() == 1);
    CHECK(lines_of(fs[0]) == std::vector<unsigned>{ib_read, ib_write});
    CHECK(fs[0].sites[0].block.x == 1);
    CHECK(fs[0].sites[1].block.x == 0);
    CHECK_THAT(fs[0].text, Contains("blocks of one launch are never ordered"));
}

TEST_CASE("The non-atomic counter is a race with both threads and the usual fix", "[racecheck][global]") {
    auto counter = simt::to_device(std::vector<int>{0});
    auto fs = findings_of([&] { simt::launch(racy_counter, 4, 256)(counter); });
    INFO(test::all_text(fs));
    REQUIRE(fs.size() == 1);
    CHECK(fs[0].kind == simt::sim::FindingKind::data_race);
    CHECK(fs[0].array == "counter");
    CHECK(lines_of(fs[0]) == std::vector<unsigned>{counter_line, counter_line});
    CHECK_THAT(fs[0].text, Contains("thread (1,0,0) block (0,0,0)") &&
                               Contains("thread (0,0,0) block (0,0,0)") && Contains("atomicAdd"));
}

TEST_CASE("A plain read of a word other threads update atomically is a race", "[racecheck][atomics]") {
    auto total = simt::to_device(std::vector<int>{0});
    auto seen = simt::device_array<int>(64);
    auto fs = findings_of([&] { simt::launch(atomic_then_plain_read, 1, 64)(total, seen); });
    INFO(test::all_text(fs));
    REQUIRE(fs.size() == 1);
    // Thread 0 adds and reads first; thread 1's atomic then overwrites what thread 0 read.
    CHECK(fs[0].hazard == "WAR");
    CHECK(lines_of(fs[0]) == std::vector<unsigned>{mix_atomic, mix_read});
    CHECK(fs[0].sites[0].access == "atomic");
}

TEST_CASE("Kernels on two streams that nothing orders race; an event orders them", "[racecheck][streams]") {
    simt::Stream s1, s2;
    auto a = simt::to_device(std::vector<int>(32, 0));
    auto out = simt::device_array<int>(32);
    // Checked launches that nothing orders run in the order they were queued, whichever stream's
    // thread gets there first: the write, then the read, every time.
    for (int run = 0; run < 20; ++run) {
        auto racy = findings_of([&] {
            simt::launch(write_all, 1, 32, {.stream = &s1})(a, 5);
            simt::launch(read_all, 1, 32, {.stream = &s2})(a, out);
        });
        INFO("run " << run << "\n" << test::all_text(racy));
        REQUIRE(racy.size() == 1);
        CHECK(racy[0].hazard == "RAW");
        CHECK_THAT(racy[0].text, Contains("streams that nothing orders"));
        CHECK(out.copy_to_host()[31] == 5);
    }

    auto ordered = findings_of([&] {
        simt::Event done;
        simt::launch(write_all, 1, 32, {.stream = &s1})(a, 6);
        done.record(s1);
        s2.wait(done);
        simt::launch(read_all, 1, 32, {.stream = &s2})(a, out);
    });
    INFO(test::all_text(ordered));
    CHECK(ordered.empty());
    CHECK(out.copy_to_host()[31] == 6);
}

TEST_CASE("Reading device_array memory nothing wrote is an uninitialised read", "[initcheck]") {
    auto in = simt::device_array<float>(32);
    auto out = simt::device_array<float>(32);
    auto fs = findings_of([&] { simt::launch(read_uninitialised, 1, 32)(in, out); });
    INFO(test::all_text(fs));
    REQUIRE(fs.size() == 1);
    CHECK(fs[0].kind == simt::sim::FindingKind::uninitialized_read);
    CHECK(fs[0].array == "in");
    CHECK(fs[0].sites[0].line == uninit_global);
    auto again = findings_of([&] {
        in.copy_from_host(std::vector<float>(32, 1.0f));
        simt::launch(read_uninitialised, 1, 32)(in, out);
    });
    CHECK(again.empty());
}

TEST_CASE("Reading shared memory no thread of the block wrote is an uninitialised read", "[initcheck][shared]") {
    auto out = simt::device_array<int>(128);
    auto fs = findings_of([&] { simt::launch(shared_read_before_write, 2, 64)(out); });
    INFO(test::all_text(fs));
    REQUIRE(fs.size() == 1);
    CHECK(fs[0].kind == simt::sim::FindingKind::uninitialized_read);
    CHECK(fs[0].space == "shared");
    CHECK(fs[0].index == "32");
    CHECK(fs[0].sites[0].line == uninit_shared);
}

TEST_CASE("Atomics on histogram bins nobody zeroed are uninitialised reads", "[initcheck][atomics]") {
    auto in = simt::to_device(std::vector<int>(32, 3));
    auto bins = simt::device_array<int>(4);
    auto fs = findings_of([&] { simt::launch(histogram_unzeroed, 1, 32)(in, bins); });
    INFO(test::all_text(fs));
    REQUIRE(fs.size() == 1);
    CHECK(fs[0].kind == simt::sim::FindingKind::uninitialized_read);
    CHECK(fs[0].sites[0].access == "atomic");
    CHECK(fs[0].sites[0].line == hist_uninit);
}

TEST_CASE("A barrier under a thread-dependent condition is reported with the threads that skip it", "[synccheck]") {
    auto out = simt::device_array<int>(32);
    auto fs = findings_of([&] { simt::launch(barrier_under_thread_condition, 1, 32)(out); });
    INFO(test::all_text(fs));
    REQUIRE(fs.size() == 1);
    CHECK(fs[0].kind == simt::sim::FindingKind::barrier_exit);
    CHECK(fs[0].sites[0].line == cond_barrier);
    CHECK_THAT(fs[0].text, Contains("16 threads of block (0,0,0)") && Contains("(16,0,0)..(31,0,0)"));
}

TEST_CASE("Two halves of a block at different barriers are a divergence finding and a KernelError", "[synccheck]") {
    simt::sim::clear_findings();
    simt::launch(halves_at_different_barriers, 1, 32)();
    CHECK_THROWS_AS(simt::synchronize(), simt::KernelError);
    auto fs = simt::sim::findings();
    INFO(test::all_text(fs));
    REQUIRE(fs.size() == 1);
    CHECK(fs[0].kind == simt::sim::FindingKind::barrier_divergence);
    CHECK_THAT(fs[0].text, Contains(":" + std::to_string(half_a)) && Contains(":" + std::to_string(half_b)));
}

TEST_CASE("Returning early before a barrier is reported for the block that does it", "[synccheck]") {
    auto in = simt::to_device(std::vector<int>(100, 2));
    auto out = simt::device_array<int>(100);
    auto fs = findings_of([&] { simt::launch(guard_returns_before_barrier, 2, 64)(in, out); });
    INFO(test::all_text(fs));
    REQUIRE(fs.size() == 1);
    CHECK(fs[0].kind == simt::sim::FindingKind::barrier_exit);
    CHECK(fs[0].sites[0].block.x == 1);
    CHECK(fs[0].sites[0].line == exit_barrier);
    CHECK_THAT(fs[0].text, Contains("28 threads") && Contains("(36,0,0)..(63,0,0)"));
}

TEST_CASE("Race reports are the same with one worker and with two", "[racecheck][determinism]") {
    auto run = [](const char* workers) {
        simt::sim::Config saved = simt::sim::config();
        simt::sim::apply_setting(simt::sim::config(), "SIMT_WORKERS", workers);
        auto counter = simt::to_device(std::vector<int>{0});
        auto data = simt::to_device(std::vector<int>{0});
        auto out = simt::device_array<int>(1);
        auto fs = findings_of([&] {
            simt::launch(racy_counter, 64, 64)(counter);
            simt::launch(read_other_block, 64, 32)(data, out);
        });
        simt::sim::config() = saved;
        return test::all_text(fs);
    };
    std::string one = run("1"), two = run("2");
    CHECK(one == two);
    CHECK_THAT(one, Contains("data race"));
}

TEST_CASE("With SIMT_CHECK=mem a race is not looked for", "[racecheck][config]") {
    simt::sim::Config saved = simt::sim::config();
    simt::sim::apply_setting(simt::sim::config(), "SIMT_CHECK", "mem");
    auto counter = simt::to_device(std::vector<int>{0});
    auto fs = findings_of([&] { simt::launch(racy_counter, 1, 64)(counter); });
    simt::sim::config() = saved;
    CHECK(fs.empty());
    CHECK(counter.copy_to_host()[0] == 64);
}

// --- What a learner reads (issue 12) ------------------------------------------------------------

namespace {

constexpr unsigned miss_write = __LINE__ + 3, miss_atomic = __LINE__ + 4;
__global__ void plain_write_then_atomics(simt::span<int> out) {
    __shared__ simt::shared<int[1]> local;
    if (threadIdx.x == 0) local[0] = 0;
    atomicAdd(&local[0], 1);  // no barrier: the other threads' atomics race with the write
    __syncthreads();
    if (threadIdx.x == 0) out[0] = local[0];
}

// Lesson 07, exercise 3 with its second barrier left out.
constexpr unsigned early_add = __LINE__ + 5, early_read = __LINE__ + 6;
__global__ void block_count_read_too_early(simt::span<int> counter) {
    __shared__ simt::shared<int[1]> local;
    if (threadIdx.x == 0) local[0] = 0;
    __syncthreads();
    atomicAdd(&local[0], 1);
    if (threadIdx.x == 0) atomicAdd(&counter[0], local[0]);  // the other adds may not be done
}

__global__ void racy_counter_spelled_out(simt::ptr<int> counter) {
    counter[0] = counter[0] + 1;
}

constexpr unsigned loop_write = __LINE__ + 5, loop_barrier = __LINE__ + 6;
__global__ void barrier_only_between_the_lines(simt::span<int> out) {
    __shared__ simt::shared<int[64]> s;
    int sum = 0;
    for (int k = 0; k < 2; ++k) {
        s[threadIdx.x] = k + static_cast<int>(threadIdx.x);
        __syncthreads();
        sum += s[(threadIdx.x + 1) % 64];
    }
    out[threadIdx.x] = sum;
}

// Straight-line code that reuses its tile after one barrier: thread 63 writes its element (on the
// later line) before thread 64 reads it (on the earlier line). No loop: what is missing is a
// barrier between the two lines.
constexpr unsigned reuse_read = __LINE__ + 5, reuse_write = __LINE__ + 6;
__global__ void reuse_after_one_barrier(simt::span<int> out) {
    __shared__ simt::shared<int[128]> s;
    s[threadIdx.x] = 1;
    __syncthreads();
    int v = s[127 - threadIdx.x];
    s[threadIdx.x] = v * 2;
    out[threadIdx.x] = v;
}

__global__ void write_first(simt::ptr<int> a) { a[0] = 1; }  // a ptr: the array's own bounds

__global__ void dynamic_shared_past_end(simt::span<int> out) {
    auto s = simt::dynamic_shared<int>();
    s[threadIdx.x] = 1;
    out[threadIdx.x] = 0;
}

}  // namespace

TEST_CASE("A thread's atomic after its own plain write does not hide the write from other threads' atomics", "[racecheck][atomics]") {
    auto out = simt::device_array<int>(1);
    auto fs = findings_of([&] { simt::launch(plain_write_then_atomics, 1, 32)(out); });
    INFO(test::all_text(fs));
    const auto* race = first_of(fs, "data-race");
    REQUIRE(race != nullptr);
    CHECK(race->hazard == "WAW");
    CHECK(lines_of(*race) == std::vector<unsigned>{miss_atomic, miss_write});
    CHECK(race->sites[0].access == "atomic");
    CHECK(race->sites[1].access == "write");
}

TEST_CASE("A block's count read before the barrier after the atomics is a race with them", "[racecheck][atomics]") {
    auto counter = simt::to_device(std::vector<int>{0});
    auto fs = findings_of([&] { simt::launch(block_count_read_too_early, 4, 64)(counter); });
    INFO(test::all_text(fs));
    const auto* race = first_of(fs, "data-race");
    REQUIRE(race != nullptr);
    CHECK(race->space == "shared");
    CHECK(race->array == "local");
    auto lines = lines_of(*race);
    std::sort(lines.begin(), lines.end());
    CHECK(lines == std::vector<unsigned>{early_add, early_read});
    // Thread 0 ran first and passed on a count of 1 per block, as the lesson says.
    CHECK(counter.copy_to_host()[0] == 4);
}

TEST_CASE("counter[0] = counter[0] + 1 gets the atomicAdd advice, as += does", "[racecheck][text]") {
    auto counter = simt::to_device(std::vector<int>{0});
    auto fs = findings_of([&] { simt::launch(racy_counter_spelled_out, 1, 64)(counter); });
    INFO(test::all_text(fs));
    REQUIRE(!fs.empty());
    CHECK_THAT(fs[0].text, Contains("use atomicAdd") && !Contains("__syncwarp"));
}

TEST_CASE("A race between blocks says blocks are not ordered and does not suggest __syncthreads", "[racecheck][text]") {
    auto data = simt::to_device(std::vector<int>{0});
    auto out = simt::device_array<int>(1);
    auto fs = findings_of([&] { simt::launch(read_other_block, 2, 32)(data, out); });
    REQUIRE(fs.size() == 1);
    CHECK_THAT(fs[0].text, Contains("blocks of one launch are never ordered") &&
                               Contains("its own kernel launch") && !Contains("__syncthreads"));
}

TEST_CASE(
    "A race after a barrier in code without a loop asks for a barrier between the lines, not at a "
    "loop's end",
    "[racecheck][text]") {
    auto out = simt::device_array<int>(128);
    auto fs = findings_of([&] { simt::launch(reuse_after_one_barrier, 1, 128)(out); });
    INFO(test::all_text(fs));
    const auto* race = first_of(fs, "data-race");
    REQUIRE(race != nullptr);
    CHECK(race->sites[0].line == reuse_read);
    CHECK(race->sites[1].line == reuse_write);
    CHECK_THAT(race->text,
               Contains("separate them with __syncthreads()") && !Contains("iteration"));
}

TEST_CASE("A race carried into the next loop iteration says so and names the barrier", "[racecheck][text]") {
    auto out = simt::device_array<int>(64);
    auto fs = findings_of([&] { simt::launch(barrier_only_between_the_lines, 1, 64)(out); });
    INFO(test::all_text(fs));
    const auto* race = first_of(fs, "data-race");
    REQUIRE(race != nullptr);
    CHECK(race->sites[0].line == loop_write);
    CHECK_THAT(race->text, Contains("next iteration") &&
                               Contains("racecheck_test.cu:" + std::to_string(loop_barrier)));
}

TEST_CASE("Uninitialized reads are spelled as their kind is", "[initcheck][text]") {
    auto in = simt::device_array<float>(32);
    auto out = simt::device_array<float>(32);
    auto fs = findings_of([&] { simt::launch(read_uninitialised, 1, 32)(in, out); });
    REQUIRE(fs.size() == 1);
    CHECK_THAT(fs[0].text, Contains("simt: uninitialized read") && Contains("starts uninitialized") &&
                               !Contains("uninitialised"));
}

TEST_CASE("A barrier inside an if on the thread index is not described as an early return", "[synccheck][text]") {
    auto out = simt::device_array<int>(32);
    auto fs = findings_of([&] { simt::launch(barrier_under_thread_condition, 1, 32)(out); });
    REQUIRE(fs.size() == 1);
    CHECK_THAT(fs[0].text, Contains("finished without reaching") &&
                               Contains("must not sit in code that only some threads run") &&
                               !Contains("exited before"));
}

TEST_CASE("An access of a zero-size array says it has no elements, not 0..-1", "[memcheck][text]") {
    auto empty = simt::device_array<int>(0);
    auto fs = findings_of([&] { simt::launch(write_first, 1, 1)(empty); });
    INFO(test::all_text(fs));
    REQUIRE(fs.size() == 1);
    CHECK_THAT(fs[0].text, Contains("has no elements") && !Contains("0..-1"));
}

TEST_CASE("An array allocated inside a member call is not named after the member", "[initcheck][text]") {
    std::vector<simt::DeviceArray<float>> arrays;
    arrays.push_back(simt::device_array<float>(32));
    auto out = simt::device_array<float>(32);
    auto fs = findings_of([&] { simt::launch(read_uninitialised, 1, 32)(arrays[0], out); });
    REQUIRE(fs.size() == 1);
    CHECK(fs[0].array != "push_back");
    CHECK_THAT(fs[0].array, Catch::Matchers::StartsWith("allocation #"));
}

TEST_CASE("Dynamic shared memory past its end is named as such, not as an unknown line", "[memcheck][text]") {
    auto out = simt::device_array<int>(8);
    auto fs = findings_of([&] { simt::launch(dynamic_shared_past_end, 1, 8, {.shared_bytes = 16})(out); });
    INFO(test::all_text(fs));
    REQUIRE(fs.size() == 1);
    CHECK_THAT(fs[0].text, Contains("dynamic shared memory, 16 bytes given at the launch") &&
                               !Contains("unknown line"));
}
