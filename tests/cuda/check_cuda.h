// The error check every CUDA course defines once in a helper header (NVIDIA's samples call theirs
// checkCudaErrors): a failed runtime call prints its file:line and the error, and ends the program.
#pragma once
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#define CHECK(call)                                                                          \
    do {                                                                                     \
        cudaError_t err_ = (call);                                                           \
        if (err_ != cudaSuccess) {                                                           \
            std::fprintf(stderr, "%s:%d: %s (%s)\n", __FILE__, __LINE__,                     \
                         cudaGetErrorString(err_), cudaGetErrorName(err_));                  \
            std::exit(EXIT_FAILURE);                                                         \
        }                                                                                    \
    } while (0)
