// A device helper of the kind NVIDIA's samples keep in helper_cuda.h, written for these tests:
// pick the fastest usable device from its attributes, and count its CUDA cores.
#pragma once
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CHECK_CUDA(call)                                                                      \
    do {                                                                                      \
        cudaError_t err_ = (call);                                                            \
        if (err_ != cudaSuccess) {                                                            \
            std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,         \
                         cudaGetErrorName(err_));                                             \
            std::exit(EXIT_FAILURE);                                                          \
        }                                                                                     \
    } while (0)

/// FP32 cores per multiprocessor of each architecture, by compute capability.
inline int cores_per_sm(int major, int minor) {
    struct Arch {
        int cc, cores;
    };
    static const Arch table[] = {{0x50, 128}, {0x52, 128}, {0x60, 64},  {0x61, 128},
                                 {0x70, 64},  {0x72, 64},  {0x75, 64},  {0x80, 64},
                                 {0x86, 128}, {0x87, 128}, {0x89, 128}, {0x90, 128},
                                 {0xa0, 128}, {0xc0, 128}};
    int cc = (major << 4) + minor;
    for (const Arch& a : table)
        if (a.cc == cc) return a.cores;
    std::printf("compute capability %d.%d is not in the table; assuming 128 cores per SM\n", major, minor);
    return 128;
}

/// The usable device with the most cores times clock; -1 when there is none.
inline int fastest_device() {
    int count = 0;
    CHECK_CUDA(cudaGetDeviceCount(&count));
    int best = -1;
    unsigned long long best_speed = 0;
    for (int d = 0; d < count; ++d) {
        int mode = -1, major = 0, minor = 0, sms = 0, clock_khz = 0, integrated = 0;
        CHECK_CUDA(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, d));
        CHECK_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, d));
        CHECK_CUDA(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, d));
        CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, d));
        CHECK_CUDA(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, d));
        CHECK_CUDA(cudaDeviceGetAttribute(&integrated, cudaDevAttrIntegrated, d));
        if (mode == cudaComputeModeProhibited) continue;
        unsigned long long speed = 1ull * sms * cores_per_sm(major, minor) * clock_khz;
        if (!integrated) speed *= 2;  // prefer a discrete GPU
        if (best < 0 || speed > best_speed) best = d, best_speed = speed;
    }
    return best;
}
