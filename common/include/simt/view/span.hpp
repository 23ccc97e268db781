// simt::span<T>: a 1-D view of device memory, written once over the backend's accessor policy.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not simt's private headers"
#endif
#include <cstddef>
#include <type_traits>

#include "simt/core/keywords.hpp"

namespace simt {

/// A 1-D view: `s[i]`, `s.size()`. Trivially copyable; pass it to kernels by value.
/// In the simulator: `i` is checked against size() and the access is seen by the checkers.
///   simt::span<const float> s = arr;   // arr holds {1.5f, 2.5f}
///   s.size()                           // 2
///
/// `B` is the backend (simt::detail::backend): its accessor<T> says what a handle to the data is
/// (simt::ptr<T>) and how an index becomes an element, as std::mdspan's AccessorPolicy does.
template <class T, class B>
class basic_span {
    using Acc = typename B::template accessor<T>;

public:
    using element_type = T;
    using data_handle_type = typename Acc::data_handle_type;
    using index_type = typename Acc::index_type;

    basic_span() = default;
    SIMT_DEVICE_FN basic_span(data_handle_type p, std::size_t n) noexcept : p_(p), n_(n) {}
    template <class U>
        requires(std::is_convertible_v<U*, T*> && !std::is_same_v<U, T>)
    SIMT_DEVICE_FN basic_span(basic_span<U, B> o) noexcept : p_(o.data()), n_(o.size()) {}

    SIMT_HOT SIMT_DEVICE_FN decltype(auto) operator[](index_type i) const {
        const index_type idx[1] = {i};
        const std::size_t ext[1] = {n_};
        return Acc::access(p_, idx, ext, "span");
    }
    SIMT_DEVICE_FN std::size_t size() const noexcept { return n_; }
    SIMT_DEVICE_FN bool empty() const noexcept { return n_ == 0; }
    SIMT_DEVICE_FN data_handle_type data() const noexcept { return p_; }
    /// The `count` elements from `offset` (clamped to the end).
    SIMT_DEVICE_FN basic_span subspan(std::size_t offset,
                                      std::size_t count = std::size_t(-1)) const noexcept {
        std::size_t o = offset < n_ ? offset : n_;
        std::size_t c = count < n_ - o ? count : n_ - o;
        return basic_span(p_ + o, c);
    }

private:
    data_handle_type p_{};
    std::size_t n_ = 0;
};

template <class T>
using span = basic_span<T, detail::backend>;

}  // namespace simt
