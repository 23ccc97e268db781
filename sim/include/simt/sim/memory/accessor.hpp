// The simulator's accessor policy for span, mdspan and shared: every index checked, every
// element access through the access hook (check/access.hpp), with the user's file:line.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include <cstddef>

#include "simt/sim/location.hpp"
#include "simt/sim/memory/ptr.hpp"
#include "simt/sim/memory/ref.hpp"

namespace simt::sim::detail {

/// A view's data is a fat simt::ptr (address and allocation); its indices are sim::Index, which
/// carry the source location of the expression that indexed (their defaulted Loc argument).
template <class T>
struct CheckedAccessor {
    using data_handle_type = simt::ptr<T>;
    using index_type = Index;
    static constexpr bool raw_shared = false;

    /// Element `i` of a row-major view with extents `ext`: a ref<T> (or a T for const T).
    template <int N>
    [[gnu::always_inline]] static auto access(simt::ptr<T> p, const Index (&i)[N],
                                              const std::size_t (&ext)[N], const char*) {
        std::ptrdiff_t idx[N];
        for (int d = 0; d < N; ++d) idx[d] = i[d].value;
        return element_at<T, N>(p.unchecked(), p.allocation(), idx, ext, i[0].loc);
    }
};

}  // namespace simt::sim::detail
