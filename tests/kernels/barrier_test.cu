// __syncthreads and its vote forms; threads that exit early; barriers in some blocks only.
#include <catch2/catch.hpp>
#include <simt/simt.hpp>

#include <vector>

__global__ void vote_barriers(simt::span<int> out) {
    int t = threadIdx.x;
    int count = __syncthreads_count(t % 3 == 0);
    int all_even = __syncthreads_and(t % 2 == 0);
    int all_small = __syncthreads_and(t < 1000);
    int any_last = __syncthreads_or(t == static_cast<int>(blockDim.x) - 1);
    int none = __syncthreads_or(0);
    if (t == 0) {
        out[0] = count;
        out[1] = all_even;
        out[2] = all_small;
        out[3] = any_last;
        out[4] = none;
    }
}

// Half the threads return before the barrier; exited threads count as arrived, as on hardware.
__global__ void early_exit(simt::span<int> data) {
    __shared__ simt::shared<int[128]> s;
    int t = threadIdx.x;
    if (t >= 64) return;
    s[t] = t * 2;
    __syncthreads();
    data[t] = s[63 - t];
}

// Only odd blocks reach a barrier; even blocks run barrier-free.
__global__ void barrier_in_odd_blocks(simt::span<int> data) {
    __shared__ simt::shared<int[64]> s;
    int t = threadIdx.x, base = blockIdx.x * 64;
    if (blockIdx.x % 2 == 0) {
        data[base + t] = -t;
        return;
    }
    s[t] = t;
    __syncthreads();
    data[base + t] = s[63 - t];
}

// Thread 0 takes a different path with an extra loop, then all meet at the same barriers.
__global__ void thread0_differs(simt::span<int> data) {
    __shared__ simt::shared<int[32]> s;
    int t = threadIdx.x;
    int acc = 0;
    if (t == 0)
        for (int i = 0; i < 100; ++i) acc += i;
    s[t] = acc + t;
    __syncthreads();
    data[t] = s[(t + 1) % 32];
    __syncthreads();
    s[t] = 0;
}

// A 16 KiB local array alive across a barrier: each fiber's stack must hold it.
__global__ void big_local_array(simt::span<long long> out) {
    long long local[2048];
    for (int i = 0; i < 2048; ++i) local[i] = i * (threadIdx.x + 1);
    __syncthreads();
    long long s = 0;
    for (int i = 0; i < 2048; ++i) s += local[i];
    out[threadIdx.x] = s;
}

// Many barriers in a loop with data passed around a ring each step.
__global__ void ring_shift(simt::span<int> data, int steps) {
    __shared__ simt::shared<int[256]> s;
    int t = threadIdx.x, n = blockDim.x;
    s[t] = t;
    __syncthreads();
    for (int k = 0; k < steps; ++k) {
        int v = s[(t + 1) % n];
        __syncthreads();
        s[t] = v;
        __syncthreads();
    }
    data[t] = s[t];
}

TEST_CASE("__syncthreads_count, _and and _or reduce the predicate over the block", "[barrier]") {
    auto out = simt::device_array<int>(5);
    simt::launch(vote_barriers, 1, 100)(out);
    auto v = out.copy_to_host();
    CHECK(v[0] == 34);  // 0, 3, ..., 99
    CHECK(v[1] == 0);
    CHECK(v[2] != 0);
    CHECK(v[3] != 0);
    CHECK(v[4] == 0);
}

TEST_CASE("Threads that exit before a barrier count as arrived", "[barrier]") {
    auto d = simt::to_device(std::vector<int>(64, -1));
    simt::launch(early_exit, 1, 128)(d);
    auto v = d.copy_to_host();
    for (int t = 0; t < 64; ++t) REQUIRE(v[t] == (63 - t) * 2);
}

TEST_CASE("A barrier reached only in some blocks works in those blocks", "[barrier]") {
    auto d = simt::device_array<int>(64 * 6);
    simt::launch(barrier_in_odd_blocks, 6, 64)(d);
    auto v = d.copy_to_host();
    for (int b = 0; b < 6; ++b)
        for (int t = 0; t < 64; ++t) REQUIRE(v[b * 64 + t] == (b % 2 ? 63 - t : -t));
}

TEST_CASE("Thread 0 on a different path still meets the others at each barrier", "[barrier]") {
    auto d = simt::device_array<int>(32);
    simt::launch(thread0_differs, 1, 32)(d);
    auto v = d.copy_to_host();
    for (int t = 0; t < 32; ++t) REQUIRE(v[t] == ((t + 1) % 32 == 0 ? 4950 : (t + 1) % 32));
}

TEST_CASE("A 16 KiB local array survives a barrier in every thread", "[barrier][stack]") {
    auto out = simt::device_array<long long>(64);
    simt::launch(big_local_array, 1, 64)(out);
    auto v = out.copy_to_host();
    for (int t = 0; t < 64; ++t) REQUIRE(v[t] == 2047LL * 2048 / 2 * (t + 1));
}

TEST_CASE("Two hundred barriers in a loop keep every thread in step", "[barrier]") {
    auto d = simt::device_array<int>(256);
    simt::launch(ring_shift, 1, 256)(d, 100);
    auto v = d.copy_to_host();
    for (int t = 0; t < 256; ++t) REQUIRE(v[t] == (t + 100) % 256);
}
