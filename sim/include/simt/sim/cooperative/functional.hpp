// The operators cg::reduce and the scans take: plus, less, greater, bit_and, bit_or, bit_xor.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp> and <cooperative_groups/reduce.h>, not the simulator's headers"
#endif

namespace cooperative_groups {

/// a + b
template <class T>
struct plus {
    T operator()(T a, T b) const { return a + b; }
};
/// The smaller of a and b: cg::reduce(tile, v, cg::less<int>()) is the tile's minimum.
template <class T>
struct less {
    T operator()(T a, T b) const { return b < a ? b : a; }
};
/// The larger of a and b: cg::reduce(tile, v, cg::greater<int>()) is the tile's maximum.
template <class T>
struct greater {
    T operator()(T a, T b) const { return a < b ? b : a; }
};
/// a & b
template <class T>
struct bit_and {
    T operator()(T a, T b) const { return a & b; }
};
/// a | b
template <class T>
struct bit_or {
    T operator()(T a, T b) const { return a | b; }
};
/// a ^ b
template <class T>
struct bit_xor {
    T operator()(T a, T b) const { return a ^ b; }
};

}  // namespace cooperative_groups
