// <cub/util_debug.cuh> in a simulator build: CubDebug and CubDebugExit, as CUB defines them
// (print a failed call's error with its file and line; the Exit form ends the program).
#pragma once
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

namespace cub {

inline cudaError_t Debug(cudaError_t error, const char* filename, int line) {
    if (error != cudaSuccess)
        std::fprintf(stderr, "CUDA error %d [%s, %d]: %s\n", static_cast<int>(error), filename,
                     line, cudaGetErrorString(error));
    return error;
}

}  // namespace cub

#ifndef CubDebug
#define CubDebug(e) ::cub::Debug(static_cast<cudaError_t>(e), __FILE__, __LINE__)
#endif
#ifndef CubDebugExit
#define CubDebugExit(e)                                                         \
    if (::cub::Debug(static_cast<cudaError_t>(e), __FILE__, __LINE__)) {        \
        std::exit(1);                                                           \
    }
#endif
