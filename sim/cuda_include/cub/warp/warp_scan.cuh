// <cub/warp/warp_scan.cuh> in a simulator build: cub::WarpScan as CUB's shuffle form
// (WarpScanShfl), over the logical warp's lanes that exist. Its TempStorage is empty, as CUB's is.
#pragma once
#include <cub/warp/warp_reduce.cuh>

namespace cub {

template <typename T, int LOGICAL_WARP_THREADS = 32, int LEGACY_PTX_ARCH = 0>
class WarpScan {
public:
    struct TempStorage {};

    __forceinline__ explicit WarpScan(TempStorage&, detail::Loc loc = detail::Loc::current())
        : warp_(loc) {}

    __forceinline__ void InclusiveSum(T input, T& inclusive_output) {
        inclusive_output = warp_.inclusive(input, cub::Sum{});
    }
    __forceinline__ void InclusiveSum(T input, T& inclusive_output, T& warp_aggregate) {
        InclusiveScan(input, inclusive_output, cub::Sum{}, warp_aggregate);
    }
    __forceinline__ void ExclusiveSum(T input, T& exclusive_output) {
        T aggregate;
        ExclusiveScan(input, exclusive_output, T(0), cub::Sum{}, aggregate);
    }
    __forceinline__ void ExclusiveSum(T input, T& exclusive_output, T& warp_aggregate) {
        ExclusiveScan(input, exclusive_output, T(0), cub::Sum{}, warp_aggregate);
    }

    template <typename ScanOp>
    __forceinline__ void InclusiveScan(T input, T& inclusive_output, ScanOp op) {
        inclusive_output = warp_.inclusive(input, op);
    }
    template <typename ScanOp>
    __forceinline__ void InclusiveScan(T input, T& inclusive_output, ScanOp op,
                                       T& warp_aggregate) {
        inclusive_output = warp_.inclusive(input, op);
        warp_aggregate = warp_.broadcast(inclusive_output, warp_.last);
    }

    /// Lane 0's output is undefined, as in CUB (here: its input).
    template <typename ScanOp>
    __forceinline__ void ExclusiveScan(T input, T& exclusive_output, ScanOp op) {
        T inclusive = warp_.inclusive(input, op);
        T before = warp_.broadcast(inclusive, warp_.lane > 0 ? warp_.lane - 1 : 0);
        exclusive_output = warp_.lane > 0 ? before : input;
    }
    template <typename ScanOp>
    __forceinline__ void ExclusiveScan(T input, T& exclusive_output, ScanOp op,
                                       T& warp_aggregate) {
        T inclusive = warp_.inclusive(input, op);
        T before = warp_.broadcast(inclusive, warp_.lane > 0 ? warp_.lane - 1 : 0);
        warp_aggregate = warp_.broadcast(inclusive, warp_.last);
        exclusive_output = warp_.lane > 0 ? before : input;
    }
    template <typename ScanOp>
    __forceinline__ void ExclusiveScan(T input, T& exclusive_output, T initial_value, ScanOp op) {
        T aggregate;
        ExclusiveScan(input, exclusive_output, initial_value, op, aggregate);
    }
    template <typename ScanOp>
    __forceinline__ void ExclusiveScan(T input, T& exclusive_output, T initial_value, ScanOp op,
                                       T& warp_aggregate) {
        T inclusive = warp_.inclusive(input, op);
        T before = warp_.broadcast(inclusive, warp_.lane > 0 ? warp_.lane - 1 : 0);
        warp_aggregate = warp_.broadcast(inclusive, warp_.last);
        exclusive_output = warp_.lane > 0 ? T(op(initial_value, before)) : initial_value;
    }

    /// The value lane `src_lane` holds.
    __forceinline__ T Broadcast(T input, unsigned src_lane) {
        return warp_.broadcast(input, static_cast<int>(src_lane));
    }

private:
    detail::LogicalWarp<LOGICAL_WARP_THREADS> warp_;
};

}  // namespace cub
