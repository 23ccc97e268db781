// More than 48 KiB of dynamic shared memory, as Hopper-era samples ask for it: a launch without
// the opt-in is refused with cudaErrorInvalidValue (on a GPU too); after cudaFuncSetAttribute the
// same launch runs. Prints the first launch's error name, then PASS when the result is right.
#include <cstdio>

#include "check_cuda.h"

__global__ void reverse_in_shared(const int* in, int* out, int n) {
    extern __shared__ int staged[];
    for (int i = threadIdx.x; i < n; i += blockDim.x) staged[i] = in[i];
    __syncthreads();
    for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = staged[n - 1 - i];
}

int main() {
    const int n = 16 * 1024;  // 64 KiB of ints
    const size_t bytes = n * sizeof(int);
    int h[n];
    for (int i = 0; i < n; ++i) h[i] = i * 3;
    int *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, bytes));
    CHECK(cudaMalloc(&d_out, bytes));
    CHECK(cudaMemcpy(d_in, h, bytes, cudaMemcpyHostToDevice));

    reverse_in_shared<<<1, 256, bytes>>>(d_in, d_out, n);
    printf("without the opt-in: %s\n", cudaGetErrorName(cudaGetLastError()));

    CHECK(cudaFuncSetAttribute(reverse_in_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
    reverse_in_shared<<<1, 256, bytes>>>(d_in, d_out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d_out, bytes, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += h[i] != (n - 1 - i) * 3;
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    printf(bad ? "FAILED\n" : "PASS\n");
    return bad ? 1 : 0;
}
