// <cub/block/block_exchange.cuh> in a simulator build: cub::BlockExchange. Each rearrangement
// writes the items to TempStorage in the arrangement they come in, waits (__syncthreads(), or
// __syncwarp() for the warp-striped ones, whose items stay in their warp, as CUB's do) and reads
// them back in the arrangement asked for, so reusing the TempStorage needs the barrier CUB's
// documentation asks for.
#pragma once
#include <cub/detail/block_collective.cuh>

namespace cub {

template <typename InputT, int BLOCK_DIM_X, int ITEMS_PER_THREAD, bool WARP_TIME_SLICING = false,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockExchange {
    static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    static constexpr int TILE = BLOCK_THREADS * ITEMS_PER_THREAD;
    struct Shared {
        InputT items[TILE];
    };
    /// Where item i of this thread lies in the tile, by arrangement.
    enum class Layout { blocked, striped, warp_striped };

public:
    struct TempStorage : Uninitialized<Shared> {};

    /// With a private TempStorage (one per block, as CUB's static __shared__ one).
    __forceinline__ BlockExchange(detail::Loc loc = detail::Loc::current())
        : at_(nullptr, "cub::BlockExchange", loc) {}
    __forceinline__ BlockExchange(TempStorage& temp_storage, detail::Loc loc = detail::Loc::current())
        : at_(&temp_storage, "cub::BlockExchange", loc) {}

#define SIMT_CUB_EXCHANGE(Name, from, to)                                                        \
    template <typename OutputT>                                                                   \
    __forceinline__ void Name(const InputT (&input)[ITEMS_PER_THREAD],                            \
                              OutputT (&output)[ITEMS_PER_THREAD]) {                              \
        exchange(input, output, Layout::from, Layout::to);                                        \
    }                                                                                             \
    __forceinline__ void Name(InputT (&items)[ITEMS_PER_THREAD]) {                                \
        exchange(items, items, Layout::from, Layout::to);                                         \
    }
    SIMT_CUB_EXCHANGE(StripedToBlocked, striped, blocked)
    SIMT_CUB_EXCHANGE(BlockedToStriped, blocked, striped)
    SIMT_CUB_EXCHANGE(WarpStripedToBlocked, warp_striped, blocked)
    SIMT_CUB_EXCHANGE(BlockedToWarpStriped, blocked, warp_striped)
#undef SIMT_CUB_EXCHANGE

    /// Item i goes to rank ranks[i] of the tile; each thread then holds its blocked items.
    template <typename OutputT, typename OffsetT>
    __forceinline__ void ScatterToBlocked(const InputT (&input)[ITEMS_PER_THREAD],
                                          OutputT (&output)[ITEMS_PER_THREAD],
                                          OffsetT (&ranks)[ITEMS_PER_THREAD]) {
        scatter(input, output, ranks, Layout::blocked);
    }
    template <typename OffsetT>
    __forceinline__ void ScatterToBlocked(InputT (&items)[ITEMS_PER_THREAD],
                                          OffsetT (&ranks)[ITEMS_PER_THREAD]) {
        scatter(items, items, ranks, Layout::blocked);
    }
    /// Item i goes to rank ranks[i]; each thread then holds its striped items.
    template <typename OutputT, typename OffsetT>
    __forceinline__ void ScatterToStriped(const InputT (&input)[ITEMS_PER_THREAD],
                                          OutputT (&output)[ITEMS_PER_THREAD],
                                          OffsetT (&ranks)[ITEMS_PER_THREAD]) {
        scatter(input, output, ranks, Layout::striped);
    }
    template <typename OffsetT>
    __forceinline__ void ScatterToStriped(InputT (&items)[ITEMS_PER_THREAD],
                                          OffsetT (&ranks)[ITEMS_PER_THREAD]) {
        scatter(items, items, ranks, Layout::striped);
    }

private:
    __forceinline__ int position(Layout layout, int i) const {
        switch (layout) {
            case Layout::blocked: return at_.tid * ITEMS_PER_THREAD + i;
            case Layout::striped: return i * BLOCK_THREADS + at_.tid;
            case Layout::warp_striped:
                return at_.tid / 32 * 32 * ITEMS_PER_THREAD + i * 32 + at_.tid % 32;
        }
        return 0;
    }

    /// The barrier between the writes and the reads: the warp's when both arrangements keep
    /// items in their warp, else the block's.
    __forceinline__ void wait(Layout from, Layout to) {
        if (from == Layout::warp_striped || to == Layout::warp_striped)
            __syncwarp(detail::existing_lanes(), at_.loc);
        else
            __syncthreads(at_.loc);
    }

    template <typename In, typename Out>
    __forceinline__ void exchange(In& input, Out& output, Layout from, Layout to) {
        for (int i = 0; i < ITEMS_PER_THREAD; ++i) at_.storage.items[position(from, i)] = input[i];
        wait(from, to);
        for (int i = 0; i < ITEMS_PER_THREAD; ++i) output[i] = at_.storage.items[position(to, i)];
    }

    template <typename In, typename Out, typename Ranks>
    __forceinline__ void scatter(In& input, Out& output, Ranks& ranks, Layout to) {
        for (int i = 0; i < ITEMS_PER_THREAD; ++i) at_.storage.items[ranks[i]] = input[i];
        __syncthreads(at_.loc);
        for (int i = 0; i < ITEMS_PER_THREAD; ++i) output[i] = at_.storage.items[position(to, i)];
    }

    detail::BlockCollective<Shared, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z> at_;
};

}  // namespace cub
