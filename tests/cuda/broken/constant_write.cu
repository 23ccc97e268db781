// Broken twin of a filter: the kernel normalises its weights in place, but kernels may only read
// __constant__ memory. Expected: a constant-write finding at the division.
#include <cstdio>

__constant__ float c_weights[8];

__global__ void normalise(float total) {
    c_weights[threadIdx.x] /= total;  // BUG: constant memory is read-only in kernels
}

int main() {
    const float h_weights[8] = {1, 2, 3, 4, 4, 3, 2, 1};
    cudaMemcpyToSymbol(c_weights, h_weights, sizeof(h_weights));
    normalise<<<1, 8>>>(20.0f);
    float back[8];
    cudaMemcpyFromSymbol(back, c_weights, sizeof(back));
    printf("first weight %.2f\n", back[0]);
    return 0;
}
