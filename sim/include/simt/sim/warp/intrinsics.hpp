// Warp intrinsics on 32-lane warps: __syncwarp, shuffles, votes, matches, __activemask.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "simt/sim/location.hpp"
#include "simt/sim/vector_types.hpp"

namespace simt::sim::detail {

enum class WarpOp : unsigned char {
    sync, shfl, shfl_up, shfl_down, shfl_xor, ballot, any, all, match_any, match_all, coalesce,
    reduce_add, reduce_min, reduce_max, reduce_and, reduce_or, reduce_xor,  ///< __reduce_*_sync
    collective  ///< warp_collective: an operation a header defines (nvcuda::wmma)
};

/// One lane's part of a warp-wide operation that a header defines (nvcuda::wmma's mma_sync): the
/// lanes meet in warp_collective, and the last to arrive calls `run` once with every lane's part
/// (lanes[l], null for a lane outside the mask), while all of them wait, so that each part, on
/// its lane's own stack, stays put.
struct WarpCollective {
    void (*run)(WarpCollective* const* lanes) = nullptr;
};

/// The lanes named in `mask` meet, as fibers; each passes `value` and gets back the result of
/// `op` for its lane. A caller left out of the mask, or a named lane that never arrives, ends
/// the launch with a KernelError (never a hang). `what` names the call in reports (default: the
/// intrinsic's own name; cooperative groups pass theirs).
std::uint64_t warp_meet(WarpOp op, unsigned mask, std::uint64_t value, int arg, int width,
                        Loc loc, const char* what = nullptr);
/// The threads of the caller's tile of `size` (64 to 512: block ranks k * size onward) meet, as
/// fibers across their warps; each passes `value` and gets every member's, by rank in the tile,
/// which it holds until it has read them. `orders`: the meeting is the tile's sync(), which
/// racecheck takes as a barrier of the tile. A tile cut short by the end of the block, or a
/// member that calls another collective, ends the launch with a KernelError.
std::shared_ptr<const std::vector<std::uint64_t>> tile_meet(unsigned size, std::uint64_t value,
                                                            bool orders, Loc loc,
                                                            const char* what);
/// The lanes of `mask` meet as in warp_meet; `mine` is the caller's part (see WarpCollective).
/// Lanes that call different collectives (`what`) there are a warp-divergence error.
void warp_collective(unsigned mask, WarpCollective* mine, Loc loc, const char* what);
/// The lanes of the caller's warp that have not exited.
unsigned active_mask();
/// The lanes of the caller's warp that reach this call site together (coalesced_threads()):
/// the caller waits until no lane of its block can go on without it, then those waiting at `loc`
/// form the group. Lanes run one after another here, so "together" needs that definition.
unsigned coalesced_lanes(Loc loc);

template <class T>
std::uint64_t to_bits(T v) {
    std::uint64_t b = 0;
    std::memcpy(&b, &v, sizeof(T));
    return b;
}
template <class T>
T from_bits(std::uint64_t b) {
    T v;
    std::memcpy(&v, &b, sizeof(T));
    return v;
}
template <class T>
concept shuffle_value = std::is_arithmetic_v<T> && sizeof(T) <= 8;

}  // namespace simt::sim::detail

#define SIMT_SIM_SHUFFLE(name, op, argname)                                                  \
    template <simt::sim::detail::shuffle_value T>                                            \
    T name(unsigned mask, T var, int argname, int width = warpSize,                          \
           simt::sim::Loc loc = simt::sim::Loc::current()) {                                 \
        return simt::sim::detail::from_bits<T>(simt::sim::detail::warp_meet(                 \
            simt::sim::detail::WarpOp::op, mask, simt::sim::detail::to_bits(var), argname,   \
            width, loc));                                                                    \
    }
/// The value of `var` held by lane `srcLane` (within groups of `width` lanes).
SIMT_SIM_SHUFFLE(__shfl_sync, shfl, srcLane)
/// The value of `var` held by lane - delta; lanes below delta keep their own.
SIMT_SIM_SHUFFLE(__shfl_up_sync, shfl_up, delta)
/// The value of `var` held by lane + delta; lanes at the top keep their own.
SIMT_SIM_SHUFFLE(__shfl_down_sync, shfl_down, delta)
/// The value of `var` held by lane ^ laneMask.
SIMT_SIM_SHUFFLE(__shfl_xor_sync, shfl_xor, laneMask)
#undef SIMT_SIM_SHUFFLE

