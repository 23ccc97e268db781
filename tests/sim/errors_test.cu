// Errors inside kernels reach the host as KernelError naming thread, block and line; never a hang.
#include <catch2/catch.hpp>
#include <simt/simt.hpp>

#include <stdexcept>
#include <vector>

using Catch::Matchers::Contains;

__global__ void throws_in_one_thread(simt::span<int> out) {
    if (blockIdx.x == 2 && threadIdx.x == 5) throw std::runtime_error("bad input 42");
    out[simt::grid<1>()] = 1;
}

__global__ void throws_after_barrier(simt::span<int> out) {
    __syncthreads();
    if (threadIdx.x == 3) throw std::invalid_argument("after the barrier");
    __syncthreads();
    out[threadIdx.x] = 1;
}

__global__ void divergent_barrier() {
    if (threadIdx.x < 16) __syncthreads();
    else __syncthreads();
}

__global__ void subset_waits_forever() {
    // Thread 0 waits at a second barrier that nobody else reaches; the others finished.
    __syncthreads();
    if (threadIdx.x == 0) __syncthreads();
}

__global__ void warp_waits_block_waits() {
    if (threadIdx.x < 16) __syncwarp();  // waits for lanes 16..31, which wait at the barrier
    else __syncthreads();
}

__global__ void mask_leaves_out_caller(simt::span<int> out) {
    out[threadIdx.x] = __shfl_sync(0x0000fffeu, 1, 0);
}

__global__ void lane_never_arrives(simt::span<int> out) {
    if (threadIdx.x == 7) return;
    out[threadIdx.x] = __shfl_sync(0xffffffffu, static_cast<int>(threadIdx.x), 0);
}

// A full mask in the last, partial warp of a block of 40: lanes 8..31 of warp 1 are no threads.
__global__ void full_mask_in_partial_warp(simt::span<int> out) {
    __syncwarp(0xffffffffu);
    int lane = threadIdx.x % 32;
    out[threadIdx.x] = __shfl_down_sync(0xffffffffu, lane, 4) + 100 * __all_sync(0xffffffffu, 1);
}

__global__ void mixed_intrinsics(simt::span<int> out) {
    if (threadIdx.x % 2) out[threadIdx.x] = __ballot_sync(0xffffffffu, 1);
    else out[threadIdx.x] = __any_sync(0xffffffffu, 1);
}

__global__ void fill_marks(simt::span<int> m) { m[threadIdx.x] = 9; }

__global__ void too_much_shared() {
    __shared__ simt::shared<char[40 * 1024]> a;
    __shared__ simt::shared<char[16 * 1024]> b;
    a[threadIdx.x] = 1;
    b[threadIdx.x] = 2;
}

TEST_CASE("An exception in a kernel becomes a KernelError naming the thread and block", "[errors]") {
    auto out = simt::device_array<int>(4 * 32);
    simt::launch(throws_in_one_thread, 4, 32)(out);
    CHECK_THROWS_WITH(simt::synchronize(), Contains("thread (5,0,0) block (2,0,0)") && Contains("bad input 42"));
    CHECK_NOTHROW(simt::synchronize());  // collected once
}

TEST_CASE("An exception after a barrier unwinds the block's waiting threads", "[errors]") {
    auto out = simt::device_array<int>(64);
    simt::launch(throws_after_barrier, 1, 64)(out);
    CHECK_THROWS_AS(simt::synchronize(), simt::KernelError);
    // The workers are usable again afterwards.
    simt::launch(throws_after_barrier, 1, 3)(out);
    CHECK_NOTHROW(simt::synchronize());
}

TEST_CASE("Halves of a block at different barriers deadlock with both sites named", "[errors][deadlock]") {
    simt::launch(divergent_barrier, 1, 32)();
    try {
        simt::synchronize();
        FAIL("no deadlock reported");
    } catch (const simt::KernelError& e) {
        std::string m = e.what();
        CHECK_THAT(m, Contains("deadlock in block (0,0,0)"));
        CHECK_THAT(m, Contains("16 threads wait at __syncthreads() at errors_test.cu:23"));
        CHECK_THAT(m, Contains("16 threads wait at __syncthreads() at errors_test.cu:24"));
        CHECK_THAT(m, Contains("(0,0,0)..(15,0,0)"));
    }
}

