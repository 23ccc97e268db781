// What a course's first program prints about the device, through a helper in the style of
// NVIDIA's helper_cuda.h (device_helpers.h): attributes, properties, and the cores they imply.
#include <cuda_runtime.h>

#include <cstdio>

#include "device_helpers.h"

int main() {
    int device = fastest_device();
    if (device < 0) {
        std::printf("no usable device\n");
        return 1;
    }
    CHECK_CUDA(cudaSetDevice(device));
    cudaDeviceProp p;
    CHECK_CUDA(cudaGetDeviceProperties(&p, device));
    int clock_khz = 0, memory_khz = 0, mode = -1;
    CHECK_CUDA(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device));
    CHECK_CUDA(cudaDeviceGetAttribute(&memory_khz, cudaDevAttrMemoryClockRate, device));
    CHECK_CUDA(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, device));
    int driver = 0, runtime = 0;
    CHECK_CUDA(cudaDriverGetVersion(&driver));
    CHECK_CUDA(cudaRuntimeGetVersion(&runtime));
    std::printf("device %d: %s, compute capability %d.%d\n", device, p.name, p.major, p.minor);
    std::printf("runtime %d, driver %d\n", runtime, driver);
    std::printf("cores per SM %d, clock %d MHz, memory clock %d MHz, bus %d bits, L2 %d KiB\n",
                cores_per_sm(p.major, p.minor), clock_khz / 1000, memory_khz / 1000,
                p.memoryBusWidth, p.l2CacheSize / 1024);
    std::printf("global memory %zu MiB, constant %zu KiB, compute mode %s\n", p.totalGlobalMem >> 20,
                p.totalConstMem / 1024, mode == cudaComputeModeDefault ? "default" : "restricted");
    std::printf("per SM: %d threads, %d blocks, %d registers, %zu bytes shared\n",
                p.maxThreadsPerMultiProcessor, p.maxBlocksPerMultiProcessor,
                p.regsPerMultiprocessor, p.sharedMemPerMultiprocessor);
    std::printf("per block: %d threads, %d registers, %zu bytes shared (%zu opted in, %zu reserved)\n",
                p.maxThreadsPerBlock, p.regsPerBlock, p.sharedMemPerBlock, p.sharedMemPerBlockOptin,
                p.reservedSharedMemPerBlock);
    // Every attribute agrees with the properties it repeats.
    int a = 0, mismatches = 0;
    const struct {
        cudaDeviceAttr attr;
        long long expected;
    } same[] = {
        {cudaDevAttrMaxThreadsPerBlock, p.maxThreadsPerBlock},
        {cudaDevAttrMaxSharedMemoryPerBlock, (long long)p.sharedMemPerBlock},
        {cudaDevAttrMaxSharedMemoryPerBlockOptin, (long long)p.sharedMemPerBlockOptin},
        {cudaDevAttrMaxSharedMemoryPerMultiprocessor, (long long)p.sharedMemPerMultiprocessor},
        {cudaDevAttrReservedSharedMemoryPerBlock, (long long)p.reservedSharedMemPerBlock},
        {cudaDevAttrMaxRegistersPerMultiprocessor, p.regsPerMultiprocessor},
        {cudaDevAttrMaxBlocksPerMultiprocessor, p.maxBlocksPerMultiProcessor},
        {cudaDevAttrMaxThreadsPerMultiProcessor, p.maxThreadsPerMultiProcessor},
        {cudaDevAttrMultiProcessorCount, p.multiProcessorCount},
        {cudaDevAttrL2CacheSize, p.l2CacheSize},
        {cudaDevAttrWarpSize, p.warpSize},
        {cudaDevAttrManagedMemory, p.managedMemory},
        {cudaDevAttrConcurrentManagedAccess, p.concurrentManagedAccess},
        {cudaDevAttrTotalConstantMemory, (long long)p.totalConstMem},
        {cudaDevAttrComputeCapabilityMajor, p.major},
        {cudaDevAttrComputeCapabilityMinor, p.minor},
    };
    for (const auto& s : same) {
        CHECK_CUDA(cudaDeviceGetAttribute(&a, s.attr, device));
        if (a != s.expected) {
            std::printf("attribute %d is %d, the properties say %lld\n", (int)s.attr, a, s.expected);
            ++mismatches;
        }
    }
    cudaError_t err = cudaDeviceGetAttribute(&a, (cudaDeviceAttr)9999, device);
    std::printf("attribute 9999: %s\n", cudaGetErrorName(err));
    cudaGetLastError();
    std::printf(mismatches ? "FAILED\n" : "PASS\n");
    return mismatches != 0;
}
