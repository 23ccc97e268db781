// simt::ptr<T>: a checked pointer into device memory (exactly T* under nvcc).
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include <compare>
#include <concepts>
#include <cstddef>

#include "simt/sim/memory/ref.hpp"

namespace simt {

/// A pointer into device memory: `p[i]`, `*p`, `p + k`, `&p[i]`.
/// In the simulator: a fat pointer that knows its allocation; every element access is
/// bounds-checked and seen by the checkers. `*p` has no source line (C++ gives `*` no place for
/// one); prefer `p[0]` where a report should name the line.
///   simt::ptr<int> p = arr;   // arr holds {1, 2, 3}
///   p[2]                      // 3 (inside a kernel)
template <class T>
class ptr {
public:
    using element_type = T;

    ptr() = default;
    ptr(std::nullptr_t) noexcept {}
    ptr(T* p, const sim::detail::Allocation* a) noexcept : p_(p), a_(a) {}
    template <class U>
        requires(std::is_convertible_v<U*, T*> && !std::is_same_v<U, T>)
    ptr(ptr<U> o) noexcept : p_(o.unchecked()), a_(o.allocation()) {}

        [[gnu::always_inline]] auto operator[](sim::Index i) const {
            return sim::detail::element(p_ + i.value, a_, i.loc);
        }
    auto operator*() const { return sim::detail::element(p_, a_, sim::Loc{}); }

    template <std::integral I>
    friend ptr operator+(ptr p, I k) noexcept { return {p.p_ + k, p.a_}; }
    template <std::integral I>
    friend ptr operator+(I k, ptr p) noexcept { return {p.p_ + k, p.a_}; }
    template <std::integral I>
    friend ptr operator-(ptr p, I k) noexcept { return {p.p_ - k, p.a_}; }
    friend std::ptrdiff_t operator-(ptr a, ptr b) noexcept { return a.p_ - b.p_; }
    template <std::integral I>
    ptr& operator+=(I k) noexcept { p_ += k; return *this; }
    template <std::integral I>
    ptr& operator-=(I k) noexcept { p_ -= k; return *this; }
    ptr& operator++() noexcept { ++p_; return *this; }
    ptr& operator--() noexcept { --p_; return *this; }
    ptr operator++(int) noexcept { ptr o = *this; ++p_; return o; }
    ptr operator--(int) noexcept { ptr o = *this; --p_; return o; }

    friend bool operator==(ptr a, ptr b) noexcept { return a.p_ == b.p_; }
    friend auto operator<=>(ptr a, ptr b) noexcept { return a.p_ <=> b.p_; }
    friend bool operator==(ptr a, std::nullptr_t) noexcept { return a.p_ == nullptr; }
    explicit operator bool() const noexcept { return p_ != nullptr; }

    /// The raw address, unchecked: for interop only.
    T* unchecked() const noexcept { return p_; }
    const sim::detail::Allocation* allocation() const noexcept { return a_; }

private:
    T* p_ = nullptr;
    const sim::detail::Allocation* a_ = nullptr;
};

}  // namespace simt
