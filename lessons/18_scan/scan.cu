// Lesson 18: the inclusive scan (prefix sum). First within a block: Kogge-Stone in shared memory,
// with a double buffer and with a barrier between each step's reads and writes; then with warp
// shuffles, combined across warps. Then across blocks in one pass: each block takes a number from
// a global counter, waits for the block before it to publish its running total, adds it, and
// publishes its own, with a fence between the value and the flag. With the argument `race`, the
// program runs the in-place step without the barrier between reads and writes; with `nofence`,
// the one-pass scan without the writer's fence: both for the checker.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t err_ = (call);                                                       \
        if (err_ != cudaSuccess) {                                                       \
            std::fprintf(stderr, "%s:%d: %s (%s)\n", __FILE__, __LINE__,                 \
                         cudaGetErrorString(err_), cudaGetErrorName(err_));              \
            std::exit(EXIT_FAILURE);                                                     \
        }                                                                                \
    } while (0)

constexpr int THREADS = 256;
constexpr int WARPS = THREADS / 32;
constexpr int BLOCKS = 64;

// --- Part 1: a scan within one block -----------------------------------------------------------

// Kogge-Stone with two buffers: step `offset` reads one buffer and writes the other, so no thread
// overwrites a value that another thread still has to read in the same step. Each block scans its
// own THREADS elements.
__global__ void scan_block_double(const int* in, int* out, int n) {
    __shared__ int buf[2][THREADS];
    int t = threadIdx.x, i = blockIdx.x * THREADS + t;
    int src = 0;
    buf[src][t] = i < n ? in[i] : 0;  // 0 is the identity of +: missing elements add nothing
    __syncthreads();
    for (int offset = 1; offset < THREADS; offset *= 2) {
        int dst = 1 - src;
        buf[dst][t] = t >= offset ? buf[src][t - offset] + buf[src][t] : buf[src][t];
        __syncthreads();  // this step's writes are done before the next step reads them
        src = dst;
    }
    if (i < n) out[i] = buf[src][t];
}

// Kogge-Stone in one buffer: each step reads into a register, waits for every thread to have
// read, then writes.
__global__ void scan_block_in_place(const int* in, int* out, int n) {
    __shared__ int s[THREADS];
    int t = threadIdx.x, i = blockIdx.x * THREADS + t;
    s[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int offset = 1; offset < THREADS; offset *= 2) {
        int v = s[t];
        if (t >= offset) v += s[t - offset];
        __syncthreads();  // every read of this step is done before any write
        s[t] = v;
        __syncthreads();  // every write is done before the next step's reads
    }
    if (i < n) out[i] = s[t];
}

// The same without the barrier between the reads and the writes: thread t reads s[t - offset]
// while thread t - offset may already have added to it. (Run with the argument `race`.)
__global__ void scan_block_racy(const int* in, int* out, int n) {
    __shared__ int s[THREADS];
    int t = threadIdx.x, i = blockIdx.x * THREADS + t;
    s[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int offset = 1; offset < THREADS; offset *= 2) {
        if (t >= offset) s[t] += s[t - offset];  // the race is here
        __syncthreads();
    }
    if (i < n) out[i] = s[t];
}

// Inclusive scan over the 32 lanes of a warp: at step `offset` each lane adds the value of the
// lane `offset` below it, register to register. Lanes below `offset` have no such lane and keep
// their value (__shfl_up_sync returns their own).
__device__ int warp_scan(int v) {
    int lane = threadIdx.x % 32;
    for (int offset = 1; offset < 32; offset *= 2) {
        int below = __shfl_up_sync(0xffffffffu, v, offset);
        if (lane >= offset) v += below;
    }
    return v;
}

// Inclusive scan over the block: each warp scans its 32 values, its last lane writes the warp's
// total, the first warp scans the 8 totals, and each warp adds the totals of the warps before it.
// Every thread of the block must call it; it uses two __syncthreads().
__device__ int block_scan(int v) {
    __shared__ int warp_totals[WARPS];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    v = warp_scan(v);
    if (lane == 31) warp_totals[warp] = v;
    __syncthreads();
    if (warp == 0) {
        int total = warp_scan(lane < WARPS ? warp_totals[lane] : 0);
        if (lane < WARPS) warp_totals[lane] = total;  // now the totals of warps 0..lane
    }
    __syncthreads();
    if (warp > 0) v += warp_totals[warp - 1];
    return v;
}

__global__ void scan_block_shuffle(const int* in, int* out, int n) {
    int i = blockIdx.x * THREADS + threadIdx.x;
    int v = block_scan(i < n ? in[i] : 0);
    if (i < n) out[i] = v;
}

// --- Part 2: across blocks, in one pass --------------------------------------------------------

