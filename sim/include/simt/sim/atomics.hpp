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

/// The threads an atomic or a fence synchronises (CUDA's thread scopes): a `_block` atomic is
/// atomic, and `__threadfence_block()` orders, only among the threads of one block; the plain
/// forms among every thread of the device; `_system` ones with the host too.
enum class Scope : std::uint8_t { block, device, system };

/// The scope of the atomic this thread makes next, when it is not the device's: set by the
/// `_block` and `_system` forms and libcu++'s scoped types just before the atomic, and taken
/// (and reset) by the access check that sees it. Only set where that check runs: in files built
/// with the raw-access instrumentation (__SANITIZE_THREAD__), whose atomics call a hook.
inline thread_local Scope next_atomic_scope = Scope::device;
template <Scope S>
[[gnu::always_inline]] inline void scope_next_atomic() {
#if defined(__SANITIZE_THREAD__)
    if constexpr (S != Scope::device) next_atomic_scope = S;
#endif
}

/// Set just before each compare-and-swap of atomic_update and taken by its hook: the swap
/// continues a call whose load came first, and the profiler counts one warp-level atomic per
/// call (docs/profiling.md), as a GPU issues one instruction for it, however often a swap that
/// lost to another block's has to be retried here.
inline thread_local bool next_atomic_continues = false;
[[gnu::always_inline]] inline void continue_atomic() {
#if defined(__SANITIZE_THREAD__)
    next_atomic_continues = true;
#endif
}

/// A memory fence of scope `s` by the running thread (__threadfence() and its kin,
/// cuda::atomic_thread_fence): the race checker's release and acquire patterns end and begin
/// here (check/atomic_order.cpp). `order` is a C++ memory order (__ATOMIC_*).
void fence(Scope s, int order = __ATOMIC_SEQ_CST);

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
    continue_atomic();
    while (!__atomic_compare_exchange(p, &old, &next, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
        next = f(old);
        continue_atomic();
    }
    return old;
}

enum class AtomicOp { add, sub, exch, min, max, inc, dec, and_, or_, xor_ };

/// CUDA's atomic `op` on *p with operand v; returns the old value. What x86-64 does in one
/// locked instruction (integer add, sub, and, or, xor, exchange) is one builtin; the rest
/// (floating-point add, min, max, inc, dec) is a compare-and-swap loop, as on GPUs without them.
/// Integer arithmetic wraps around, as the hardware's does (the builtins define it so).
template <AtomicOp op, class T>
[[gnu::always_inline]] inline T atomic_op(T* p, T v) {
    constexpr bool integer = std::is_integral_v<T>;
    if constexpr (op == AtomicOp::add && integer) return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
    else if constexpr (op == AtomicOp::sub) return __atomic_fetch_sub(p, v, __ATOMIC_RELAXED);
    else if constexpr (op == AtomicOp::and_) return __atomic_fetch_and(p, v, __ATOMIC_RELAXED);
    else if constexpr (op == AtomicOp::or_) return __atomic_fetch_or(p, v, __ATOMIC_RELAXED);
    else if constexpr (op == AtomicOp::xor_) return __atomic_fetch_xor(p, v, __ATOMIC_RELAXED);
    else if constexpr (op == AtomicOp::exch) {
        T old;
        __atomic_exchange(p, &v, &old, __ATOMIC_RELAXED);
        return old;
    } else {
        return atomic_update(p, [v](T old) -> T {
            if constexpr (op == AtomicOp::add) return old + v;
            else if constexpr (op == AtomicOp::min) return v < old ? v : old;
            else if constexpr (op == AtomicOp::max) return v > old ? v : old;
            else if constexpr (op == AtomicOp::inc) return old >= v ? 0 : old + 1;
            else return (old == 0 || old > v) ? v : old - 1;  // dec
        });
    }
}

}  // namespace simt::sim::detail

