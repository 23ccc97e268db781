// Lesson 10: reducing an array to one value. simt::reduce does it from a two-argument function,
// like Numba's @cuda.reduce; then the same tree reduction written by hand in shared memory.
#include <simt/simt.hpp>

#include <cstdio>
#include <vector>

constexpr unsigned THREADS = 256;

// Each block sums 256 elements in shared memory, halving the active threads at every step.
__global__ void block_sums(simt::span<const float> in, simt::span<float> partial) {
    __shared__ simt::shared<float[THREADS]> s;
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * THREADS + t;
    s[t] = i < in.size() ? in[i] : 0.0f;  // 0 is the identity of +, so missing elements add nothing
    __syncthreads();
    for (unsigned stride = THREADS / 2; stride > 0; stride /= 2) {
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
    auto d = simt::to_device(host);

    // 1. simt::reduce with a lambda; it runs the tree on the device and returns the value.
    auto add = [] __host__ __device__ (float a, float b) { return a + b; };
    float total = simt::reduce(add, d);
    float largest = simt::reduce([] __host__ __device__ (float a, float b) { return a > b ? a : b; }, d);

    // 2. By hand: one launch gives one sum per block; a second launch sums those.
    const unsigned blocks = (n + THREADS - 1) / THREADS;  // 4096
    auto partial = simt::device_array<float>(blocks);
    simt::launch(block_sums, blocks, THREADS)(d, partial);
    auto final_sum = simt::device_array<float>(blocks / THREADS);
    simt::launch(block_sums, blocks / THREADS, THREADS)(partial, final_sum);
    std::vector<float> last = final_sum.copy_to_host();  // 16 values left: the host adds them
    float by_hand = 0;
    for (float v : last) by_hand += v;

    std::printf("-- the sum of %d floats\n", n);
    std::printf("CPU:            %.1f\n", expect);
    std::printf("simt::reduce:   %.1f   (max %.1f)\n", total, largest);
    std::printf("by hand:        %.1f   (%u block sums, then %zu)\n", by_hand, blocks, last.size());
    bool ok = total == expect && by_hand == expect && largest == 9.0f;
    std::printf("checksum %.1f\n", total);
    if (!ok) {
        std::printf("FAILED: a reduction differs from the CPU reference\n");
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
