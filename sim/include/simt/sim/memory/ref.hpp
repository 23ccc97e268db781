// ref<T>: what `p[i]` returns, so that the access hook can tell a read from a write.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include <type_traits>

#include "simt/sim/check/access.hpp"

namespace simt {
template <class T>
class ptr;
}

namespace simt::sim::detail {

/// May let another thread of the block run between the read and the write of a
/// read-modify-write such as `a[i] += 1`, so that updates get lost as they do on a GPU.
void interleave_point(Loc loc);
inline void rmw_point(Loc loc) {
    if (tls::interleave) [[unlikely]]
        interleave_point(loc);
}

/// A reference to one element of device or shared memory. Converting it to T reads; assigning
/// writes; `+=` and friends read then write; `&r` gives back a simt::ptr.
template <class T>
class ref {
    static_assert(!std::is_const_v<T>, "a view of const T yields values, not refs");

public:
    ref(T* p, const Allocation* a, Loc loc) noexcept : p_(p), a_(a), loc_(loc) {}

    [[gnu::always_inline]] operator T() const { return *access<Access::read>(a_, p_, loc_); }
    T get() const { return static_cast<T>(*this); }

    [[gnu::always_inline]] const ref& operator=(const T& v) const {
        *access<Access::write>(a_, p_, loc_) = v;
        return *this;
    }
    // Assigning one element to another copies the value; it never rebinds the reference.
    const ref& operator=(const ref& other) const { return *this = other.get(); }

#define SIMT_SIM_COMPOUND(op)                          \
    template <class U>                                 \
    const ref& operator op##=(const U& v) const {      \
        T old = get();                                 \
        rmw_point(loc_);                               \
        return *this = static_cast<T>(old op v);       \
    }
    SIMT_SIM_COMPOUND(+)
    SIMT_SIM_COMPOUND(-)
    SIMT_SIM_COMPOUND(*)
    SIMT_SIM_COMPOUND(/)
    SIMT_SIM_COMPOUND(%)
    SIMT_SIM_COMPOUND(&)
    SIMT_SIM_COMPOUND(|)
    SIMT_SIM_COMPOUND(^)
    SIMT_SIM_COMPOUND(<<)
    SIMT_SIM_COMPOUND(>>)
#undef SIMT_SIM_COMPOUND

    const ref& operator++() const { return *this += 1; }
    const ref& operator--() const { return *this -= 1; }
    T operator++(int) const {
        T old = get();
        rmw_point(loc_);
        *this = static_cast<T>(old + 1);
        return old;
    }
    T operator--(int) const {
        T old = get();
        rmw_point(loc_);
        *this = static_cast<T>(old - 1);
        return old;
    }

    simt::ptr<T> operator&() const noexcept { return simt::ptr<T>(p_, a_); }

private:
    T* p_;
    const Allocation* a_;
    Loc loc_;
};

/// What indexing a view of T gives: a ref<T>, or for a view of const T the value itself.
template <class T>
[[gnu::always_inline]] inline auto element(T* p, const Allocation* a, Loc loc) {
    if constexpr (std::is_const_v<T>)
        return *access<Access::read>(a, p, loc);
    else
        return ref<T>(p, a, loc);
}

/// Row-major element of an R-dimensional view: checks every index against its extent first
/// (not in a program built UNCHECKED: see `access`). The single home of multi-dimensional
/// indexing for span, mdspan and shared.
template <class T, int R>
[[gnu::always_inline]] inline auto element_at(T* base, const Allocation* a,
                                              const std::ptrdiff_t (&idx)[R],
                                              const std::size_t (&ext)[R], Loc loc) {
    std::size_t off = 0;
    bool ok = true;
    for (int d = 0; d < R; ++d) {
        ok &= static_cast<std::size_t>(idx[d]) < ext[d];
        off = off * ext[d] + static_cast<std::size_t>(idx[d]);
    }
#ifndef SIMT_UNCHECKED
    if (!ok) [[unlikely]] {
        auto* s = bad_index(a, idx, ext, R, sizeof(T), loc);
        return element(reinterpret_cast<T*>(s), scratch_allocation(), loc);
    }
#else
    (void)ok;  // the index goes to memory as a raw pointer's would
#endif
    return element(base + off, a, loc);
}

}  // namespace simt::sim::detail
