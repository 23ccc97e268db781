// <cub/block/block_store.cuh> in a simulator build: cub::BlockStore and the direct stores, the
// mirror of block_load.cuh (the transposing forms go through TempStorage with a __syncthreads()).
#pragma once
#include <cub/detail/block_collective.cuh>

namespace cub {

enum BlockStoreAlgorithm {
    BLOCK_STORE_DIRECT,
    BLOCK_STORE_STRIPED,
    BLOCK_STORE_VECTORIZE,
    BLOCK_STORE_TRANSPOSE,
    BLOCK_STORE_WARP_TRANSPOSE,
    BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED,
};

template <typename T, int N, typename OutputIteratorT>
__forceinline__ void StoreDirectBlocked(int linear_tid, OutputIteratorT it, T (&items)[N]) {
    for (int i = 0; i < N; ++i) it[linear_tid * N + i] = items[i];
}
template <typename T, int N, typename OutputIteratorT>
__forceinline__ void StoreDirectBlocked(int linear_tid, OutputIteratorT it, T (&items)[N],
                                        int valid_items) {
    for (int i = 0; i < N; ++i)
        if (linear_tid * N + i < valid_items) it[linear_tid * N + i] = items[i];
}
template <typename T, int N>
__forceinline__ void StoreDirectBlockedVectorized(int linear_tid, T* it, T (&items)[N]) {
    StoreDirectBlocked(linear_tid, it, items);
}
template <int BLOCK_THREADS, typename T, int N, typename OutputIteratorT>
__forceinline__ void StoreDirectStriped(int linear_tid, OutputIteratorT it, T (&items)[N]) {
    for (int i = 0; i < N; ++i) it[i * BLOCK_THREADS + linear_tid] = items[i];
}
template <int BLOCK_THREADS, typename T, int N, typename OutputIteratorT>
__forceinline__ void StoreDirectStriped(int linear_tid, OutputIteratorT it, T (&items)[N],
                                        int valid_items) {
    for (int i = 0; i < N; ++i)
        if (i * BLOCK_THREADS + linear_tid < valid_items)
            it[i * BLOCK_THREADS + linear_tid] = items[i];
}
template <typename T, int N, typename OutputIteratorT>
__forceinline__ void StoreDirectWarpStriped(int linear_tid, OutputIteratorT it, T (&items)[N]) {
    int lane = linear_tid % 32, base = linear_tid / 32 * 32 * N;
    for (int i = 0; i < N; ++i) it[base + i * 32 + lane] = items[i];
}
template <typename T, int N, typename OutputIteratorT>
__forceinline__ void StoreDirectWarpStriped(int linear_tid, OutputIteratorT it, T (&items)[N],
                                            int valid_items) {
    int lane = linear_tid % 32, base = linear_tid / 32 * 32 * N;
    for (int i = 0; i < N; ++i)
        if (base + i * 32 + lane < valid_items) it[base + i * 32 + lane] = items[i];
}

template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD,
          BlockStoreAlgorithm ALGORITHM = BLOCK_STORE_DIRECT, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockStore {
    static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    static constexpr bool TRANSPOSES = ALGORITHM == BLOCK_STORE_TRANSPOSE ||
                                       ALGORITHM == BLOCK_STORE_WARP_TRANSPOSE ||
                                       ALGORITHM == BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED;
    struct Shared {
        T items[TRANSPOSES ? BLOCK_THREADS * ITEMS_PER_THREAD : 1];
    };

public:
    struct TempStorage : Uninitialized<Shared> {};

    /// With a private TempStorage (one per block, as CUB's static __shared__ one).
    __forceinline__ BlockStore(detail::Loc loc = detail::Loc::current())
        : at_(nullptr, "cub::BlockStore", loc) {}
    __forceinline__ BlockStore(TempStorage& temp_storage, detail::Loc loc = detail::Loc::current())
        : at_(&temp_storage, "cub::BlockStore", loc) {}

    /// Writes the block's items (blocked; striped for BLOCK_STORE_STRIPED) to the tile.
    template <typename OutputIteratorT>
    __forceinline__ void Store(OutputIteratorT it, T (&items)[ITEMS_PER_THREAD]) {
        store(it, items, BLOCK_THREADS * ITEMS_PER_THREAD);
    }
    /// Only the tile's first `valid_items`.
    template <typename OutputIteratorT>
    __forceinline__ void Store(OutputIteratorT it, T (&items)[ITEMS_PER_THREAD], int valid_items) {
        store(it, items, valid_items);
    }

private:
    template <typename OutputIteratorT>
    __forceinline__ void store(OutputIteratorT it, T (&items)[ITEMS_PER_THREAD], int valid) {
        if constexpr (ALGORITHM == BLOCK_STORE_STRIPED) {
            StoreDirectStriped<BLOCK_THREADS>(at_.tid, it, items, valid);
        } else if constexpr (TRANSPOSES) {
            // Blocked to striped through shared memory, then striped writes.
            T striped[ITEMS_PER_THREAD];
            for (int i = 0; i < ITEMS_PER_THREAD; ++i)
                if (at_.tid * ITEMS_PER_THREAD + i < valid)
                    at_.storage.items[at_.tid * ITEMS_PER_THREAD + i] = items[i];
            __syncthreads(at_.loc);
            for (int i = 0; i < ITEMS_PER_THREAD; ++i)
                if (i * BLOCK_THREADS + at_.tid < valid)
                    striped[i] = at_.storage.items[i * BLOCK_THREADS + at_.tid];
            StoreDirectStriped<BLOCK_THREADS>(at_.tid, it, striped, valid);
        } else {
            StoreDirectBlocked(at_.tid, it, items, valid);
        }
    }

    detail::BlockCollective<Shared, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z> at_;
};

}  // namespace cub
