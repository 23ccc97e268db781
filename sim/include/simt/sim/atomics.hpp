// CUDA's atomic functions, with CUDA's types and wrap-around rules, on simt::ptr or raw pointers.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include <atomic>
#include <concepts>
#include <cstdint>
#include <type_traits>

#include "simt/sim/memory/ptr.hpp"

namespace simt::sim::detail {

template <class T, class... U>
concept one_of = (std::same_as<T, U> || ...);

/// Reports a misaligned atomic (memcheck) and returns scratch to perform it on.
[[gnu::cold, gnu::noinline]] std::byte* misaligned_atomic(const Allocation* a, const void* p,
                                                          std::size_t size, Loc loc);

/// The checked address of an atomic: bounds, alignment, and seen by the checkers as atomic.
template <class T>
[[gnu::always_inline]] inline T* atomic_target(simt::ptr<T> p, Loc loc) {
    T* q = access<Access::atomic>(p.allocation(), p.unchecked(), loc);
    if (reinterpret_cast<std::uintptr_t>(q) % alignof(T) != 0) [[unlikely]]
        return reinterpret_cast<T*>(misaligned_atomic(p.allocation(), q, sizeof(T), loc));
    return q;
}
template <class T>
inline T* atomic_target(T* p, Loc) { return p; }  // raw pointers cannot be checked

/// Atomically replaces *p by f(*p) and returns the old value. Blocks of a grid run on different
/// OS threads, so this must be a real atomic even though a block's threads never overlap.
/// Always inlined, with the compiler's builtins: in an instrumented build the atomic's hook then
/// sits in the kernel's own code, and a report names the kernel's line.
template <class T, class F>
[[gnu::always_inline]] inline T atomic_update(T* p, F f) {
    T old;
    __atomic_load(p, &old, __ATOMIC_RELAXED);
    T next = f(old);
    while (!__atomic_compare_exchange(p, &old, &next, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        next = f(old);
    return old;
}

/// a + b with two's-complement wrap-around for every integer type, as the hardware does.
template <class T>
T wrap_add(T a, T b) {
    if constexpr (std::is_integral_v<T>) {
        using U = std::make_unsigned_t<T>;
        return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
    } else {
        return a + b;
    }
}
template <class T>
T wrap_sub(T a, T b) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
}

}  // namespace simt::sim::detail

// One macro per signature shape keeps the CUDA type lists in one place each; the body computes
// the new value from `old` and `v`.
#define SIMT_SIM_ATOMIC(name, types, body)                                                   \
    template <class T>                                                                       \
        requires simt::sim::detail::one_of<T, types>                                         \
    [[gnu::always_inline]] inline T name(simt::ptr<T> p, std::type_identity_t<T> v,         \
           simt::sim::Loc loc = simt::sim::Loc::current()) {                                 \
        return simt::sim::detail::atomic_update(simt::sim::detail::atomic_target(p, loc),    \
                                                [v](T old) { return body; });                \
    }                                                                                        \
    template <class T>                                                                       \
        requires simt::sim::detail::one_of<T, types>                                         \
    [[gnu::always_inline]] inline T name(T* p, std::type_identity_t<T> v) {                 \
        return simt::sim::detail::atomic_update(p, [v](T old) { return body; });             \
    }

#define SIMT_SIM_COMMA ,
SIMT_SIM_ATOMIC(atomicAdd, int SIMT_SIM_COMMA unsigned SIMT_SIM_COMMA unsigned long long
                SIMT_SIM_COMMA float SIMT_SIM_COMMA double,
                simt::sim::detail::wrap_add(old, v))
SIMT_SIM_ATOMIC(atomicSub, int SIMT_SIM_COMMA unsigned, simt::sim::detail::wrap_sub(old, v))
SIMT_SIM_ATOMIC(atomicExch, int SIMT_SIM_COMMA unsigned SIMT_SIM_COMMA unsigned long long
                SIMT_SIM_COMMA float,
                ((void)old, v))
SIMT_SIM_ATOMIC(atomicMin, int SIMT_SIM_COMMA unsigned SIMT_SIM_COMMA unsigned long long
                SIMT_SIM_COMMA long long,
                (v < old ? v : old))
SIMT_SIM_ATOMIC(atomicMax, int SIMT_SIM_COMMA unsigned SIMT_SIM_COMMA unsigned long long
                SIMT_SIM_COMMA long long,
                (v > old ? v : old))
// atomicInc: ((old >= v) ? 0 : old + 1); atomicDec: ((old == 0 || old > v) ? v : old - 1).
SIMT_SIM_ATOMIC(atomicInc, unsigned, (old >= v ? 0u : old + 1u))
SIMT_SIM_ATOMIC(atomicDec, unsigned, ((old == 0u || old > v) ? v : old - 1u))
SIMT_SIM_ATOMIC(atomicAnd, int SIMT_SIM_COMMA unsigned SIMT_SIM_COMMA unsigned long long,
                (old & v))
SIMT_SIM_ATOMIC(atomicOr, int SIMT_SIM_COMMA unsigned SIMT_SIM_COMMA unsigned long long,
                (old | v))
SIMT_SIM_ATOMIC(atomicXor, int SIMT_SIM_COMMA unsigned SIMT_SIM_COMMA unsigned long long,
                (old ^ v))
#undef SIMT_SIM_ATOMIC
#undef SIMT_SIM_COMMA

/// atomicCAS(p, compare, val): stores val if *p == compare; returns the old value either way.
template <class T>
    requires simt::sim::detail::one_of<T, int, unsigned, unsigned long long, unsigned short>
[[gnu::always_inline]] inline T atomicCAS(simt::ptr<T> p, std::type_identity_t<T> compare,
                                          std::type_identity_t<T> val,
                                          simt::sim::Loc loc = simt::sim::Loc::current()) {
    __atomic_compare_exchange(simt::sim::detail::atomic_target(p, loc), &compare, &val, false,
                              __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return compare;
}
template <class T>
    requires simt::sim::detail::one_of<T, int, unsigned, unsigned long long, unsigned short>
[[gnu::always_inline]] inline T atomicCAS(T* p, std::type_identity_t<T> compare, std::type_identity_t<T> val) {
    __atomic_compare_exchange(p, &compare, &val, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return compare;
}

/// Orders this thread's memory accesses as seen by all threads (CUDA's fences).
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_block() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_system() { std::atomic_thread_fence(std::memory_order_seq_cst); }
