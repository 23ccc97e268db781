// <cub/block/block_histogram.cuh> in a simulator build: cub::BlockHistogram over a histogram in
// the program's shared memory: InitHistogram zeroes it (the block's threads striding over the
// bins), Composite adds the items with shared-memory atomicAdd, Histogram does both with a
// __syncthreads() between. With BLOCK_HISTO_SORT (the default), Composite first passes the items
// through TempStorage with a __syncthreads(), as CUB's sorting form does, so that two Composites
// without a barrier between race there as they would on a GPU; BLOCK_HISTO_ATOMIC adds its own
// items directly.
#pragma once
#include <cub/util_type.cuh>

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

    __forceinline__ BlockHistogram(detail::Loc loc = detail::Loc::current())
        : BlockHistogram(private_storage(), loc) {}
    __forceinline__ BlockHistogram(TempStorage& temp_storage,
                                   detail::Loc loc = detail::Loc::current())
        : storage_(temp_storage.Alias()),
          tid_(detail::row_major_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()),
          loc_(loc) {
        detail::check_block_shape("cub::BlockHistogram", BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z,
                                  loc);
    }

    template <typename CounterT>
    __forceinline__ void InitHistogram(CounterT histogram[BINS]) {
        for (int b = tid_; b < BINS; b += BLOCK_THREADS) histogram[b] = 0;
    }

    /// Counts the block's items into `histogram`, zeroed first.
    template <typename CounterT>
    __forceinline__ void Histogram(T (&items)[ITEMS_PER_THREAD], CounterT histogram[BINS]) {
        InitHistogram(histogram);
        __syncthreads(loc_);
        Composite(items, histogram);
    }

    /// Adds the block's items to the counts already in `histogram`.
    template <typename CounterT>
    __forceinline__ void Composite(T (&items)[ITEMS_PER_THREAD], CounterT histogram[BINS]) {
        if constexpr (SORTS) {
            // Blocked in, striped out: each thread counts items other threads wrote.
            for (int i = 0; i < ITEMS_PER_THREAD; ++i)
                storage_.items[tid_ * ITEMS_PER_THREAD + i] = items[i];
            __syncthreads(loc_);
            for (int i = 0; i < ITEMS_PER_THREAD; ++i)
                atomicAdd(&histogram[static_cast<int>(storage_.items[i * BLOCK_THREADS + tid_])],
                          CounterT(1));
        } else {
            for (int i = 0; i < ITEMS_PER_THREAD; ++i)
                atomicAdd(&histogram[static_cast<int>(items[i])], CounterT(1));
        }
    }

private:
    static TempStorage& private_storage() {
        __shared__ TempStorage storage;
        return storage;
    }

    Shared& storage_;
    int tid_;
    detail::Loc loc_;
};

}  // namespace cub
