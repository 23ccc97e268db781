// <cub/block/block_reduce.cuh> in a simulator build: cub::BlockReduce as CUB's default form
// (BLOCK_REDUCE_WARP_REDUCTIONS): each warp reduces by shuffles, lane 0 of each warp writes its
// warp's result to TempStorage, __syncthreads(), and thread 0 combines them in warp order. The
// result is thread 0's. Every algorithm name is accepted and runs this form (the result is the
// same; the order of a non-associative op's steps may differ from CUB's).
#pragma once
#include <cub/detail/block_collective.cuh>
#include <cub/warp/warp_reduce.cuh>

namespace cub {

enum BlockReduceAlgorithm {
    BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY,
    BLOCK_REDUCE_RAKING,
    BLOCK_REDUCE_WARP_REDUCTIONS,
};

template <typename T, int BLOCK_DIM_X,
          BlockReduceAlgorithm ALGORITHM = BLOCK_REDUCE_WARP_REDUCTIONS, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockReduce {
    static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    static constexpr int WARPS = (BLOCK_THREADS + 31) / 32;
    struct Shared {
        T warp_aggregates[WARPS];
    };

public:
    struct TempStorage : Uninitialized<Shared> {};

    /// With a private TempStorage (one per block, as CUB's static __shared__ one).
    __forceinline__ BlockReduce(detail::Loc loc = detail::Loc::current())
        : at_(nullptr, "cub::BlockReduce", loc) {}
    __forceinline__ BlockReduce(TempStorage& temp_storage, detail::Loc loc = detail::Loc::current())
        : at_(&temp_storage, "cub::BlockReduce", loc) {}

    __forceinline__ T Sum(T input) { return Reduce(input, cub::Sum{}, BLOCK_THREADS); }
    __forceinline__ T Sum(T input, int num_valid) { return Reduce(input, cub::Sum{}, num_valid); }
    template <int ITEMS_PER_THREAD>
    __forceinline__ T Sum(T (&inputs)[ITEMS_PER_THREAD]) {
        return Reduce(inputs, cub::Sum{});
    }

    template <typename ReductionOp>
    __forceinline__ T Reduce(T input, ReductionOp op) {
        return Reduce(input, op, BLOCK_THREADS);
    }
    template <int ITEMS_PER_THREAD, typename ReductionOp>
    __forceinline__ T Reduce(T (&inputs)[ITEMS_PER_THREAD], ReductionOp op) {
        T partial = inputs[0];
        for (int i = 1; i < ITEMS_PER_THREAD; ++i) partial = op(partial, inputs[i]);
        return Reduce(partial, op, BLOCK_THREADS);
    }
    /// Over the first `num_valid` threads' inputs; thread 0 gets the result.
    template <typename ReductionOp>
    __forceinline__ T Reduce(T input, ReductionOp op, int num_valid) {
        detail::LogicalWarp<32> warp(at_.loc);
        int warp_id = at_.tid / 32;
        int warp_valid = num_valid - warp_id * 32;
        T partial = warp.reduce(input, op, warp_valid);
        if (warp.lane == 0 && warp_valid > 0) at_.storage.warp_aggregates[warp_id] = partial;
        __syncthreads(at_.loc);
        if (at_.tid == 0)
            for (int w = 1; w < WARPS && w * 32 < num_valid; ++w)
                partial = op(partial, at_.storage.warp_aggregates[w]);
        return partial;
    }

private:
    detail::BlockCollective<Shared, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z> at_;
};

}  // namespace cub
