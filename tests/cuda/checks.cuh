// What the plain-CUDA device tests share: CHECK around runtime calls, expect() for results, and
// the exit status: 0 with PASS, 1 with the failed checks, 77 (skipped) where there is no GPU.
#pragma once
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#define CHECK(call)                                                                       \
    do {                                                                                  \
        cudaError_t err_ = (call);                                                        \
        if (err_ != cudaSuccess) {                                                        \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));  \
            exit(EXIT_FAILURE);                                                           \
        }                                                                                 \
    } while (0)

inline int failures = 0;

// Counts a failed check and names it (the first 20), with the case's index if it has one.
inline void expect(bool ok, const char* what, long long index = -1) {
    if (ok) return;
    if (++failures > 20) return;
    if (index < 0) fprintf(stderr, "FAILED: %s\n", what);
    else fprintf(stderr, "FAILED: %s (case %lld)\n", what, index);
}

// A GPU build on a machine without a GPU has nothing to run: ctest reads 77 as skipped.
inline void skip_without_gpu() {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        printf("no CUDA device: skipped\n");
        exit(77);
    }
}

// PASS and 0 when every check held.
inline int report() {
    if (failures != 0) {
        fprintf(stderr, "%d checks failed\n", failures);
        return EXIT_FAILURE;
    }
    printf("PASS\n");
    return 0;
}
