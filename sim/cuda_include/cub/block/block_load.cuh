// <cub/block/block_load.cuh> in a simulator build: cub::BlockLoad and the direct loads. Each
// thread reads its items at the program's line; the transposing forms go through TempStorage
// with a __syncthreads(), as CUB's BlockExchange does, so that reusing it needs the barrier CUB's
// documentation asks for.
#pragma once
#include <cub/detail/block_collective.cuh>

#include <iterator>

namespace cub {

enum BlockLoadAlgorithm {
    BLOCK_LOAD_DIRECT,
    BLOCK_LOAD_STRIPED,
    BLOCK_LOAD_VECTORIZE,
    BLOCK_LOAD_TRANSPOSE,
    BLOCK_LOAD_WARP_TRANSPOSE,
    BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED,
};

/// Thread t reads items t*N .. t*N+N-1 (a blocked arrangement).
template <typename T, int N, typename InputIteratorT>
__forceinline__ void LoadDirectBlocked(int linear_tid, InputIteratorT it, T (&items)[N]) {
    for (int i = 0; i < N; ++i) items[i] = it[linear_tid * N + i];
}
template <typename T, int N, typename InputIteratorT>
__forceinline__ void LoadDirectBlocked(int linear_tid, InputIteratorT it, T (&items)[N],
                                       int valid_items) {
    for (int i = 0; i < N; ++i)
        if (linear_tid * N + i < valid_items) items[i] = it[linear_tid * N + i];
}
template <typename T, typename DefaultT, int N, typename InputIteratorT>
__forceinline__ void LoadDirectBlocked(int linear_tid, InputIteratorT it, T (&items)[N],
                                       int valid_items, DefaultT oob_default) {
    for (int i = 0; i < N; ++i) items[i] = oob_default;
    LoadDirectBlocked(linear_tid, it, items, valid_items);
}
template <typename T, int N>
__forceinline__ void LoadDirectBlockedVectorized(int linear_tid, T* it, T (&items)[N]) {
    LoadDirectBlocked(linear_tid, it, items);
}

/// Thread t reads items t, t+BLOCK_THREADS, ... (a striped arrangement).
template <int BLOCK_THREADS, typename T, int N, typename InputIteratorT>
__forceinline__ void LoadDirectStriped(int linear_tid, InputIteratorT it, T (&items)[N]) {
    for (int i = 0; i < N; ++i) items[i] = it[i * BLOCK_THREADS + linear_tid];
}
template <int BLOCK_THREADS, typename T, int N, typename InputIteratorT>
__forceinline__ void LoadDirectStriped(int linear_tid, InputIteratorT it, T (&items)[N],
                                       int valid_items) {
    for (int i = 0; i < N; ++i)
        if (i * BLOCK_THREADS + linear_tid < valid_items)
            items[i] = it[i * BLOCK_THREADS + linear_tid];
}
template <int BLOCK_THREADS, typename T, typename DefaultT, int N, typename InputIteratorT>
__forceinline__ void LoadDirectStriped(int linear_tid, InputIteratorT it, T (&items)[N],
                                       int valid_items, DefaultT oob_default) {
    for (int i = 0; i < N; ++i) items[i] = oob_default;
    LoadDirectStriped<BLOCK_THREADS>(linear_tid, it, items, valid_items);
}

/// Within each warp, lane l reads items l, l+32, ... of the warp's 32*N (warp-striped).
template <typename T, int N, typename InputIteratorT>
__forceinline__ void LoadDirectWarpStriped(int linear_tid, InputIteratorT it, T (&items)[N]) {
    int lane = linear_tid % 32, base = linear_tid / 32 * 32 * N;
    for (int i = 0; i < N; ++i) items[i] = it[base + i * 32 + lane];
}
template <typename T, int N, typename InputIteratorT>
__forceinline__ void LoadDirectWarpStriped(int linear_tid, InputIteratorT it, T (&items)[N],
                                           int valid_items) {
    int lane = linear_tid % 32, base = linear_tid / 32 * 32 * N;
    for (int i = 0; i < N; ++i)
        if (base + i * 32 + lane < valid_items) items[i] = it[base + i * 32 + lane];
}

template <typename InputT, int BLOCK_DIM_X, int ITEMS_PER_THREAD,
          BlockLoadAlgorithm ALGORITHM = BLOCK_LOAD_DIRECT, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockLoad {
    static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    static constexpr bool TRANSPOSES = ALGORITHM == BLOCK_LOAD_TRANSPOSE ||
                                       ALGORITHM == BLOCK_LOAD_WARP_TRANSPOSE ||
                                       ALGORITHM == BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED;
    struct Shared {
        InputT items[TRANSPOSES ? BLOCK_THREADS * ITEMS_PER_THREAD : 1];
    };

public:
    struct TempStorage : Uninitialized<Shared> {};

    /// With a private TempStorage (one per block, as CUB's static __shared__ one).
    __forceinline__ BlockLoad(detail::Loc loc = detail::Loc::current())
        : at_(nullptr, "cub::BlockLoad", loc) {}
    __forceinline__ BlockLoad(TempStorage& temp_storage, detail::Loc loc = detail::Loc::current())
        : at_(&temp_storage, "cub::BlockLoad", loc) {}

    /// The tile's BLOCK_THREADS * ITEMS_PER_THREAD items, blocked (striped for BLOCK_LOAD_STRIPED).
    template <typename InputIteratorT>
    __forceinline__ void Load(InputIteratorT it, InputT (&items)[ITEMS_PER_THREAD]) {
        load(it, items, BLOCK_THREADS * ITEMS_PER_THREAD);
    }
    /// Only the first `valid_items` of the tile; the other items are left as they were.
    template <typename InputIteratorT>
    __forceinline__ void Load(InputIteratorT it, InputT (&items)[ITEMS_PER_THREAD],
                              int valid_items) {
        load(it, items, valid_items);
    }
    /// Only the first `valid_items`; the others are `oob_default`.
    template <typename InputIteratorT, typename DefaultT>
    __forceinline__ void Load(InputIteratorT it, InputT (&items)[ITEMS_PER_THREAD],
                              int valid_items, DefaultT oob_default) {
        load(it, items, valid_items);
        for (int i = 0; i < ITEMS_PER_THREAD; ++i)
            if (position(i) >= valid_items) items[i] = oob_default;
    }

private:
    /// Where item i of this thread lies in the tile.
    __forceinline__ int position(int i) const {
        return ALGORITHM == BLOCK_LOAD_STRIPED ? i * BLOCK_THREADS + at_.tid
                                               : at_.tid * ITEMS_PER_THREAD + i;
    }

    template <typename InputIteratorT>
    __forceinline__ void load(InputIteratorT it, InputT (&items)[ITEMS_PER_THREAD], int valid) {
        if constexpr (ALGORITHM == BLOCK_LOAD_STRIPED) {
            LoadDirectStriped<BLOCK_THREADS>(at_.tid, it, items, valid);
        } else if constexpr (TRANSPOSES) {
            // Striped reads (coalesced on a GPU), then through shared memory to blocked.
            LoadDirectStriped<BLOCK_THREADS>(at_.tid, it, items, valid);
            for (int i = 0; i < ITEMS_PER_THREAD; ++i)
                if (i * BLOCK_THREADS + at_.tid < valid)
                    at_.storage.items[i * BLOCK_THREADS + at_.tid] = items[i];
            __syncthreads(at_.loc);
            for (int i = 0; i < ITEMS_PER_THREAD; ++i)
                if (at_.tid * ITEMS_PER_THREAD + i < valid)
                    items[i] = at_.storage.items[at_.tid * ITEMS_PER_THREAD + i];
        } else {
            LoadDirectBlocked(at_.tid, it, items, valid);
        }
    }

    detail::BlockCollective<Shared, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z> at_;
};

}  // namespace cub
