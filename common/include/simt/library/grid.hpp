// Numba's cuda.grid() and cuda.gridsize() for both backends.
#pragma once

#include "simt/api.hpp"

namespace simt {

/// The coordinates grid<2>() and grid<3>() return; `auto [x, y] = simt::grid<2>();` works.
template <int N>
struct GridIndex;
template <>
struct GridIndex<2> {
    int x, y;
};
template <>
struct GridIndex<3> {
    int x, y, z;
};

/// This thread's absolute position in the grid: blockIdx * blockDim + threadIdx, per dimension.
/// grid<1>() is an int; grid<2>() and grid<3>() are GridIndex with x, y(, z).
template <int N>
SIMT_DEVICE_FN auto grid() {
    static_assert(N >= 1 && N <= 3, "simt::grid<N>() takes N = 1, 2 or 3");
    int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if constexpr (N == 1) {
        return x;
    } else {
        int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
        if constexpr (N == 2)
            return GridIndex<2>{x, y};
        else
            return GridIndex<3>{x, y, static_cast<int>(blockIdx.z * blockDim.z + threadIdx.z)};
    }
}

/// The number of threads in the grid per dimension: gridDim * blockDim (the grid-stride step).
template <int N>
SIMT_DEVICE_FN auto gridsize() {
    static_assert(N >= 1 && N <= 3, "simt::gridsize<N>() takes N = 1, 2 or 3");
    int x = static_cast<int>(gridDim.x * blockDim.x);
    if constexpr (N == 1) {
        return x;
    } else {
        int y = static_cast<int>(gridDim.y * blockDim.y);
        if constexpr (N == 2)
            return GridIndex<2>{x, y};
        else
            return GridIndex<3>{x, y, static_cast<int>(gridDim.z * blockDim.z)};
    }
}

}  // namespace simt
