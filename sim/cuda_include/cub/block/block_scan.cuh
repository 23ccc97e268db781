// <cub/block/block_scan.cuh> in a simulator build: cub::BlockScan as CUB's warp-scans form
// (BLOCK_SCAN_WARP_SCANS): each warp scans by shuffles, its last lane writes the warp's total to
// TempStorage, __syncthreads(), and each thread combines the totals of the warps before its own.
// With a prefix callback the first warp calls it with the block's total and lane 0's answer,
// passed through TempStorage after a second __syncthreads(), is the prefix of every output.
// Every algorithm name is accepted and runs this form.
#pragma once
#include <cub/detail/block_collective.cuh>
#include <cub/warp/warp_reduce.cuh>

namespace cub {

enum BlockScanAlgorithm {
    BLOCK_SCAN_RAKING,
    BLOCK_SCAN_RAKING_MEMOIZE,
    BLOCK_SCAN_WARP_SCANS,
};

template <typename T, int BLOCK_DIM_X, BlockScanAlgorithm ALGORITHM = BLOCK_SCAN_RAKING,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockScan {
    static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    static constexpr int WARPS = (BLOCK_THREADS + 31) / 32;
    struct Shared {
        T warp_aggregates[WARPS];
        T block_prefix;
    };

    /// What a thread's outputs start from: the combination of everything before it, when there
    /// is anything (thread 0 of a scan without an initial value has nothing before it).
    struct Prefix {
        T value;
        bool any;
    };
    struct NoCallback {};
    static constexpr NoCallback* no_callback = nullptr;

public:
    struct TempStorage : Uninitialized<Shared> {};

    /// With a private TempStorage (one per block, as CUB's static __shared__ one).
    __forceinline__ BlockScan(detail::Loc loc = detail::Loc::current())
        : at_(nullptr, "cub::BlockScan", loc) {}
    __forceinline__ BlockScan(TempStorage& temp_storage, detail::Loc loc = detail::Loc::current())
        : at_(&temp_storage, "cub::BlockScan", loc) {}

    // Sums: exclusive ones start from 0.
    __forceinline__ void ExclusiveSum(T input, T& output) {
        ExclusiveScan(input, output, T(0), cub::Sum{});
    }
    __forceinline__ void ExclusiveSum(T input, T& output, T& block_aggregate) {
        ExclusiveScan(input, output, T(0), cub::Sum{}, block_aggregate);
    }
    template <typename BlockPrefixCallbackOp>
    __forceinline__ void ExclusiveSum(T input, T& output, BlockPrefixCallbackOp& callback) {
        ExclusiveScan(input, output, cub::Sum{}, callback);
    }
    __forceinline__ void InclusiveSum(T input, T& output) {
        InclusiveScan(input, output, cub::Sum{});
    }
    __forceinline__ void InclusiveSum(T input, T& output, T& block_aggregate) {
        InclusiveScan(input, output, cub::Sum{}, block_aggregate);
    }
    template <typename BlockPrefixCallbackOp>
    __forceinline__ void InclusiveSum(T input, T& output, BlockPrefixCallbackOp& callback) {
        InclusiveScan(input, output, cub::Sum{}, callback);
    }
    template <int N>
    __forceinline__ void ExclusiveSum(T (&input)[N], T (&output)[N]) {
        ExclusiveScan(input, output, T(0), cub::Sum{});
    }
    template <int N>
    __forceinline__ void ExclusiveSum(T (&input)[N], T (&output)[N], T& block_aggregate) {
        ExclusiveScan(input, output, T(0), cub::Sum{}, block_aggregate);
    }
    template <int N, typename BlockPrefixCallbackOp>
    __forceinline__ void ExclusiveSum(T (&input)[N], T (&output)[N],
                                      BlockPrefixCallbackOp& callback) {
        ExclusiveScan(input, output, cub::Sum{}, callback);
    }
    template <int N>
    __forceinline__ void InclusiveSum(T (&input)[N], T (&output)[N]) {
        InclusiveScan(input, output, cub::Sum{});
    }
    template <int N>
    __forceinline__ void InclusiveSum(T (&input)[N], T (&output)[N], T& block_aggregate) {
        InclusiveScan(input, output, cub::Sum{}, block_aggregate);
    }
    template <int N, typename BlockPrefixCallbackOp>
    __forceinline__ void InclusiveSum(T (&input)[N], T (&output)[N],
                                      BlockPrefixCallbackOp& callback) {
        InclusiveScan(input, output, cub::Sum{}, callback);
    }

    // Exclusive scans: with an initial value, with a prefix callback, or with neither (thread 0's
    // output is then undefined, as in CUB; here it is its input).
    template <typename ScanOp>
    __forceinline__ void ExclusiveScan(T input, T& output, T initial_value, ScanOp op) {
        T aggregate;
        ExclusiveScan(input, output, initial_value, op, aggregate);
    }
    template <typename ScanOp>
    __forceinline__ void ExclusiveScan(T input, T& output, T initial_value, ScanOp op,
                                       T& block_aggregate) {
        T items[1] = {input}, out[1];
        exclusive(items, out, Prefix{initial_value, true}, op, block_aggregate, no_callback);
        output = out[0];
    }
    template <typename ScanOp, typename BlockPrefixCallbackOp>
    __forceinline__ void ExclusiveScan(T input, T& output, ScanOp op,
                                       BlockPrefixCallbackOp& callback) {
        T items[1] = {input}, out[1], aggregate;
        exclusive(items, out, Prefix{T(), false}, op, aggregate, &callback);
        output = out[0];
    }
    template <typename ScanOp>
    __forceinline__ void ExclusiveScan(T input, T& output, ScanOp op) {
        T items[1] = {input}, out[1], aggregate;
        exclusive(items, out, Prefix{T(), false}, op, aggregate, no_callback);
        output = out[0];
    }
    template <typename ScanOp>
    __forceinline__ void ExclusiveScan(T input, T& output, ScanOp op, T& block_aggregate) {
        T items[1] = {input}, out[1];
        exclusive(items, out, Prefix{T(), false}, op, block_aggregate, no_callback);
        output = out[0];
    }
    template <int N, typename ScanOp>
    __forceinline__ void ExclusiveScan(T (&input)[N], T (&output)[N], T initial_value, ScanOp op) {
        T aggregate;
        exclusive(input, output, Prefix{initial_value, true}, op, aggregate, no_callback);
    }
    template <int N, typename ScanOp>
    __forceinline__ void ExclusiveScan(T (&input)[N], T (&output)[N], T initial_value, ScanOp op,
                                       T& block_aggregate) {
        exclusive(input, output, Prefix{initial_value, true}, op, block_aggregate, no_callback);
    }
    template <int N, typename ScanOp, typename BlockPrefixCallbackOp>
    __forceinline__ void ExclusiveScan(T (&input)[N], T (&output)[N], ScanOp op,
                                       BlockPrefixCallbackOp& callback) {
        T aggregate;
        exclusive(input, output, Prefix{T(), false}, op, aggregate, &callback);
    }
    template <int N, typename ScanOp>
    __forceinline__ void ExclusiveScan(T (&input)[N], T (&output)[N], ScanOp op) {
        T aggregate;
        exclusive(input, output, Prefix{T(), false}, op, aggregate, no_callback);
    }

    // Inclusive scans.
    template <typename ScanOp>
    __forceinline__ void InclusiveScan(T input, T& output, ScanOp op) {
        T aggregate;
        InclusiveScan(input, output, op, aggregate);
    }
    template <typename ScanOp>
    __forceinline__ void InclusiveScan(T input, T& output, ScanOp op, T& block_aggregate) {
        T items[1] = {input}, out[1];
        inclusive(items, out, op, block_aggregate, no_callback);
        output = out[0];
    }
    template <typename ScanOp, typename BlockPrefixCallbackOp>
    __forceinline__ void InclusiveScan(T input, T& output, ScanOp op,
                                       BlockPrefixCallbackOp& callback) {
        T items[1] = {input}, out[1], aggregate;
        inclusive(items, out, op, aggregate, &callback);
        output = out[0];
    }
    template <int N, typename ScanOp>
    __forceinline__ void InclusiveScan(T (&input)[N], T (&output)[N], ScanOp op) {
        T aggregate;
        inclusive(input, output, op, aggregate, no_callback);
    }
    template <int N, typename ScanOp>
    __forceinline__ void InclusiveScan(T (&input)[N], T (&output)[N], ScanOp op,
                                       T& block_aggregate) {
        inclusive(input, output, op, block_aggregate, no_callback);
    }
    template <int N, typename ScanOp, typename BlockPrefixCallbackOp>
    __forceinline__ void InclusiveScan(T (&input)[N], T (&output)[N], ScanOp op,
                                       BlockPrefixCallbackOp& callback) {
        T aggregate;
        inclusive(input, output, op, aggregate, &callback);
    }

private:
    /// The combination of the inputs of every thread before this one (with `start` first, and
    /// the callback's answer before that), and of the whole block into `block_aggregate`.
    template <typename ScanOp, typename Callback>
    __forceinline__ Prefix thread_prefix(T partial, Prefix start, ScanOp op, T& block_aggregate,
                                         Callback* callback) {
        detail::LogicalWarp<32> warp(at_.loc);
        int warp_id = at_.tid / 32;
        T inclusive = warp.inclusive(partial, op);
        T before = warp.broadcast(inclusive, warp.lane > 0 ? warp.lane - 1 : 0);
        if (warp.lane == warp.last) at_.storage.warp_aggregates[warp_id] = inclusive;
        __syncthreads(at_.loc);

        Prefix p{before, warp.lane > 0};
        T total = at_.storage.warp_aggregates[0];
        for (int w = 1; w < WARPS; ++w) {
            if (w == warp_id) p = Prefix{p.any ? T(op(total, p.value)) : total, true};
            total = op(total, at_.storage.warp_aggregates[w]);
        }
        block_aggregate = total;
        if (start.any) p = Prefix{p.any ? T(op(start.value, p.value)) : start.value, true};

        if constexpr (!std::is_same_v<Callback, NoCallback>) {
            if (callback) {
                if (warp_id == 0) {
                    T block_prefix = (*callback)(total);
                    if (warp.lane == 0) at_.storage.block_prefix = block_prefix;
                }
                __syncthreads(at_.loc);
                T block_prefix = at_.storage.block_prefix;
                p = Prefix{p.any ? T(op(block_prefix, p.value)) : block_prefix, true};
            }
        }
        return p;
    }

    template <int N, typename ScanOp, typename Callback>
    __forceinline__ void exclusive(T (&input)[N], T (&output)[N], Prefix start, ScanOp op,
                                   T& block_aggregate, Callback* callback) {
        T partial = input[0];
        for (int i = 1; i < N; ++i) partial = op(partial, input[i]);
        Prefix p = thread_prefix(partial, start, op, block_aggregate, callback);
        T running = p.value;
        bool any = p.any;
        for (int i = 0; i < N; ++i) {
            T item = input[i];
            output[i] = any ? running : item;
            running = any ? T(op(running, item)) : item;
            any = true;
        }
    }

    template <int N, typename ScanOp, typename Callback>
    __forceinline__ void inclusive(T (&input)[N], T (&output)[N], ScanOp op, T& block_aggregate,
                                   Callback* callback) {
        T partial = input[0];
        for (int i = 1; i < N; ++i) partial = op(partial, input[i]);
        Prefix p = thread_prefix(partial, Prefix{T(), false}, op, block_aggregate, callback);
        T running = p.value;
        bool any = p.any;
        for (int i = 0; i < N; ++i) {
            running = any ? T(op(running, input[i])) : input[i];
            any = true;
            output[i] = running;
        }
    }

    detail::BlockCollective<Shared, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z> at_;
};

}  // namespace cub