// Each atomic with CUDA's type list, on raw pointers and on simt::ptr, and its _block and
// _system forms. The operation itself is always atomic for the whole system, which is never weaker
// than the scope asked for; the scope is told to the race checker, which reports two atomics whose
// scopes do not both include each other's thread.
#define SIMT_SIM_ATOMIC_ONE(name, op, scope, ...)                                            \
    template <class T>                                                                       \
        requires simt::sim::detail::one_of<T, __VA_ARGS__>                                   \
    [[gnu::always_inline]] inline T name(simt::ptr<T> p, std::type_identity_t<T> v,         \
                                         simt::sim::Loc loc = simt::sim::Loc::current()) {   \
        simt::sim::detail::scope_next_atomic<simt::sim::detail::Scope::scope>();             \
        return simt::sim::detail::atomic_op<simt::sim::detail::AtomicOp::op>(                \
            simt::sim::detail::atomic_target(p, loc), v);                                    \
    }                                                                                        \
    template <class T>                                                                       \
        requires simt::sim::detail::one_of<T, __VA_ARGS__>                                   \
    [[gnu::always_inline]] inline T name(T* p, std::type_identity_t<T> v) {                 \
        simt::sim::detail::scope_next_atomic<simt::sim::detail::Scope::scope>();             \
        return simt::sim::detail::atomic_op<simt::sim::detail::AtomicOp::op>(p, v);          \
    }
#define SIMT_SIM_ATOMIC(name, op, ...)                          \
    SIMT_SIM_ATOMIC_ONE(name, op, device, __VA_ARGS__)          \
    SIMT_SIM_ATOMIC_ONE(name##_block, op, block, __VA_ARGS__)   \
    SIMT_SIM_ATOMIC_ONE(name##_system, op, system, __VA_ARGS__)

SIMT_SIM_ATOMIC(atomicAdd, add, int, unsigned, unsigned long long, float, double)
SIMT_SIM_ATOMIC(atomicSub, sub, int, unsigned)
SIMT_SIM_ATOMIC(atomicExch, exch, int, unsigned, unsigned long long, float)
SIMT_SIM_ATOMIC(atomicMin, min, int, unsigned, long long, unsigned long long)
SIMT_SIM_ATOMIC(atomicMax, max, int, unsigned, long long, unsigned long long)
// atomicInc: ((old >= v) ? 0 : old + 1); atomicDec: ((old == 0 || old > v) ? v : old - 1).
SIMT_SIM_ATOMIC(atomicInc, inc, unsigned)
SIMT_SIM_ATOMIC(atomicDec, dec, unsigned)
SIMT_SIM_ATOMIC(atomicAnd, and_, int, unsigned, long long, unsigned long long)
SIMT_SIM_ATOMIC(atomicOr, or_, int, unsigned, long long, unsigned long long)
SIMT_SIM_ATOMIC(atomicXor, xor_, int, unsigned, long long, unsigned long long)
#undef SIMT_SIM_ATOMIC
#undef SIMT_SIM_ATOMIC_ONE

/// atomicCAS(p, compare, val): stores val if *p == compare; returns the old value either way.
#define SIMT_SIM_ATOMIC_CAS(name, scope)                                                     \
    template <class T>                                                                       \
        requires simt::sim::detail::one_of<T, int, unsigned, unsigned long long, unsigned short> \
    [[gnu::always_inline]] inline T name(simt::ptr<T> p, std::type_identity_t<T> compare,   \
                                         std::type_identity_t<T> val,                        \
                                         simt::sim::Loc loc = simt::sim::Loc::current()) {   \
        simt::sim::detail::scope_next_atomic<simt::sim::detail::Scope::scope>();             \
        __atomic_compare_exchange(simt::sim::detail::atomic_target(p, loc), &compare, &val,  \
                                  false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);                \
        return compare;                                                                      \
    }                                                                                        \
    template <class T>                                                                       \
        requires simt::sim::detail::one_of<T, int, unsigned, unsigned long long, unsigned short> \
    [[gnu::always_inline]] inline T name(T* p, std::type_identity_t<T> compare,             \
                                         std::type_identity_t<T> val) {                      \
        simt::sim::detail::scope_next_atomic<simt::sim::detail::Scope::scope>();             \
        __atomic_compare_exchange(p, &compare, &val, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED); \
        return compare;                                                                      \
    }
SIMT_SIM_ATOMIC_CAS(atomicCAS, device)
SIMT_SIM_ATOMIC_CAS(atomicCAS_block, block)
SIMT_SIM_ATOMIC_CAS(atomicCAS_system, system)
#undef SIMT_SIM_ATOMIC_CAS

/// Orders this thread's memory accesses as seen by the threads of the scope (CUDA's fences):
/// before an atomic write it makes a release, after an atomic read an acquire (docs/checkers.md).
inline void __threadfence() { simt::sim::detail::fence(simt::sim::detail::Scope::device); }
inline void __threadfence_block() { simt::sim::detail::fence(simt::sim::detail::Scope::block); }
inline void __threadfence_system() { simt::sim::detail::fence(simt::sim::detail::Scope::system); }
