// simt::mdspan<T, N>: a checked row-major N-D view of device memory (N = 1..3).
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include <cstddef>

#include "simt/sim/memory/ptr.hpp"

namespace simt {

/// A row-major N-D view: `m(i, j)`, `m.extent(0)`. Trivially copyable.
/// In the simulator: each index is checked against its extent; a report names all of them.
///   simt::mdspan<int, 2> m = arr;    // arr has shape (2, 3)
///   m.extent(1)                      // 3
template <class T, int N>
class mdspan {
    static_assert(N >= 1 && N <= 3, "simt::mdspan has 1, 2 or 3 dimensions");

public:
    using element_type = T;

    mdspan() = default;
    mdspan(ptr<T> p, const std::size_t (&ext)[N]) noexcept : p_(p.unchecked()), a_(p.allocation()) {
        for (int d = 0; d < N; ++d) ext_[d] = ext[d];
    }
    template <class U>
        requires(std::is_convertible_v<U*, T*> && !std::is_same_v<U, T>)
    mdspan(mdspan<U, N> o) noexcept : p_(o.data().unchecked()), a_(o.data().allocation()) {
        for (int d = 0; d < N; ++d) ext_[d] = o.extent(d);
    }

    [[gnu::always_inline]] auto operator()(sim::Index i) const requires(N == 1) { return at({i.value}, i.loc); }
    [[gnu::always_inline]] auto operator[](sim::Index i) const requires(N == 1) { return at({i.value}, i.loc); }
    [[gnu::always_inline]] auto operator()(sim::Index i, sim::Index j) const requires(N == 2) {
        return at({i.value, j.value}, i.loc);
    }
    [[gnu::always_inline]] auto operator()(sim::Index i, sim::Index j, sim::Index k) const requires(N == 3) {
        return at({i.value, j.value, k.value}, i.loc);
    }

    std::size_t extent(int d) const noexcept { return ext_[d]; }
    std::size_t size() const noexcept {
        std::size_t s = 1;
        for (int d = 0; d < N; ++d) s *= ext_[d];
        return s;
    }
    static constexpr int rank() noexcept { return N; }
    ptr<T> data() const noexcept { return {p_, a_}; }

private:
    [[gnu::always_inline]] auto at(const std::ptrdiff_t (&idx)[N], sim::Loc loc) const {
        return sim::detail::element_at<T, N>(p_, a_, idx, ext_, loc);
    }

    T* p_ = nullptr;
    std::size_t ext_[N] = {};
    const sim::detail::Allocation* a_ = nullptr;
};

}  // namespace simt
