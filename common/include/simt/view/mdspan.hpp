// simt::mdspan<T, N>: a row-major N-D view (N = 1..3), written once over the accessor policy.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not simt's private headers"
#endif
#include <cstddef>
#include <type_traits>

#include "simt/core/keywords.hpp"

namespace simt {

/// A row-major N-D view: `m(i, j)`, `m.extent(0)`. Trivially copyable.
/// In the simulator: each index is checked against its extent; a report names all of them.
///   simt::mdspan<int, 2> m = arr;    // arr has shape (2, 3)
///   m.extent(1)                      // 3
template <class T, int N, class B>
class basic_mdspan {
    static_assert(N >= 1 && N <= 3, "simt::mdspan has 1, 2 or 3 dimensions");
    using Acc = typename B::template accessor<T>;

public:
    using element_type = T;
    using data_handle_type = typename Acc::data_handle_type;
    using index_type = typename Acc::index_type;

    basic_mdspan() = default;
    SIMT_DEVICE_FN basic_mdspan(data_handle_type p, const std::size_t (&ext)[N]) noexcept : p_(p) {
        for (int d = 0; d < N; ++d) ext_[d] = ext[d];
    }
    template <class U>
        requires(std::is_convertible_v<U*, T*> && !std::is_same_v<U, T>)
    SIMT_DEVICE_FN basic_mdspan(basic_mdspan<U, N, B> o) noexcept : p_(o.data()) {
        for (int d = 0; d < N; ++d) ext_[d] = o.extent(d);
    }

    SIMT_HOT SIMT_DEVICE_FN decltype(auto) operator()(index_type i) const requires(N == 1) {
        return at({i});
    }
    SIMT_HOT SIMT_DEVICE_FN decltype(auto) operator[](index_type i) const requires(N == 1) {
        return at({i});
    }
    SIMT_HOT SIMT_DEVICE_FN decltype(auto) operator()(index_type i, index_type j) const
        requires(N == 2) {
        return at({i, j});
    }
    SIMT_HOT SIMT_DEVICE_FN decltype(auto) operator()(index_type i, index_type j,
                                                      index_type k) const requires(N == 3) {
        return at({i, j, k});
    }

    SIMT_DEVICE_FN std::size_t extent(int d) const noexcept { return ext_[d]; }
    SIMT_DEVICE_FN std::size_t size() const noexcept {
        std::size_t s = 1;
        for (int d = 0; d < N; ++d) s *= ext_[d];
        return s;
    }
    static constexpr int rank() noexcept { return N; }
    SIMT_DEVICE_FN data_handle_type data() const noexcept { return p_; }

private:
    SIMT_HOT SIMT_DEVICE_FN decltype(auto) at(const index_type (&i)[N]) const {
        return Acc::access(p_, i, ext_, "mdspan");
    }

    data_handle_type p_{};
    std::size_t ext_[N] = {};
};

template <class T, int N>
using mdspan = basic_mdspan<T, N, detail::backend>;

}  // namespace simt
