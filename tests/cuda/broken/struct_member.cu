// Broken twin of a statistics kernel: every thread bumps a member of one struct element with a
// plain read-modify-write instead of atomicAdd. Expected: a data race on 'd_stats' at the bump.
#include <cstdio>

struct Stats {
    int count;
    float total;
};

__global__ void tally(const float* x, Stats* stats, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        stats[0].count += 1;  // BUG: not atomic
        atomicAdd(&stats[0].total, x[i]);
    }
}

int main() {
    const int n = 512;
    float* d_x;
    Stats* d_stats;
    cudaMalloc(&d_x, n * sizeof(float));
    cudaMalloc(&d_stats, sizeof(Stats));
    cudaMemset(d_x, 0, n * sizeof(float));
    cudaMemset(d_stats, 0, sizeof(Stats));
    tally<<<2, 256>>>(d_x, d_stats, n);
    Stats s;
    cudaMemcpy(&s, d_stats, sizeof(Stats), cudaMemcpyDeviceToHost);
    printf("count %d\n", s.count);
    cudaFree(d_x);
    cudaFree(d_stats);
    return 0;
}
