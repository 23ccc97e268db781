// What simt's CUB collectives share: the calling thread's place in its block and warp, the
// shuffle of any trivially copyable value (word by word, as CUB's ShuffleIndex does), and the
// check that a block collective's declared size is the block's.
//
// The collectives are written over CUDA's own primitives (__shfl_sync, __syncthreads, shared
// TempStorage), so that simt checks them as it checks the program: a TempStorage reused without
// the __syncthreads() CUB's documentation asks for is a data race, a collective called by part of
// a block a divergent barrier. Every member is always inlined, so that a report names the line of
// the program that called it (simt skips its headers' frames).
#pragma once
#include <cuda_runtime.h>
#include <simt/sim/cooperative/thread_group.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

namespace cub {
namespace detail {

using Loc = ::simt::sim::Loc;

/// The thread's rank in a block of BLOCK_DIM_X x BLOCK_DIM_Y x BLOCK_DIM_Z, x fastest (CUB's
/// RowMajorTid).
template <int BLOCK_DIM_X, int BLOCK_DIM_Y, int BLOCK_DIM_Z>
__forceinline__ int row_major_tid() {
    return static_cast<int>(
        (BLOCK_DIM_Z == 1 ? 0 : threadIdx.z * BLOCK_DIM_X * BLOCK_DIM_Y) +
        (BLOCK_DIM_Y == 1 ? 0 : threadIdx.y * BLOCK_DIM_X) + threadIdx.x);
}

/// A block collective declared for one block shape and used in another computes wrong ranks on
/// a GPU (and reads or writes past its TempStorage): stop the block and say so.
inline void check_block_shape(const char* collective, int x, int y, int z, Loc loc) {
    if (static_cast<int>(blockDim.x) == x && static_cast<int>(blockDim.y) == y &&
        static_cast<int>(blockDim.z) == z)
        return;
    ::simt::sim::detail::group_misuse(
        std::string(collective) + " is declared for blocks of (" + std::to_string(x) + "," +
            std::to_string(y) + "," + std::to_string(z) + ") threads, but this block is (" +
            std::to_string(blockDim.x) + "," + std::to_string(blockDim.y) + "," +
            std::to_string(blockDim.z) +
            "): give its BLOCK_DIM_X (and _Y, _Z) template arguments the launch's block size",
        loc);
}

/// The lanes of the caller's physical warp that exist: a block whose size is not a multiple of
/// 32 has a last warp with fewer lanes.
__forceinline__ unsigned existing_lanes() {
    unsigned tid = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
    unsigned threads = blockDim.x * blockDim.y * blockDim.z;
    unsigned here = threads - (tid & ~31u);
    return here >= 32 ? 0xffffffffu : (1u << here) - 1;
}

/// `value` as held by logical lane `src` of the caller's logical warp of `width` lanes.
template <class T>
__forceinline__ T shuffle(unsigned mask, const T& value, int src, int width, Loc loc) {
    if constexpr (::simt::sim::detail::shuffle_value<T>) {
        return __shfl_sync(mask, value, src, width, loc);
    } else {
        static_assert(std::is_trivially_copyable_v<T>,
                      "simt's CUB shuffles values word by word: T must be trivially copyable");
        constexpr int words = (sizeof(T) + 3) / 4;
        unsigned w[words] = {};
        __builtin_memcpy(w, &value, sizeof(T));
        for (int i = 0; i < words; ++i) w[i] = __shfl_sync(mask, w[i], src, width, loc);
        T out = value;
        __builtin_memcpy(&out, w, sizeof(T));
        return out;
    }
}

/// Storage for a T that need not be default-constructible, as CUB's Uninitialized.
template <class T>
struct alignas(T) Raw {
    unsigned char bytes[sizeof(T)];
    __forceinline__ T& get() { return *reinterpret_cast<T*>(bytes); }
};

}  // namespace detail
}  // namespace cub
