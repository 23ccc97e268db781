// <cub/block/block_discontinuity.cuh> in a simulator build: cub::BlockDiscontinuity. Each thread
// passes its first or last item to its neighbours through TempStorage with a __syncthreads(), as
// CUB's does; the flag operator is called as op(a, b) or, when it takes one, op(a, b, b_index).
#pragma once
#include <cub/detail/block_collective.cuh>

namespace cub {

template <typename T, int BLOCK_DIM_X, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1,
          int LEGACY_PTX_ARCH = 0>
class BlockDiscontinuity {
    static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    struct Shared {
        T first_items[BLOCK_THREADS];
        T last_items[BLOCK_THREADS];
    };

public:
    struct TempStorage : Uninitialized<Shared> {};

    /// With a private TempStorage (one per block, as CUB's static __shared__ one).
    __forceinline__ BlockDiscontinuity(detail::Loc loc = detail::Loc::current())
        : at_(nullptr, "cub::BlockDiscontinuity", loc) {}
    __forceinline__ BlockDiscontinuity(TempStorage& temp_storage, detail::Loc loc = detail::Loc::current())
        : at_(&temp_storage, "cub::BlockDiscontinuity", loc) {}

    /// head_flags[i]: whether item i differs from the one before it (the tile's first item is a
    /// head).
    template <int N, typename FlagT, typename FlagOp>
    __forceinline__ void FlagHeads(FlagT (&head_flags)[N], T (&input)[N], FlagOp flag_op) {
        heads(head_flags, input, flag_op, nullptr);
    }
    /// The same, the tile's first item compared with `tile_predecessor_item`.
    template <int N, typename FlagT, typename FlagOp>
    __forceinline__ void FlagHeads(FlagT (&head_flags)[N], T (&input)[N], FlagOp flag_op,
                                   T tile_predecessor_item) {
        heads(head_flags, input, flag_op, &tile_predecessor_item);
    }
    /// tail_flags[i]: whether item i differs from the one after it (the tile's last item is a
    /// tail).
    template <int N, typename FlagT, typename FlagOp>
    __forceinline__ void FlagTails(FlagT (&tail_flags)[N], T (&input)[N], FlagOp flag_op) {
        tails(tail_flags, input, flag_op, nullptr);
    }
    template <int N, typename FlagT, typename FlagOp>
    __forceinline__ void FlagTails(FlagT (&tail_flags)[N], T (&input)[N], FlagOp flag_op,
                                   T tile_successor_item) {
        tails(tail_flags, input, flag_op, &tile_successor_item);
    }

    template <int N, typename FlagT, typename FlagOp>
    __forceinline__ void FlagHeadsAndTails(FlagT (&head_flags)[N], FlagT (&tail_flags)[N],
                                           T (&input)[N], FlagOp flag_op) {
        both(head_flags, nullptr, tail_flags, nullptr, input, flag_op);
    }
    template <int N, typename FlagT, typename FlagOp>
    __forceinline__ void FlagHeadsAndTails(FlagT (&head_flags)[N], FlagT (&tail_flags)[N],
                                           T tile_successor_item, T (&input)[N], FlagOp flag_op) {
        both(head_flags, nullptr, tail_flags, &tile_successor_item, input, flag_op);
    }
    template <int N, typename FlagT, typename FlagOp>
    __forceinline__ void FlagHeadsAndTails(FlagT (&head_flags)[N], T tile_predecessor_item,
                                           FlagT (&tail_flags)[N], T (&input)[N], FlagOp flag_op) {
        both(head_flags, &tile_predecessor_item, tail_flags, nullptr, input, flag_op);
    }
    template <int N, typename FlagT, typename FlagOp>
    __forceinline__ void FlagHeadsAndTails(FlagT (&head_flags)[N], T tile_predecessor_item,
                                           FlagT (&tail_flags)[N], T tile_successor_item,
                                           T (&input)[N], FlagOp flag_op) {
        both(head_flags, &tile_predecessor_item, tail_flags, &tile_successor_item, input,
             flag_op);
    }

private:
    /// op(a, b), or op(a, b, b's index in the tile) for an operator that takes it.
    template <typename FlagOp>
    __forceinline__ bool apply(FlagOp& op, const T& a, const T& b, int b_index) {
        if constexpr (std::is_invocable_v<FlagOp&, const T&, const T&, int>)
            return op(a, b, b_index);
        else
            return op(a, b);
    }

    template <int N, typename FlagT, typename FlagOp>
    __forceinline__ void flag_heads(FlagT (&flags)[N], T (&input)[N], FlagOp& op,
                                    const T* predecessor) {
        const int base = at_.tid * N;
        if (at_.tid > 0) flags[0] = apply(op, at_.storage.last_items[at_.tid - 1], input[0], base);
        else flags[0] = predecessor ? apply(op, *predecessor, input[0], base) : true;
        for (int i = 1; i < N; ++i) flags[i] = apply(op, input[i - 1], input[i], base + i);
    }

    template <int N, typename FlagT, typename FlagOp>
    __forceinline__ void flag_tails(FlagT (&flags)[N], T (&input)[N], FlagOp& op,
                                    const T* successor) {
        const int base = at_.tid * N;
        for (int i = 0; i + 1 < N; ++i) flags[i] = apply(op, input[i], input[i + 1], base + i + 1);
        if (at_.tid + 1 < BLOCK_THREADS)
            flags[N - 1] = apply(op, input[N - 1], at_.storage.first_items[at_.tid + 1], base + N);
        else
            flags[N - 1] = successor ? apply(op, input[N - 1], *successor, base + N) : true;
    }

    template <int N, typename FlagT, typename FlagOp>
    __forceinline__ void heads(FlagT (&flags)[N], T (&input)[N], FlagOp& op, const T* predecessor) {
        at_.storage.last_items[at_.tid] = input[N - 1];
        __syncthreads(at_.loc);
        flag_heads(flags, input, op, predecessor);
    }

    template <int N, typename FlagT, typename FlagOp>
    __forceinline__ void tails(FlagT (&flags)[N], T (&input)[N], FlagOp& op, const T* successor) {
        at_.storage.first_items[at_.tid] = input[0];
        __syncthreads(at_.loc);
        flag_tails(flags, input, op, successor);
    }

    template <int N, typename FlagT, typename FlagOp>
    __forceinline__ void both(FlagT (&head_flags)[N], const T* predecessor, FlagT (&tail_flags)[N],
                              const T* successor, T (&input)[N], FlagOp& op) {
        at_.storage.first_items[at_.tid] = input[0];
        at_.storage.last_items[at_.tid] = input[N - 1];
        __syncthreads(at_.loc);
        flag_heads(head_flags, input, op, predecessor);
        flag_tails(tail_flags, input, op, successor);
    }

    detail::BlockCollective<Shared, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z> at_;
};

}  // namespace cub