TEST_CASE("One thread left waiting at a barrier after the others exit is a deadlock", "[errors][deadlock]") {
    // Exited threads count as arrived, so thread 0 alone completes the barrier, as on hardware.
    simt::launch(subset_waits_forever, 1, 32)();
    CHECK_NOTHROW(simt::synchronize());
    simt::launch(warp_waits_block_waits, 1, 64)();
    CHECK_THROWS_WITH(simt::synchronize(), Contains("deadlock") && Contains("__syncwarp()") &&
                                               Contains("__syncthreads()"));
}

TEST_CASE("A warp mask that leaves out the caller is an error, not a hang", "[errors][warp]") {
    auto out = simt::device_array<int>(32);
    simt::sim::clear_findings();
    simt::launch(mask_leaves_out_caller, 1, 32)(out);
    CHECK_THROWS_WITH(simt::synchronize(), Contains("leaves out the calling lane") && Contains("0x0000fffe"));
    auto fs = simt::sim::findings();  // synccheck keeps it as a finding too
    REQUIRE(fs.size() == 1);
    CHECK(fs[0].kind == simt::sim::FindingKind::warp_mask);
}

TEST_CASE("A lane named in the mask that exits instead is reported as a deadlock", "[errors][warp]") {
    auto out = simt::device_array<int>(32);
    simt::sim::clear_findings();
    simt::launch(lane_never_arrives, 1, 32)(out);
    CHECK_THROWS_WITH(simt::synchronize(), Contains("deadlock") && Contains("__shfl_sync()") &&
                                               Contains("also waits for (7,0,0)"));
    auto fs = simt::sim::findings();
    REQUIRE(fs.size() == 1);
    CHECK(fs[0].kind == simt::sim::FindingKind::deadlock);
}

TEST_CASE("A full mask in a partial warp leaves out the lanes past the block's end, as exited ones",
          "[errors][warp]") {
    simt::sim::clear_findings();
    auto out = simt::device_array<int>(40);
    simt::launch(full_mask_in_partial_warp, 1, 40)(out);
    simt::synchronize();
    std::vector<int> h = out.copy_to_host();
    CHECK(simt::sim::findings().empty());
    CHECK(h[0] == 104);   // lane 0 of warp 0 reads lane 4; every lane voted
    CHECK(h[32] == 104);  // lane 0 of the partial warp reads lane 4, which is there
    CHECK(h[39] == 107);  // lane 7 would read lane 11, past the end: its own value
}

TEST_CASE("Lanes of one mask in different warp intrinsics is an error", "[errors][warp]") {
    auto out = simt::device_array<int>(32);
    simt::launch(mixed_intrinsics, 1, 32)(out);
    CHECK_THROWS_WITH(simt::synchronize(), Contains("must call the same intrinsic"));
}

TEST_CASE("Static shared memory over 48 KiB ends the launch with the sizes", "[errors][shared]") {
    simt::launch(too_much_shared, 1, 32)();
    CHECK_THROWS_WITH(simt::synchronize(), Contains("57344 bytes of static") && Contains("49152"));
}

TEST_CASE("Barriers and device memory are refused on the host", "[errors]") {
    CHECK_THROWS_WITH(__syncthreads(), Contains("on the host"));
    auto a = simt::to_device(std::vector<int>{1, 2, 3});
    simt::ptr<int> p = a;
    CHECK_THROWS_WITH(static_cast<int>(p[0]), Contains("host read of global memory") && Contains("copy_to_host"));
}

TEST_CASE("After a kernel error, later launches on the stream are skipped until it is collected", "[errors]") {
    auto out = simt::to_device(std::vector<int>(4 * 32, 0));
    auto marks = simt::to_device(std::vector<int>(10, 0));
    simt::launch(throws_in_one_thread, 4, 32)(out);
    simt::launch(fill_marks, 1, 10)(marks);
    CHECK_THROWS_AS(simt::synchronize(), simt::KernelError);
    CHECK(marks.copy_to_host() == std::vector<int>(10, 0));
    simt::launch(fill_marks, 1, 10)(marks);
    CHECK(marks.copy_to_host() == std::vector<int>(10, 9));
}
