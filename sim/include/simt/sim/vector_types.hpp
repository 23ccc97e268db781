// CUDA's built-in coordinates for the simulator: uint3, dim3, threadIdx and friends.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif

/// A block or thread coordinate, as CUDA's uint3.
struct uint3 {
    unsigned x, y, z;
};

/// A grid or block shape; unspecified dimensions are 1, as in CUDA.
struct dim3 {
    unsigned x = 1, y = 1, z = 1;
    constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return {x, y, z}; }
};

// The simulator sets these before it runs (or resumes) a CUDA thread on a fiber. A block runs on
// one OS thread from start to end and fibers never migrate, so thread_local is exactly the
// per-block (blockIdx, blockDim, gridDim) and per-running-thread (threadIdx) value CUDA promises.
// They are plain variables so that `auto i = threadIdx.x` and `printf("%u", threadIdx.x)` work as
// in CUDA; kernels must treat them as read-only.
inline thread_local uint3 threadIdx{};
inline thread_local uint3 blockIdx{};
inline thread_local dim3 blockDim{};
inline thread_local dim3 gridDim{};
inline constexpr int warpSize = 32;
