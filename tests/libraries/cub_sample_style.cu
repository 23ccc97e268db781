// CUB as NVIDIA's samples use it: a caching allocator for every device buffer, CubDebugExit
// around each call, a BlockReduce with CUB's private shared storage, and the device-wide sum
// asked first for its temporary storage. Run with "past_the_end", the sum is asked for more items
// than the array holds: an out-of-bounds read that names the program's call.
#include <cstdio>
#include <cstring>

#include <cub/cub.cuh>
#include <cub/util_allocator.cuh>

cub::CachingDeviceAllocator g_allocator(true);

// Each block's sum of its 256 items, with no TempStorage of the program's own.
__global__ void block_sums(const float* in, float* sums) {
    float item = in[blockIdx.x * 256 + threadIdx.x];
    float sum = cub::BlockReduce<float, 256>().Sum(item);
    if (threadIdx.x == 0) sums[blockIdx.x] = sum;
}

int main(int argc, char** argv) {
    bool past_the_end = argc > 1 && std::strcmp(argv[1], "past_the_end") == 0;
    const int blocks = 12, n = blocks * 256;
    float h_in[n];
    for (int i = 0; i < n; ++i) h_in[i] = static_cast<float>(i % 7) * 0.5f;  // exact sums

    float *d_in = nullptr, *d_sums = nullptr, *d_total = nullptr;
    CubDebugExit(g_allocator.DeviceAllocate((void**)&d_in, sizeof(float) * n));
    CubDebugExit(g_allocator.DeviceAllocate((void**)&d_sums, sizeof(float) * blocks));
    CubDebugExit(g_allocator.DeviceAllocate((void**)&d_total, sizeof(float)));
    CubDebugExit(cudaMemcpy(d_in, h_in, sizeof(float) * n, cudaMemcpyHostToDevice));

    block_sums<<<blocks, 256>>>(d_in, d_sums);
    CubDebugExit(cudaGetLastError());

    int items = past_the_end ? n + 256 : n;
    void* d_temp_storage = nullptr;
    size_t temp_storage_bytes = 0;
    CubDebugExit(cub::DeviceReduce::Sum(d_temp_storage, temp_storage_bytes, d_in, d_total, items));
    CubDebugExit(g_allocator.DeviceAllocate(&d_temp_storage, temp_storage_bytes));
    CubDebugExit(cub::DeviceReduce::Sum(d_temp_storage, temp_storage_bytes, d_in, d_total, items));

    float h_sums[blocks], h_total = 0;
    CubDebugExit(cudaMemcpy(h_sums, d_sums, sizeof h_sums, cudaMemcpyDeviceToHost));
    CubDebugExit(cudaMemcpy(&h_total, d_total, sizeof h_total, cudaMemcpyDeviceToHost));

    float expected_total = 0;
    bool ok = true;
    for (int b = 0; b < blocks; ++b) {
        float expected = 0;
        for (int i = 0; i < 256; ++i) expected += h_in[b * 256 + i];
        if (h_sums[b] != expected) {
            std::printf("FAILED: block %d sums to %g, expected %g\n", b, h_sums[b], expected);
            ok = false;
        }
        expected_total += expected;
    }
    if (!past_the_end && h_total != expected_total) {
        std::printf("FAILED: DeviceReduce::Sum gives %g, expected %g\n", h_total, expected_total);
        ok = false;
    }

    CubDebugExit(g_allocator.DeviceFree(d_temp_storage));
    CubDebugExit(g_allocator.DeviceFree(d_in));
    CubDebugExit(g_allocator.DeviceFree(d_sums));
    CubDebugExit(g_allocator.DeviceFree(d_total));
    if (ok) std::printf("PASS\n");
    return ok ? 0 : 1;
}
