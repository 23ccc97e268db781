// Runtime API calls with bad arguments, one case per argument, as a learner makes them: each
// returns CUDA's error code, which the program prints, and simt says why with the call's line.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

#define SHOW(call) std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorName(call))

__global__ void read_shifted(const int* in, int* out) {
    const int* p = (const int*)((const char*)in + 2);
    out[threadIdx.x] = p[threadIdx.x];
}

__global__ void count_shifted(int* counter) {
    atomicAdd((int*)((char*)counter + 6), 1);
}

__global__ void store_double_at(char* bytes, int offset) {
    *(double*)(bytes + offset) = 1.0;
}

// A struct of two doubles is 8-aligned: copied from an odd 8-byte slot it is well aligned.
struct Pair {
    double lo, hi;
};
__global__ void copy_pairs(const double* in, Pair* out) {
    out[threadIdx.x] = *(const Pair*)(in + 2 * threadIdx.x + 1);
}

int main(int argc, char** argv) {
    const char* what = argc > 1 ? argv[1] : "";
    auto is = [&](const char* name) { return std::strcmp(what, name) == 0; };
    if (is("malloc-negative")) {
        int n = -1;  // a size computed wrong
        float* d_a = (float*)0x1;
        cudaError_t err = cudaMalloc(&d_a, n * sizeof(float));
        std::fprintf(stderr, "cudaMalloc: %s, d_a %s\n", cudaGetErrorName(err), d_a ? "set" : "null");
        std::fprintf(stderr, "then: %s\n", cudaGetErrorName(cudaGetLastError()));
    } else if (is("malloc-too-big")) {
        double* d_big;
        SHOW(cudaMalloc(&d_big, (size_t)100 << 30));
        SHOW(cudaMallocManaged(&d_big, SIZE_MAX));
        size_t pitch;
        SHOW(cudaMallocPitch(&d_big, &pitch, SIZE_MAX / 2, 4));
        SHOW(cudaMallocHost(&d_big, SIZE_MAX));
        float* d_ok;
        SHOW(cudaMalloc(&d_ok, 1024));  // the device is still usable
        SHOW(cudaFree(d_ok));
    } else if (is("free-host")) {
        int on_stack[4];
        SHOW(cudaFree(on_stack));
    } else if (is("free-twice")) {
        int* d_x;
        cudaMalloc(&d_x, 64 * sizeof(int));
        SHOW(cudaFree(d_x));
        SHOW(cudaFree(d_x));
    } else if (is("free-inside")) {
        int* d_x;
        cudaMalloc(&d_x, 64 * sizeof(int));
        SHOW(cudaFree(d_x + 8));
        SHOW(cudaFree(d_x));
    } else if (is("free-pinned")) {
        float* h_pinned;
        cudaMallocHost(&h_pinned, 256);
        SHOW(cudaFree(h_pinned));
        SHOW(cudaFreeHost(h_pinned));
        float* d_x;
        cudaMalloc(&d_x, 256);
        SHOW(cudaFreeHost(d_x));
        SHOW(cudaFree(d_x));
    } else if (is("misaligned-load")) {
        int *d_in, *d_out;
        cudaMalloc(&d_in, 64 * sizeof(int));
        cudaMalloc(&d_out, 32 * sizeof(int));
        cudaMemset(d_in, 0, 64 * sizeof(int));
        read_shifted<<<1, 32>>>(d_in, d_out);
        SHOW(cudaDeviceSynchronize());
        cudaFree(d_in);
        cudaFree(d_out);
    } else if (is("misaligned-store")) {
        char* d_bytes;
        cudaMalloc(&d_bytes, 64);
        store_double_at<<<1, 1>>>(d_bytes, 12);
        store_double_at<<<1, 1>>>(d_bytes, 16);  // a multiple of 8: fine
        SHOW(cudaDeviceSynchronize());
        cudaFree(d_bytes);
    } else if (is("misaligned-atomic")) {
        int* d_counter;
        cudaMalloc(&d_counter, 4 * sizeof(int));
        cudaMemset(d_counter, 0, 4 * sizeof(int));
        count_shifted<<<1, 1>>>(d_counter);
        SHOW(cudaDeviceSynchronize());
        cudaFree(d_counter);
    } else if (is("hints")) {
        const size_t bytes = 1024 * sizeof(float);
        float *managed, *device_only;
        cudaMallocManaged(&managed, bytes);
        cudaMalloc(&device_only, bytes);
        SHOW(cudaMemPrefetchAsync(managed, bytes, 0));
        SHOW(cudaMemPrefetchAsync(managed, bytes, cudaCpuDeviceId));
        SHOW(cudaMemPrefetchAsync(managed, bytes, 7));
        SHOW(cudaMemPrefetchAsync(device_only, bytes, 0));
        SHOW(cudaMemPrefetchAsync(managed, 2 * bytes, 0));
        cudaMemLocation gpu{cudaMemLocationTypeDevice, 0}, host{cudaMemLocationTypeHost, 0};
        SHOW(cudaMemPrefetchAsync(managed, bytes, gpu, 0));
        SHOW(cudaMemPrefetchAsync(managed, bytes, host, 0, 0));
        SHOW(cudaMemAdvise(managed, bytes, cudaMemAdviseSetReadMostly, 0));
        SHOW(cudaMemAdvise(managed, bytes, cudaMemAdviseSetPreferredLocation, cudaCpuDeviceId));
        SHOW(cudaMemAdvise(managed, bytes, cudaMemAdviseSetAccessedBy, 30));
        SHOW(cudaMemAdvise(managed, bytes, cudaMemAdviseSetAccessedBy, gpu));
        SHOW(cudaMemAdvise(device_only, bytes, cudaMemAdviseSetReadMostly, 0));
        SHOW(cudaMemAdvise(managed, bytes, (cudaMemoryAdvise)9, 0));
        cudaFree(managed);
        cudaFree(device_only);
    } else if (is("aligned-pairs")) {
        double* d_in;
        Pair* d_out;
        cudaMalloc(&d_in, 66 * sizeof(double));
        cudaMalloc(&d_out, 32 * sizeof(Pair));
        cudaMemset(d_in, 0, 66 * sizeof(double));
        copy_pairs<<<1, 32>>>(d_in, d_out);
        SHOW(cudaDeviceSynchronize());
        cudaFree(d_in);
        cudaFree(d_out);
    } else {
        std::printf("usage: bad_calls CASE\n");
        return 2;
    }
    return 0;
}
