// CUDA's vector types (char1..double4) with make_<type>(), dim3, and the built-in coordinates.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
// glibc's <sys/types.h> gives the `uint`, `ushort` and `ulong` a .cu sees under nvcc.
#include <sys/types.h>

// Each family's four widths with CUDA's alignments (vector_types.h): 1 and 3 elements are
// aligned as one element, 2 elements as both (char2: 2, float2: 8, double2: 16), 4 elements as
// all four but at most 16 (char4: 4, short4: 8, float4: 16, double4: 16). The types are
// aggregates, as in CUDA: `float4 v = {1, 2, 3, 4};`.
#define SIMT_SIM_VECTOR_FAMILY(name, T)                                                      \
    struct name##1 {                                                                         \
        T x;                                                                                 \
    };                                                                                       \
    struct alignas(2 * sizeof(T)) name##2 {                                                  \
        T x, y;                                                                              \
    };                                                                                       \
    struct name##3 {                                                                         \
        T x, y, z;                                                                           \
    };                                                                                       \
    struct alignas(4 * sizeof(T) < 16 ? 4 * sizeof(T) : 16) name##4 {                        \
        T x, y, z, w;                                                                        \
    };                                                                                       \
    constexpr name##1 make_##name##1(T x) { return {x}; }                                    \
    constexpr name##2 make_##name##2(T x, T y) { return {x, y}; }                            \
    constexpr name##3 make_##name##3(T x, T y, T z) { return {x, y, z}; }                    \
    constexpr name##4 make_##name##4(T x, T y, T z, T w) { return {x, y, z, w}; }

// CUDA 13 deprecates the 16-byte-aligned 4 x 8-byte types in favour of these two spellings of
// their alignment; both are here, and the old names stay (simt does not warn).
#define SIMT_SIM_VECTOR_ALIGNED4(name, T, align)                                              \
    struct alignas(align) name##4_##align##a {                                                \
        T x, y, z, w;                                                                        \
    };                                                                                       \
    constexpr name##4_##align##a make_##name##4_##align##a(T x, T y, T z, T w) {             \
        return {x, y, z, w};                                                                 \
    }

SIMT_SIM_VECTOR_FAMILY(char, signed char)
SIMT_SIM_VECTOR_FAMILY(uchar, unsigned char)
SIMT_SIM_VECTOR_FAMILY(short, short)
SIMT_SIM_VECTOR_FAMILY(ushort, unsigned short)
SIMT_SIM_VECTOR_FAMILY(int, int)
SIMT_SIM_VECTOR_FAMILY(uint, unsigned)
SIMT_SIM_VECTOR_FAMILY(long, long)
SIMT_SIM_VECTOR_FAMILY(ulong, unsigned long)
SIMT_SIM_VECTOR_FAMILY(longlong, long long)
SIMT_SIM_VECTOR_FAMILY(ulonglong, unsigned long long)
SIMT_SIM_VECTOR_FAMILY(float, float)
SIMT_SIM_VECTOR_FAMILY(double, double)
#define SIMT_SIM_VECTOR_ALIGNED4_BOTH(name, T) \
    SIMT_SIM_VECTOR_ALIGNED4(name, T, 16) SIMT_SIM_VECTOR_ALIGNED4(name, T, 32)
SIMT_SIM_VECTOR_ALIGNED4_BOTH(long, long)
SIMT_SIM_VECTOR_ALIGNED4_BOTH(ulong, unsigned long)
SIMT_SIM_VECTOR_ALIGNED4_BOTH(longlong, long long)
SIMT_SIM_VECTOR_ALIGNED4_BOTH(ulonglong, unsigned long long)
SIMT_SIM_VECTOR_ALIGNED4_BOTH(double, double)
#undef SIMT_SIM_VECTOR_ALIGNED4_BOTH
#undef SIMT_SIM_VECTOR_ALIGNED4
#undef SIMT_SIM_VECTOR_FAMILY

static_assert(sizeof(float3) == 12 && alignof(float3) == 4 && alignof(float4) == 16);
static_assert(alignof(double2) == 16 && alignof(short4) == 8 && alignof(char2) == 2);

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
// in CUDA.
#ifdef __SANITIZE_THREAD__
// A file built with the raw-access instrumentation sees them read-only, as CUDA's own headers
// declare them (`extern const uint3 threadIdx`). GCC instruments no load of a read-only object, so
// reading them costs no hook call (one that would return at once: they are not device memory), and
// it keeps a value read once for the rest of the kernel, which is right: a CUDA thread's
// coordinates never change under it, and a fiber never leaves its OS thread. They are the very
// variables below, which the simulator's own files (never instrumented) define and write; the
// thread loop of an instrumented file writes threadIdx through thread_index() (thread_loop.hpp).
// The const is the one difference between the two declarations, and no compilation sees both:
// the library is built on its own, and so is each file (link-time optimisation across an
// instrumented file and an UNCHECKED one would see both).
extern constinit const thread_local uint3 threadIdx;
extern constinit const thread_local uint3 blockIdx;
extern constinit const thread_local dim3 blockDim;
extern constinit const thread_local dim3 gridDim;
#else
inline constinit thread_local uint3 threadIdx{};
inline constinit thread_local uint3 blockIdx{};
inline constinit thread_local dim3 blockDim{};
inline constinit thread_local dim3 gridDim{};
#endif
inline constexpr int warpSize = 32;
