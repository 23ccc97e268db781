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

namespace detail {
/// A call of a library function that runs a kernel (cuBLAS's, cuRAND's): where the program made
/// it, and the function's name (`cublasSaxpy`, from its `__func__`).
struct LibraryCall {
    Loc site;
    const char* function;
};
/// The launch site of a library's kernel (cuBLAS's, cuRAND's): the program's call at `caller`,
/// with the library function's name (`cublasSaxpy`) in place of the calling function's. A report
/// of an access the kernel makes in simt's headers names that call instead (report/format.cpp).
Loc library_call_site(Loc caller, const char* function);
/// Whether `loc` was made by library_call_site.
bool is_library_call(const Loc& loc);
}  // namespace detail

}  // namespace simt::sim
