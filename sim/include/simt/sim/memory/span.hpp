// simt::span<T>: a checked 1-D view of device memory with a size.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include <cstddef>

#include "simt/sim/memory/ptr.hpp"

namespace simt {

/// A 1-D view: `s[i]`, `s.size()`. Trivially copyable; pass it to kernels by value.
/// In the simulator: `i` is checked against size() and the access is seen by the checkers.
///   simt::span<const float> s = arr;   // arr holds {1.5f, 2.5f}
///   s.size()                           // 2
template <class T>
class span {
public:
    using element_type = T;

    span() = default;
    span(ptr<T> p, std::size_t n) noexcept : p_(p.unchecked()), n_(n), a_(p.allocation()) {}
    template <class U>
        requires(std::is_convertible_v<U*, T*> && !std::is_same_v<U, T>)
    span(span<U> o) noexcept : p_(o.data().unchecked()), n_(o.size()), a_(o.data().allocation()) {}

    [[gnu::always_inline]] auto operator[](sim::Index i) const {
        const std::ptrdiff_t idx[1] = {i.value};
        const std::size_t ext[1] = {n_};
        return sim::detail::element_at<T, 1>(p_, a_, idx, ext, i.loc);
    }
    std::size_t size() const noexcept { return n_; }
    bool empty() const noexcept { return n_ == 0; }
    ptr<T> data() const noexcept { return {p_, a_}; }
    /// The `count` elements from `offset` (clamped to the end).
    span subspan(std::size_t offset, std::size_t count = std::size_t(-1)) const noexcept {
        std::size_t o = offset < n_ ? offset : n_;
        std::size_t c = count < n_ - o ? count : n_ - o;
        return span(ptr<T>(p_ + o, a_), c);
    }

private:
    T* p_ = nullptr;
    std::size_t n_ = 0;
    const sim::detail::Allocation* a_ = nullptr;
};

}  // namespace simt
