// C++ identifiers may be written in UTF-8, and a report names the array as the program does:
// the JSON report escapes it (\u00f6), so that any JSON reader takes the line.
#include <cstdio>

#include "../cuda/check_cuda.h"

__global__ void fill(float* values, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) values[i] = 1.0f;  // BUG: i == n writes one past the end
}

int main() {
    const int n = 32;
    float* d_größe;
    CHECK(cudaMalloc(&d_größe, n * sizeof(float)));
    fill<<<1, n + 1>>>(d_größe, n);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(d_größe));
    std::printf("done\n");
    return 0;
}
