// Index: an integer index that remembers the line of the user's code that used it.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include <concepts>
#include <cstddef>
#include <source_location>

namespace simt::sim {

using Loc = std::source_location;

/// Operators such as `a[i]` cannot take a defaulted std::source_location, but the implicit
/// conversion of `i` to Index can: its default argument is evaluated where the user wrote `a[i]`.
/// That is how every checked access knows its file:line at the cost of one pointer.
struct Index {
    std::ptrdiff_t value;
    Loc loc;

    template <std::integral I>
    constexpr Index(I i, Loc l = Loc::current()) noexcept
        : value(static_cast<std::ptrdiff_t>(i)), loc(l) {}
};

}  // namespace simt::sim
