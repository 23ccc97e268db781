// The warp reductions of compute capability 8.0 (__reduce_add_sync and its kin), as NVIDIA's
// reduction sample uses them for int sums: over a full warp, with signed and unsigned values,
// and over the lanes a ballot picked. Each lane's result is checked against the CPU.
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "check_cuda.h"

constexpr int kinds = 9;

__global__ void reductions(unsigned* out) {
    const unsigned lane = threadIdx.x % 32;
    const int s = int(lane) - 16;             // -16 .. 15
    const unsigned u = (lane * 7u) % 32u + 1;  // 1 .. 32, scrambled
    unsigned* mine = out + kinds * threadIdx.x;
    mine[0] = __reduce_add_sync(0xffffffffu, u);
    mine[1] = unsigned(__reduce_add_sync(0xffffffffu, s));
    mine[2] = unsigned(__reduce_min_sync(0xffffffffu, s));
    mine[3] = unsigned(__reduce_max_sync(0xffffffffu, s));
    mine[4] = __reduce_min_sync(0xffffffffu, u);
    mine[5] = __reduce_and_sync(0xffffffffu, u | 0x100u);
    mine[6] = __reduce_or_sync(0xffffffffu, 1u << (lane % 8));
    mine[7] = __reduce_xor_sync(0xffffffffu, lane);
    // Only the lanes below 8, with the mask a ballot gives them.
    const unsigned low = __ballot_sync(0xffffffffu, lane < 8);
    mine[8] = lane < 8 ? __reduce_add_sync(low, lane) : 0;
}

int main() {
    const int threads = 64;
    unsigned* d_out;
    CHECK(cudaMalloc(&d_out, kinds * threads * sizeof(unsigned)));
    reductions<<<1, threads>>>(d_out);
    CHECK(cudaGetLastError());
    std::vector<unsigned> got(kinds * threads);
    CHECK(cudaMemcpy(got.data(), d_out, got.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_out));

    unsigned add_u = 0, min_u = ~0u, and_u = ~0u, xor_l = 0;
    for (unsigned l = 0; l < 32; ++l) {
        unsigned u = (l * 7u) % 32u + 1;
        add_u += u, min_u = u < min_u ? u : min_u, and_u &= u | 0x100u, xor_l ^= l;
    }
    const unsigned expected[kinds] = {add_u, unsigned(-16), unsigned(-16), 15u, min_u,
                                      and_u, 0xffu,         xor_l,         28u};
    int wrong = 0;
    for (int t = 0; t < threads; ++t)
        for (int k = 0; k < kinds; ++k) {
            unsigned want = k == 8 && t % 32 >= 8 ? 0u : expected[k];
            if (got[kinds * t + k] != want && wrong++ < 5)
                printf("FAILED: thread %d, reduction %d: %u, expected %u\n", t, k,
                       got[kinds * t + k], want);
        }
    printf(wrong ? "FAILED\n" : "PASS\n");
    return wrong ? 1 : 0;
}