/// The lanes in `mask` wait for each other; their memory accesses are ordered across it.
inline void __syncwarp(unsigned mask = 0xffffffffu,
                       simt::sim::Loc loc = simt::sim::Loc::current()) {
    simt::sim::detail::warp_meet(simt::sim::detail::WarpOp::sync, mask, 0, 0, 32, loc);
}
/// Bit i set iff lane i of `mask` passes a nonzero predicate.
inline unsigned __ballot_sync(unsigned mask, int pred,
                              simt::sim::Loc loc = simt::sim::Loc::current()) {
    return static_cast<unsigned>(simt::sim::detail::warp_meet(
        simt::sim::detail::WarpOp::ballot, mask, pred != 0, 0, 32, loc));
}
/// Nonzero iff any lane of `mask` passes a nonzero predicate.
inline int __any_sync(unsigned mask, int pred, simt::sim::Loc loc = simt::sim::Loc::current()) {
    return static_cast<int>(simt::sim::detail::warp_meet(simt::sim::detail::WarpOp::any, mask,
                                                         pred != 0, 0, 32, loc));
}
/// Nonzero iff every lane of `mask` passes a nonzero predicate.
inline int __all_sync(unsigned mask, int pred, simt::sim::Loc loc = simt::sim::Loc::current()) {
    return static_cast<int>(simt::sim::detail::warp_meet(simt::sim::detail::WarpOp::all, mask,
                                                         pred != 0, 0, 32, loc));
}
/// The lanes of `mask` whose `value` equals the caller's.
template <simt::sim::detail::shuffle_value T>
unsigned __match_any_sync(unsigned mask, T value, simt::sim::Loc loc = simt::sim::Loc::current()) {
    return static_cast<unsigned>(simt::sim::detail::warp_meet(
        simt::sim::detail::WarpOp::match_any, mask, simt::sim::detail::to_bits(value), 0, 32, loc));
}
/// `mask` if every lane of it passes the same `value` (and *pred = 1), else 0 (and *pred = 0).
template <simt::sim::detail::shuffle_value T>
unsigned __match_all_sync(unsigned mask, T value, int* pred,
                          simt::sim::Loc loc = simt::sim::Loc::current()) {
    auto r = static_cast<unsigned>(simt::sim::detail::warp_meet(
        simt::sim::detail::WarpOp::match_all, mask, simt::sim::detail::to_bits(value), 0, 32, loc));
    *pred = r != 0;
    return r;
}
// The warp reductions of compute capability 8.0 (redux.sync): every lane of `mask` gets the sum,
// minimum, maximum, and, or or xor of `value` over the lanes of `mask`, 32-bit integers only.
#define SIMT_SIM_REDUCE(name, op, T, is_signed)                                               \
    inline T name(unsigned mask, T value, simt::sim::Loc loc = simt::sim::Loc::current()) {  \
        return static_cast<T>(simt::sim::detail::warp_meet(                                  \
            simt::sim::detail::WarpOp::op, mask,                                             \
            static_cast<std::uint64_t>(static_cast<std::uint32_t>(value)), is_signed, 32, loc)); \
    }
SIMT_SIM_REDUCE(__reduce_add_sync, reduce_add, unsigned, 0)
SIMT_SIM_REDUCE(__reduce_add_sync, reduce_add, int, 1)
SIMT_SIM_REDUCE(__reduce_min_sync, reduce_min, unsigned, 0)
SIMT_SIM_REDUCE(__reduce_min_sync, reduce_min, int, 1)
SIMT_SIM_REDUCE(__reduce_max_sync, reduce_max, unsigned, 0)
SIMT_SIM_REDUCE(__reduce_max_sync, reduce_max, int, 1)
SIMT_SIM_REDUCE(__reduce_and_sync, reduce_and, unsigned, 0)
SIMT_SIM_REDUCE(__reduce_or_sync, reduce_or, unsigned, 0)
SIMT_SIM_REDUCE(__reduce_xor_sync, reduce_xor, unsigned, 0)
#undef SIMT_SIM_REDUCE

/// The lanes of this warp still running. In the simulator: the lanes that have not exited.
inline unsigned __activemask() { return simt::sim::detail::active_mask(); }