// The chained scan. Block number b (taken from `counter`, not blockIdx.x) scans its tile, waits
// until block b - 1 has published the inclusive prefix of tiles 0..b-1 (its flag turns 1), adds
// it, and publishes its own: the value, a fence, then the flag. The fences make the flag carry
// the value: the writer's is the release, the reader's the acquire.
__global__ void scan_chained(const int* in, int* out, int n, unsigned int* counter,
                             int* prefix, int* flags, bool fence) {
    __shared__ unsigned int block_number;
    __shared__ int before;  // the sum of every tile before this block's
    int t = threadIdx.x;
    if (t == 0) block_number = atomicAdd(counter, 1u);  // blocks 0..b-1 have surely started
    __syncthreads();
    const unsigned int b = block_number;
    const int i = b * THREADS + t;
    const int v = block_scan(i < n ? in[i] : 0);
    if (t == THREADS - 1) {  // the thread that holds the tile's total
        int carry = 0;
        if (b > 0) {
            while (atomicAdd(&flags[b - 1], 0) == 0) {  // waits for block b - 1's prefix
            }
            __threadfence();          // acquire: what block b - 1 wrote before its flag is seen
            carry = prefix[b - 1];    // without the fence: the race shows here
        }
        prefix[b] = carry + v;        // tiles 0..b
        if (fence) __threadfence();   // release: the prefix is out before the flag
        atomicExch(&flags[b], 1);
        before = carry;
    }
    __syncthreads();  // every thread sees `before`
    if (i < n) out[i] = before + v;
}

// --- The host ----------------------------------------------------------------------------------

// Compares the device's scan with the CPU's; `tiles`: each tile of THREADS elements scanned on its
// own (part 1), or the whole array as one (part 2). Returns the number of wrong elements.
int wrong_elements(const std::vector<int>& in, const std::vector<int>& out, bool tiles) {
    int wrong = 0, sum = 0;
    for (size_t i = 0; i < in.size(); ++i) {
        if (tiles && i % THREADS == 0) sum = 0;
        sum += in[i];
        wrong += out[i] != sum;
    }
    return wrong;
}

int main(int argc, char** argv) {
    const bool race = argc > 1 && std::strcmp(argv[1], "race") == 0;
    const bool nofence = argc > 1 && std::strcmp(argv[1], "nofence") == 0;
    if (argc > 1 && !race && !nofence) {
        std::printf("give no argument, `race` or `nofence`\n");
        return 2;
    }
    const int n = BLOCKS * THREADS;
    std::vector<int> host(n), result(n);
    for (int i = 0; i < n; ++i) host[i] = i % 7;

    int *d_in, *d_out, *d_prefix, *d_flags;
    unsigned int* d_counter;
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMalloc(&d_out, n * sizeof(int)));
    CHECK(cudaMalloc(&d_prefix, BLOCKS * sizeof(int)));
    CHECK(cudaMalloc(&d_flags, BLOCKS * sizeof(int)));
    CHECK(cudaMalloc(&d_counter, sizeof(unsigned int)));
    CHECK(cudaMemcpy(d_in, host.data(), n * sizeof(int), cudaMemcpyHostToDevice));

    int failures = 0;
    // Copies the result back and reports it; `tiles` as in wrong_elements.
    auto report = [&](const char* name, bool tiles, bool may_fail) {
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(result.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
        int wrong = wrong_elements(host, result, tiles);
        if (wrong == 0)
            std::printf("%-34s %5d sums right\n", name, n);
        else
            std::printf("%-34s %5d of %d sums WRONG\n", name, wrong, n);
        if (!may_fail) failures += wrong != 0;
    };

    std::printf("-- inclusive scan of %d ints, %d blocks of %d threads, against the CPU's\n", n,
                BLOCKS, THREADS);
    if (race) {
        // Its sums may come out right or wrong: the race is the point, not the values.
        scan_block_racy<<<BLOCKS, THREADS>>>(d_in, d_out, n);
        report("block scan, in place, one barrier", true, true);
    } else {
        scan_block_double<<<BLOCKS, THREADS>>>(d_in, d_out, n);
        report("block scan, double buffer", true, false);
        scan_block_in_place<<<BLOCKS, THREADS>>>(d_in, d_out, n);
        report("block scan, read, barrier, write", true, false);
        scan_block_shuffle<<<BLOCKS, THREADS>>>(d_in, d_out, n);
        report("block scan, warp shuffles", true, false);
    }

    // The counter and the flags start at 0 for every launch.
    CHECK(cudaMemset(d_counter, 0, sizeof(unsigned int)));
    CHECK(cudaMemset(d_flags, 0, BLOCKS * sizeof(int)));
    scan_chained<<<BLOCKS, THREADS>>>(d_in, d_out, n, d_counter, d_prefix, d_flags, !nofence);
    report(nofence ? "one pass, chained (without fence)" : "one pass, chained across blocks",
           false, false);

    long long checksum = 0;
    for (int v : result) checksum += v;
    std::printf("total %d\n", result[n - 1]);
    std::printf("checksum %lld\n", checksum);

    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_prefix));
    CHECK(cudaFree(d_flags));
    CHECK(cudaFree(d_counter));
    if (failures) {
        std::printf("FAILED: %d scans differ from the CPU's\n", failures);
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
