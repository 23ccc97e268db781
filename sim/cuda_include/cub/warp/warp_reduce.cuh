// <cub/warp/warp_reduce.cuh> in a simulator build: cub::WarpReduce as CUB's shuffle form
// (WarpReduceShfl): log2(LOGICAL_WARP_THREADS) rounds of shuffles down, lane 0 holding the result.
// Its TempStorage is empty, as CUB's is for this form, so reusing it needs no barrier.
#pragma once
#include <cub/thread/thread_operators.cuh>

namespace cub {
namespace detail {

/// The caller's lanes in a logical warp of `width` lanes (a power of two up to 32): its rank in
/// the logical warp, the mask of the logical warp's lanes that exist, and the last of them.
template <int LOGICAL_WARP_THREADS>
struct LogicalWarp {
    static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= 32 &&
                      (LOGICAL_WARP_THREADS & (LOGICAL_WARP_THREADS - 1)) == 0,
                  "simt's CUB gives logical warps of 1, 2, 4, 8, 16 or 32 threads");
    int lane;       // rank in the logical warp
    unsigned mask;  // its lanes that exist, as physical lanes
    int last;       // its last lane that exists
    Loc loc;

    __forceinline__ explicit LogicalWarp(Loc l) : loc(l) {
        unsigned tid =
            threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
        unsigned physical = tid % 32;
        unsigned base = physical / LOGICAL_WARP_THREADS * LOGICAL_WARP_THREADS;
        unsigned own = LOGICAL_WARP_THREADS == 32 ? 0xffffffffu
                                                  : ((1u << LOGICAL_WARP_THREADS) - 1) << base;
        lane = static_cast<int>(physical - base);
        mask = own & existing_lanes();
        last = 31 - __builtin_clz(mask) - static_cast<int>(base);
    }

    /// Lane 0 gets op over lanes 0..valid-1 in lane order; the others, partial results.
    template <typename T, typename Op>
    __forceinline__ T reduce(T value, Op op, int valid) const {
        int last_valid = valid - 1 < last ? valid - 1 : last;
        for (int offset = 1; offset < LOGICAL_WARP_THREADS; offset *= 2) {
            // Every lane takes part in each shuffle, reading a lane that exists.
            int src = lane + offset <= last ? lane + offset : last;
            T other = shuffle(mask, value, src, LOGICAL_WARP_THREADS, loc);
            if (lane + offset <= last_valid) value = op(value, other);
        }
        return value;
    }

    /// Each lane gets op over lanes 0..lane (Hillis and Steele's scan over shuffles up).
    template <typename T, typename Op>
    __forceinline__ T inclusive(T value, Op op) const {
        for (int offset = 1; offset < LOGICAL_WARP_THREADS; offset *= 2) {
            int src = lane >= offset ? lane - offset : lane;
            T other = shuffle(mask, value, src, LOGICAL_WARP_THREADS, loc);
            if (lane >= offset) value = op(other, value);
        }
        return value;
    }

    /// The value lane `src` holds.
    template <typename T>
    __forceinline__ T broadcast(const T& value, int src) const {
        return shuffle(mask, value, src, LOGICAL_WARP_THREADS, loc);
    }
};

}  // namespace detail

template <typename T, int LOGICAL_WARP_THREADS = 32, int LEGACY_PTX_ARCH = 0>
class WarpReduce {
public:
    struct TempStorage {};

    __forceinline__ explicit WarpReduce(TempStorage&, detail::Loc loc = detail::Loc::current())
        : warp_(loc) {}

    /// The sum over the logical warp, in lane 0.
    __forceinline__ T Sum(T input) { return warp_.reduce(input, cub::Sum{}, LOGICAL_WARP_THREADS); }
    /// The sum over its first `valid_items` lanes, in lane 0.
    __forceinline__ T Sum(T input, int valid_items) {
        return warp_.reduce(input, cub::Sum{}, valid_items);
    }
    template <typename ReductionOp>
    __forceinline__ T Reduce(T input, ReductionOp op) {
        return warp_.reduce(input, op, LOGICAL_WARP_THREADS);
    }
    template <typename ReductionOp>
    __forceinline__ T Reduce(T input, ReductionOp op, int valid_items) {
        return warp_.reduce(input, op, valid_items);
    }

private:
    detail::LogicalWarp<LOGICAL_WARP_THREADS> warp_;
};

}  // namespace cub
