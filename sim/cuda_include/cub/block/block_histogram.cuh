// <cub/block/block_histogram.cuh> in a simulator build: cub::BlockHistogram over a histogram in
// the program's shared memory: InitHistogram zeroes it (the block's threads striding over the
// bins), Composite adds the items with shared-memory atomicAdd, Histogram does both with a
// __syncthreads() between. With BLOCK_HISTO_SORT (the default), Composite first passes the items
// through TempStorage with a __syncthreads(), as CUB's sorting form does, so that two Composites
// without a barrier between race there as they would on a GPU; BLOCK_HISTO_ATOMIC adds its own
// items directly.
#pragma once
#include <cub/detail/block_collective.cuh>

namespace cub {

enum BlockHistogramAlgorithm {
    BLOCK_HISTO_SORT,
    BLOCK_HISTO_ATOMIC,
};

template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, int BINS,
          BlockHistogramAlgorithm ALGORITHM = BLOCK_HISTO_SORT, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockHistogram {
    static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;

    static constexpr bool SORTS = ALGORITHM == BLOCK_HISTO_SORT;
    struct Shared {
        T items[SORTS ? BLOCK_THREADS * ITEMS_PER_THREAD : 1];
    };

public:
    struct TempStorage : Uninitialized<Shared> {};

    /// With a private TempStorage (one per block, as CUB's static __shared__ one).
    __forceinline__ BlockHistogram(detail::Loc loc = detail::Loc::current())
        : at_(nullptr, "cub::BlockHistogram", loc) {}
    __forceinline__ BlockHistogram(TempStorage& temp_storage, detail::Loc loc = detail::Loc::current())
        : at_(&temp_storage, "cub::BlockHistogram", loc) {}

    template <typename CounterT>
    __forceinline__ void InitHistogram(CounterT histogram[BINS]) {
        for (int b = at_.tid; b < BINS; b += BLOCK_THREADS) histogram[b] = 0;
    }

    /// Counts the block's items into `histogram`, zeroed first.
    template <typename CounterT>
    __forceinline__ void Histogram(T (&items)[ITEMS_PER_THREAD], CounterT histogram[BINS]) {
        InitHistogram(histogram);
        __syncthreads(at_.loc);
        Composite(items, histogram);
    }

    /// Adds the block's items to the counts already in `histogram`.
    template <typename CounterT>
    __forceinline__ void Composite(T (&items)[ITEMS_PER_THREAD], CounterT histogram[BINS]) {
        if constexpr (SORTS) {
            // Blocked in, striped out: each thread counts items other threads wrote.
            for (int i = 0; i < ITEMS_PER_THREAD; ++i)
                at_.storage.items[at_.tid * ITEMS_PER_THREAD + i] = items[i];
            __syncthreads(at_.loc);
            for (int i = 0; i < ITEMS_PER_THREAD; ++i)
                atomicAdd(&histogram[static_cast<int>(at_.storage.items[i * BLOCK_THREADS + at_.tid])],
                          CounterT(1));
        } else {
            for (int i = 0; i < ITEMS_PER_THREAD; ++i)
                atomicAdd(&histogram[static_cast<int>(items[i])], CounterT(1));
        }
    }

private:
    detail::BlockCollective<Shared, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z> at_;
};

}  // namespace cub
