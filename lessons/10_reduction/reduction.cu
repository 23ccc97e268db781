// Lesson 10: reducing an array to one value. A tree reduction written by hand in shared memory:
// each block sums its part, a second launch sums the blocks' sums. Then simt::reduce, simt's
// library shortcut that builds the same tree from a two-argument function, like Numba's
// @cuda.reduce.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>
#include <simt/simt.hpp>  // simt::reduce only

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

// Each block sums THREADS elements of `in` in shared memory, halving the active threads at every
// step, and writes its sum to partial[blockIdx.x].
__global__ void block_sums(const float* in, float* partial, int n) {
    __shared__ float s[THREADS];
    int t = threadIdx.x;
    int i = blockIdx.x * THREADS + t;
    s[t] = i < n ? in[i] : 0.0f;  // 0 is the identity of +, so missing elements add nothing
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride /= 2) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();  // the next step reads what this step wrote
    }
    if (t == 0) partial[blockIdx.x] = s[0];
}

int main() {
    const int n = 1 << 20;
    std::vector<float> host(n);
    for (int i = 0; i < n; ++i) host[i] = static_cast<float>(i % 10);  // sums stay below 2^24: exact in float
    double expect = 0;
    for (float v : host) expect += v;

    // 1. By hand: one launch gives one sum per block; a second launch sums those.
    const int blocks = (n + THREADS - 1) / THREADS;       // 4096
    const int blocks2 = (blocks + THREADS - 1) / THREADS;  // 16
    float *d_in, *d_partial, *d_final;
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_partial, blocks * sizeof(float)));
    CHECK(cudaMalloc(&d_final, blocks2 * sizeof(float)));
    CHECK(cudaMemcpy(d_in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    block_sums<<<blocks, THREADS>>>(d_in, d_partial, n);
    CHECK(cudaGetLastError());
    block_sums<<<blocks2, THREADS>>>(d_partial, d_final, blocks);  // runs after the first launch
    CHECK(cudaGetLastError());
    std::vector<float> last(blocks2);  // 16 values left: the host adds them
    CHECK(cudaMemcpy(last.data(), d_final, blocks2 * sizeof(float), cudaMemcpyDeviceToHost));
    float by_hand = 0;
    for (float v : last) by_hand += v;
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_partial));
    CHECK(cudaFree(d_final));

    // 2. simt::reduce with a lambda: it copies the vector in, runs the tree and returns the value.
    auto add = [] __host__ __device__ (float a, float b) { return a + b; };
    float total = simt::reduce(add, host);
    float largest = simt::reduce([] __host__ __device__ (float a, float b) { return a > b ? a : b; }, host);

    std::printf("-- the sum of %d floats\n", n);
    std::printf("CPU:            %.1f\n", expect);
    std::printf("by hand:        %.1f   (%d block sums, then %d)\n", by_hand, blocks, blocks2);
    std::printf("simt::reduce:   %.1f   (max %.1f)\n", total, largest);
    bool ok = by_hand == expect && total == expect && largest == 9.0f;
    std::printf("checksum %.1f\n", by_hand);
    if (!ok) {
        std::printf("FAILED: a reduction differs from the CPU reference\n");
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
