// The macros that let one function body serve as host and device code in both backends.
#pragma once

// A function kernels and host code both call: __host__ __device__ under nvcc, plain C++ in the
// simulator (where device code is host code).
#if defined(__CUDACC__)
#define SIMT_DEVICE_FN __host__ __device__ inline
#else
#define SIMT_DEVICE_FN inline
#endif

// An element access on the hot path of a view. The simulator's checked accessors must inline
// into the kernel for the checks to cost a compare and a branch; nvcc inlines on its own, and
// the PTX twin test (tests/ptx) holds it to that.
#if defined(__CUDACC__)
#define SIMT_HOT
#else
#define SIMT_HOT [[gnu::always_inline]]
#endif
