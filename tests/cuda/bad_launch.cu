// Broken on purpose: a block of 1025 threads. As on a GPU the kernel does not run and
// cudaGetLastError() says cudaErrorInvalidValue (CUDA 13 on an H100; toolkits before it said
// cudaErrorInvalidConfiguration); the simulator also says why, and where.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill(int* out) { out[threadIdx.x] = 1; }

int main() {
    int* d;
    cudaMalloc(&d, 2048 * sizeof(int));
    fill<<<1, 1025>>>(d);
    cudaError_t launch = cudaGetLastError();
    cudaError_t after = cudaGetLastError();  // reading the error cleared it
    cudaFree(d);
    printf("launch: %s, then: %s\n", cudaGetErrorName(launch), cudaGetErrorName(after));
    return launch == cudaErrorInvalidValue && after == cudaSuccess ? 0 : 1;
}
