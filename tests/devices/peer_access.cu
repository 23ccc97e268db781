// A kernel on one device reading an array cudaMalloc'd on another: a GPU reaches it only after
// cudaDeviceEnablePeerAccess, and otherwise faults. And each device has its own memory.
#include <cstdio>
#include <cstring>

#include "../cuda/check_cuda.h"

__global__ void twice(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2 * in[i];  // `in` is device 0's
}

int main(int argc, char** argv) {
    const bool peer = argc > 1 && std::strcmp(argv[1], "peer") == 0;
    const bool memory = argc > 1 && std::strcmp(argv[1], "memory") == 0;
    const int n = 256;
    int host[n];
    for (int i = 0; i < n; ++i) host[i] = i;
    int *d_in, *d_out;
    CHECK(cudaSetDevice(0));
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMemcpy(d_in, host, sizeof host, cudaMemcpyHostToDevice));
    if (memory) {
        // 64 MiB more in use on device 0 leaves device 1's free memory as it was.
        std::size_t free0, free1, total, after0, after1;
        CHECK(cudaMemGetInfo(&free0, &total));
        CHECK(cudaSetDevice(1));
        CHECK(cudaMemGetInfo(&free1, &total));
        CHECK(cudaSetDevice(0));
        int* big;
        CHECK(cudaMalloc(&big, 64 << 20));
        CHECK(cudaMemGetInfo(&after0, &total));
        CHECK(cudaSetDevice(1));
        CHECK(cudaMemGetInfo(&after1, &total));
        std::printf("device 0: %zu MiB less free, device 1: %zu MiB less free, device 1 free: %s\n",
                    (free0 - after0) >> 20, (free1 - after1) >> 20,
                    after1 == total ? "all" : "not all");
        CHECK(cudaSetDevice(0));
        CHECK(cudaFree(big));
        CHECK(cudaFree(d_in));
        return 0;
    }
    CHECK(cudaSetDevice(1));
    CHECK(cudaMalloc(&d_out, n * sizeof(int)));
    if (peer) {
        int can = 0;
        CHECK(cudaDeviceCanAccessPeer(&can, 1, 0));
        if (can) CHECK(cudaDeviceEnablePeerAccess(0, 0));
    }
    twice<<<1, n>>>(d_in, d_out, n);
    cudaError_t e = cudaMemcpy(host, d_out, sizeof host, cudaMemcpyDeviceToHost);
    std::printf("after the launch: %s, out[255] = %d\n", cudaGetErrorName(e),
                e == cudaSuccess ? host[255] : -1);
    return e == cudaSuccess ? 0 : 1;
}
