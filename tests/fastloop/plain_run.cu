// Kernels whose first thread meets no barrier, so that the threads after it run as one plain loop
// (sim/include/simt/sim/block/thread_loop.hpp), each with a later thread that needs the simulator.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstring>

__global__ void late_barrier(int* out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    if (t == 0) return;
    s[t] = t * 10;
    __syncthreads();
    out[t] = s[64 - t];
}

__global__ void two_barriers(int* out) {
    int t = threadIdx.x;
    if (t == 0) return;
    if (t < 40) __syncthreads();
    else __syncthreads();
    out[t] = t;
}

__global__ void trap_at_37(int* out) {
    out[threadIdx.x] = 1;
    if (threadIdx.x == 37) __trap();
}

__global__ void null_write_at_5(int* out) {
    int* p = threadIdx.x == 5 ? nullptr : out;
    p[threadIdx.x] = 2;
}

__global__ void active_after_exits(unsigned* out) {
    if (threadIdx.x == 40) out[0] = __activemask();
}

__global__ void active_at_999(unsigned* out) {
    if (threadIdx.x == 999) out[0] = __activemask();
}

__global__ void wait_for_all(int* out) {
    __syncthreads();
    out[threadIdx.x] = 3;
}

__global__ void shuffle_in_warp_one(int* out) {
    int v = threadIdx.x;
    if (threadIdx.x >= 32) v = __shfl_down_sync(0xffffffff, v, 1);
    out[threadIdx.x] = v;
}

__global__ void where_am_i() {
    printf("thread %d %d %d of block %d\n", threadIdx.x, threadIdx.y, threadIdx.z, blockIdx.x);
}

__global__ void coordinates(int* out) {
    int t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    int b = blockIdx.x * blockDim.x * blockDim.y * blockDim.z;
    out[b + t] = threadIdx.x + 100 * threadIdx.y + 10000 * threadIdx.z;
}

int main(int argc, char** argv) {
    const char* mode = argc > 1 ? argv[1] : "";
    int* out;
    cudaMalloc(&out, 4096 * sizeof(int));
    cudaMemset(out, 0, 4096 * sizeof(int));
    int host[4096];
    if (!std::strcmp(mode, "late-barrier")) {
        late_barrier<<<3, 64>>>(out);
        cudaMemcpy(host, out, 64 * sizeof(int), cudaMemcpyDeviceToHost);
        int bad = 0;
        for (int t = 1; t < 64; ++t) bad += host[t] != (64 - t) * 10;
        printf("late barrier: %d wrong\n", bad);
    } else if (!std::strcmp(mode, "two-barriers")) {
        two_barriers<<<1, 64>>>(out);
    } else if (!std::strcmp(mode, "trap")) {
        trap_at_37<<<2, 64>>>(out);
    } else if (!std::strcmp(mode, "null")) {
        null_write_at_5<<<1, 64>>>(out);
    } else if (!std::strcmp(mode, "activemask")) {
        active_after_exits<<<1, 64>>>(reinterpret_cast<unsigned*>(out));
        unsigned mask = 0;
        cudaMemcpy(&mask, out, sizeof mask, cudaMemcpyDeviceToHost);
        printf("active mask at thread 40: 0x%08x\n", mask);
    } else if (!std::strcmp(mode, "activemask-after-launches")) {
        // Every thread of a 1024-thread block ends at its own pace, then a small block runs as a
        // plain run, then a big one again: its threads must all start out live.
        wait_for_all<<<1, 1024>>>(out);
        late_barrier<<<1, 64>>>(out);
        active_at_999<<<1, 1024>>>(reinterpret_cast<unsigned*>(out));
        unsigned mask = 0;
        cudaMemcpy(&mask, out, sizeof mask, cudaMemcpyDeviceToHost);
        printf("active mask at thread 999: 0x%08x\n", mask);
    } else if (!std::strcmp(mode, "shuffle")) {
        shuffle_in_warp_one<<<2, 64>>>(out);
        cudaMemcpy(host, out, 64 * sizeof(int), cudaMemcpyDeviceToHost);
        int bad = 0;
        for (int t = 0; t < 64; ++t) bad += host[t] != (t < 32 ? t : t == 63 ? 63 : t + 1);
        printf("shuffle: %d wrong\n", bad);
    } else if (!std::strcmp(mode, "printf")) {
        where_am_i<<<1, dim3(3, 2, 2)>>>();
    } else if (!std::strcmp(mode, "coordinates")) {
        // 33 x 3 x 2 = 198 threads: rows longer than a warp, a block not a multiple of 32.
        coordinates<<<4, dim3(33, 3, 2)>>>(out);
        cudaMemcpy(host, out, 4 * 198 * sizeof(int), cudaMemcpyDeviceToHost);
        int bad = 0;
        for (int b = 0; b < 4; ++b)
            for (int z = 0; z < 2; ++z)
                for (int y = 0; y < 3; ++y)
                    for (int x = 0; x < 33; ++x)
                        bad += host[b * 198 + (z * 3 + y) * 33 + x] != x + 100 * y + 10000 * z;
        printf("coordinates: %d wrong\n", bad);
    } else {
        printf("usage: plain_run late-barrier|two-barriers|trap|null|activemask|activemask-after-launches|shuffle|printf|coordinates\n");
        return 2;
    }
    cudaError_t e = cudaDeviceSynchronize();
    printf("after the launch: %s\n", cudaGetErrorName(e));
    return e == cudaSuccess ? 0 : 1;
}
