// <cub/thread/thread_operators.cuh> in a simulator build: CUB's reduction operators. CUB 3 (the
// toolkit's) dropped Sum, Max and Min for cuda::std::plus and friends; simt keeps them for code
// written against CUB 1 and 2.
#pragma once
#include <cub/util_type.cuh>

namespace cub {

struct Sum {
    template <typename T, typename U>
    __host__ __device__ auto operator()(const T& a, const U& b) const { return a + b; }
};
struct Max {
    template <typename T, typename U>
    __host__ __device__ auto operator()(const T& a, const U& b) const { return b > a ? b : a; }
};
struct Min {
    template <typename T, typename U>
    __host__ __device__ auto operator()(const T& a, const U& b) const { return b < a ? b : a; }
};
struct Equality {
    template <typename T, typename U>
    __host__ __device__ bool operator()(const T& a, const U& b) const { return a == b; }
};
struct Inequality {
    template <typename T, typename U>
    __host__ __device__ bool operator()(const T& a, const U& b) const { return a != b; }
};
/// The pair with the greater value; of equal values, the lower key (index), as CUB's.
struct ArgMax {
    template <typename T, typename OffsetT>
    __host__ __device__ KeyValuePair<OffsetT, T> operator()(const KeyValuePair<OffsetT, T>& a,
                                                            const KeyValuePair<OffsetT, T>& b) const {
        if ((b.value > a.value) || ((a.value == b.value) && (b.key < a.key))) return b;
        return a;
    }
};
/// The pair with the lower value; of equal values, the lower key (index).
struct ArgMin {
    template <typename T, typename OffsetT>
    __host__ __device__ KeyValuePair<OffsetT, T> operator()(const KeyValuePair<OffsetT, T>& a,
                                                            const KeyValuePair<OffsetT, T>& b) const {
        if ((b.value < a.value) || ((a.value == b.value) && (b.key < a.key))) return b;
        return a;
    }
};

}  // namespace cub
