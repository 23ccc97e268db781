// Dynamic shared memory has no element type of its own (its size is given at the launch, in
// bytes): a report counts its index in the type of the access, as the program does, with the
// byte offset beside it.
#include <cstdio>

#include "../cuda/check_cuda.h"

__global__ void reverse_block(int* data, int n) {
    extern __shared__ int s[];
    int t = threadIdx.x;
    s[t] = data[t];
    __syncthreads();
    data[t] = s[n - t];  // BUG: t == 0 reads s[n], one past the end
}

__global__ void count_in_shared(int* out) {
    extern __shared__ int s[];
    if (threadIdx.x == 0) s[5] = 0;
    __syncthreads();
    s[5] += 1;  // BUG: every thread adds to s[5] at once
    __syncthreads();
    if (threadIdx.x == 0) *out = s[5];
}

int main() {
    const int n = 36;
    int* d_data;
    CHECK(cudaMalloc(&d_data, n * sizeof(int)));
    CHECK(cudaMemset(d_data, 0, n * sizeof(int)));
    reverse_block<<<1, n, n * sizeof(int)>>>(d_data, n);
    count_in_shared<<<1, n, n * sizeof(int)>>>(d_data);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(d_data));
    std::printf("done\n");
    return 0;
}
