// CHECK(call): a CUDA runtime call that must succeed, as the CUDA samples' checkCudaErrors does;
// otherwise it prints the file, the line and the error, and exits.
#pragma once
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#define CHECK(call)                                                                        \
    do {                                                                                   \
        cudaError_t err_ = (call);                                                         \
        if (err_ != cudaSuccess) {                                                         \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
            std::exit(EXIT_FAILURE);                                                       \
        }                                                                                  \
    } while (0)
