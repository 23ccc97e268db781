// <cub/block/block_radix_sort.cuh> in a simulator build: cub::BlockRadixSort. Every thread
// writes its keys (and values) to TempStorage, __syncthreads(), thread 0 sorts the tile stably by
// the keys' bits [begin_bit, end_bit) as CUB orders them (integers by value, floats by value with
// -0.0 before +0.0), __syncthreads(), and every thread reads its sorted items back. The order is
// CUB's; the steps are not its digit passes (a block runs on one core here, where one sort is the
// fastest way through the simulator).
#pragma once
#include <cub/detail/block_collective.cuh>

#include <algorithm>
#include <numeric>
#include <vector>

namespace cub {

template <typename KeyT, int BLOCK_DIM_X, int ITEMS_PER_THREAD, typename ValueT = NullType,
          int RADIX_BITS = 4, bool MEMOIZE_OUTER_SCAN = true, int INNER_SCAN_ALGORITHM = 0,
          int SMEM_CONFIG = 0, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockRadixSort {
    static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    static constexpr int TILE = BLOCK_THREADS * ITEMS_PER_THREAD;
    static constexpr bool KEYS_ONLY = std::is_same_v<ValueT, NullType>;
    struct Shared {
        KeyT keys[TILE];
        ValueT values[KEYS_ONLY ? 1 : TILE];
    };

public:
    struct TempStorage : Uninitialized<Shared> {};

    /// With a private TempStorage (one per block, as CUB's static __shared__ one).
    __forceinline__ BlockRadixSort(detail::Loc loc = detail::Loc::current())
        : at_(nullptr, "cub::BlockRadixSort", loc) {}
    __forceinline__ BlockRadixSort(TempStorage& temp_storage, detail::Loc loc = detail::Loc::current())
        : at_(&temp_storage, "cub::BlockRadixSort", loc) {}

    __forceinline__ void Sort(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0,
                              int end_bit = sizeof(KeyT) * 8) {
        ValueT* none = nullptr;
        sort(keys, none, begin_bit, end_bit, false, false);
    }
    __forceinline__ void Sort(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD],
                              int begin_bit = 0, int end_bit = sizeof(KeyT) * 8) {
        sort(keys, values, begin_bit, end_bit, false, false);
    }
    __forceinline__ void SortDescending(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0,
                                        int end_bit = sizeof(KeyT) * 8) {
        ValueT* none = nullptr;
        sort(keys, none, begin_bit, end_bit, true, false);
    }
    __forceinline__ void SortDescending(KeyT (&keys)[ITEMS_PER_THREAD],
                                        ValueT (&values)[ITEMS_PER_THREAD], int begin_bit = 0,
                                        int end_bit = sizeof(KeyT) * 8) {
        sort(keys, values, begin_bit, end_bit, true, false);
    }
    /// The sorted tile in a striped arrangement (thread t holds ranks t, t+BLOCK_THREADS, ...).
    __forceinline__ void SortBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0,
                                              int end_bit = sizeof(KeyT) * 8) {
        ValueT* none = nullptr;
        sort(keys, none, begin_bit, end_bit, false, true);
    }
    __forceinline__ void SortBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD],
                                              ValueT (&values)[ITEMS_PER_THREAD],
                                              int begin_bit = 0, int end_bit = sizeof(KeyT) * 8) {
        sort(keys, values, begin_bit, end_bit, false, true);
    }
    __forceinline__ void SortDescendingBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD],
                                                        int begin_bit = 0,
                                                        int end_bit = sizeof(KeyT) * 8) {
        ValueT* none = nullptr;
        sort(keys, none, begin_bit, end_bit, true, true);
    }
    __forceinline__ void SortDescendingBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD],
                                                        ValueT (&values)[ITEMS_PER_THREAD],
                                                        int begin_bit = 0,
                                                        int end_bit = sizeof(KeyT) * 8) {
        sort(keys, values, begin_bit, end_bit, true, true);
    }

private:
    template <typename Values>
    __forceinline__ void sort(KeyT (&keys)[ITEMS_PER_THREAD], Values& values, int begin_bit,
                              int end_bit, bool descending, bool to_striped) {
        constexpr bool with_values = !std::is_pointer_v<Values>;
        for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
            at_.storage.keys[at_.tid * ITEMS_PER_THREAD + i] = keys[i];
            if constexpr (with_values) at_.storage.values[at_.tid * ITEMS_PER_THREAD + i] = values[i];
        }
        __syncthreads(at_.loc);
        if (at_.tid == 0) sort_tile<with_values>(begin_bit, end_bit, descending);
        __syncthreads(at_.loc);
        for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
            int at = to_striped ? i * BLOCK_THREADS + at_.tid : at_.tid * ITEMS_PER_THREAD + i;
            keys[i] = at_.storage.keys[at];
            if constexpr (with_values) values[i] = at_.storage.values[at];
        }
    }

    template <bool with_values>
    void sort_tile(int begin_bit, int end_bit, bool descending) {
        // On the heap: a fiber's stack is small, and a tile may hold thousands of keys.
        std::vector<KeyT> tile_keys(at_.storage.keys, at_.storage.keys + TILE);
        std::vector<int> order(TILE);
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
            return detail::radix_less(tile_keys[a], tile_keys[b], begin_bit, end_bit, descending);
        });
        for (int i = 0; i < TILE; ++i) at_.storage.keys[i] = tile_keys[order[i]];
        if constexpr (with_values) {
            std::vector<ValueT> tile_values(at_.storage.values, at_.storage.values + TILE);
            for (int i = 0; i < TILE; ++i) at_.storage.values[i] = tile_values[order[i]];
        }
    }

    detail::BlockCollective<Shared, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z> at_;
};

}  // namespace cub
