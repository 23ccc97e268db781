// A course's helper that allocates for its caller: cudaMalloc(p, ...) inside a function. A race
// and an out-of-bounds read on that memory name it the same way, by the variable given to
// cudaMalloc.
#include <cstdio>

#include "../cuda/check_cuda.h"

void allocate_floats(float** p, int n) {
    CHECK(cudaMalloc(p, n * sizeof(float)));
}

__global__ void last_one_wins(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[0] = i;  // BUG: every thread writes out[0]
}

__global__ void read_past(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i + 1];  // BUG: in[n] is one past the end
}

int main() {
    const int n = 64;
    float *d_in, *d_out;
    allocate_floats(&d_in, n);
    allocate_floats(&d_out, n);
    CHECK(cudaMemset(d_in, 0, n * sizeof(float)));
    last_one_wins<<<1, n>>>(d_in, n);
    read_past<<<1, n>>>(d_in, d_out, n);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    std::printf("done\n");
    return 0;
}
