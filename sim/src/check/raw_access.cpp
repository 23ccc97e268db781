// The raw-access hooks: what instrumented code calls before every load, store and atomic.
//
// Simulator builds compile the user's sources with the compiler's thread-sanitizer
// instrumentation (cmake/simt.cmake) but link them with these entry points instead of the
// sanitizer's runtime, as Linux's KCSAN does. Each one first asks whether the address is in the
// device arena (memory/arena.hpp), two instructions, and returns if not: the program's own
// stack, heap and globals are none of simt's business, unless the program passed them to a
// running kernel (memory/host_pointers.hpp). An arena address is a device, shared or
// constant array: it goes through the same rules as a view's access (checker.cpp), with the
// return address standing in for the source line until a report needs it (report/symbolize.hpp).
//
// The access itself is made by the instrumented code after the hook returns; the hook cannot
// replace it with scratch as a view does. Red pages around every allocation keep a small overrun
// harmless; an address past everything allocated would fault, so that thread ends instead.
#include <cstdint>
#include <cstring>

#include "checker.hpp"
#include "shadow.hpp"
#include "../memory/arena.hpp"
#include "host_pointers.hpp"
#include "../thread/fault.hpp"
#include "../report/finding.hpp"
#include "../report/symbolize.hpp"

namespace simt::sim::detail {

namespace {

/// A host access: allowed only to managed memory, as on a GPU, where any other would fault.
/// The host touches managed memory: a data race with a kernel it was given and that nothing has
/// waited for since (the unsynchronised read after a launch, the commonest managed-memory bug).
[[gnu::noinline]] void host_touches_managed(const Allocation* a, const void* p, std::size_t n,
                                            Access k, const void* pc) {
    const Loc* launch = launch_order::unwaited_launch_given(*a);
    if (!launch) return;
    Draft d;
    d.kind = FindingKind::data_race;
    d.hint = Hint::host_before_wait;
    d.array = a;
    d.element = static_cast<long long>((static_cast<const std::byte*>(p) - a->base) /
                                       static_cast<std::ptrdiff_t>(a->elem_size));
    d.access_size = n;
    DraftSite host;
    host.loc = loc_of(pc);
    host.access = k == Access::read ? "read" : "write";
    host.host = true;
    DraftSite kernel;
    kernel.loc = *launch;
    kernel.access = "launch";
    kernel.host = true;
    d.sites = {host, kernel};
    std::vector<PendingFinding> fs{{0, 0, key_of(d), std::move(d), {}, 1}};
    publish(fs);
}

void host_access(Allocation* a, const void* p, std::size_t n, Access k, const void* pc) {
    if (a && a->managed && !a->freed) {
        if (config().check_race) host_touches_managed(a, p, n, k, pc);
        return;
    }
    report_invalid({invalid_kind(a), a, p, n, k, loc_of(pc), nullptr, nullptr, nullptr, 0, true});
}

/// Whether an access the compiler made as one naturally aligned load or store (`aligned`: not
/// one of the __tsan_unaligned_* or range entry points) is not aligned, as a GPU requires.
/// GCC makes a 16-byte access of an 8-aligned struct (two doubles) one __tsan_read16, which nvcc
/// would split in two: 16 bytes are asked only for 8-byte alignment, so a float4 at 8 mod 16
/// goes unreported rather than such a copy reported.
[[gnu::always_inline]] inline bool misaligned(const void* p, std::size_t n, bool aligned) {
    return aligned && (reinterpret_cast<std::uintptr_t>(p) & ((n < 8 ? n : 8) - 1)) != 0;
}

/// An in-bounds access to the shadow checkers: straight to the race rule when it is the only one
/// (and the watchdog is not stopping the launch), else through the checker seam. A `noted` one
/// (atomic or volatile: tls_atomic_note) skips the race rule's shortcuts for plain accesses.
[[gnu::always_inline]] inline void shadow_record(Allocation* a, const void* p, std::size_t n,
                                                 Access k, const void* pc, bool noted = false) {
    if (!tls::shadow_checks.load(std::memory_order_relaxed)) return;
    if (tls::race_direct && !stop_requested.load(std::memory_order_relaxed)) [[likely]]
        return noted ? record_raw(a, p, n, k, pc) : race_raw_access(a, p, n, k, pc);
    record_raw_access(a, p, n, k, pc);
}

/// A kernel's access to memory cudaMalloc'd on another device, whose memory its device was not
/// given access to: on a GPU the address is not mapped there, and the kernel faults.
[[noreturn]] void other_device(const Allocation* a, const void* p, std::size_t n, Access k,
                               const void* pc) {
    FaultDraft f = fault_here(FaultDraft::Problem::other_device, loc_of(pc));
    f.access = k;
    f.array = a;
    f.bytes = n;
    f.offset = static_cast<std::size_t>(static_cast<const std::byte*>(p) - a->base);
    f.device = a->device;
    f.running = tls::worker->block.grid->k.device;
    end_thread(f, cudaErrorIllegalAddress);
}

/// Every access but a kernel's plain aligned load or store in bounds: the host's, one out of
/// bounds, a misaligned one, a write to constant memory, an atomic or volatile one, a write under
/// the interleaving schedule.
[[gnu::noinline]] void raw_access_slow(Allocation* a, const void* p, std::size_t n, Access k,
                                       bool aligned, const void* pc, bool noted) {
    if (!tls::thread) return host_access(a, p, n, k, pc);
    auto* b = static_cast<const std::byte*>(p);
    if (!a || !a->holds(p, n)) [[unlikely]] {
        // A range that starts inside and runs past the end (of the array, or of a pitched row)
        // is named by its first element out.
        const std::byte* bad = b;
        if (a && !a->freed && b >= a->base && b < a->base + a->bytes) {
            bad = a->base + a->bytes;
            if (a->pitch) {  // past its row's width, into the padding before the next row
                const std::byte* row_end =
                    b - static_cast<std::size_t>(b - a->base) % a->pitch + a->row_bytes;
                if (row_end < bad) bad = std::max(b, row_end);
            }
        }
        report_invalid(
            {invalid_kind(a), a, bad, n, k, loc_of(pc), tls::thread, nullptr, nullptr, 0, true});
        if (!arena::mapped(p))  // nothing there to read or write: the thread cannot go on
            tls::worker->fail_thread(
                fault_text(fault_here(FaultDraft::Problem::never_allocated, loc_of(pc))),
                cudaErrorIllegalAddress);
        return;
    }
    if (!(a->device_bits & tls::reachable_devices)) [[unlikely]]
        other_device(a, p, n, k, pc);
    if (a->space == Space::constant && k != Access::read) [[unlikely]]
        report_invalid({Invalid::constant_write, a, p, n, k, loc_of(pc), tls::thread, nullptr,
                        nullptr, 0, true});
    if (misaligned(p, n, aligned || k == Access::atomic)) [[unlikely]] {
        report_invalid(
            {Invalid::misaligned, a, p, n, k, loc_of(pc), tls::thread, nullptr, nullptr, 0, true});
        // A GPU stops the kernel here, and so does the thread: a CPU would make most such
        // accesses, but a 16-byte one the compiler made with an aligned vector load faults.
        FaultDraft f = fault_here(FaultDraft::Problem::misaligned, loc_of(pc));
        f.bytes = n;
        tls::worker->fail_thread(fault_text(f), cudaErrorMisalignedAddress);
    }
    // A thread that reads what it read last time at this line waits, in a checked build, until
    // another thread changes it (block/spin.cpp): a spin on a flag or a lock.
    // The note is this thread's: other threads run on this OS thread while it waits, and must
    // not see it.
    if (noted && n <= 8 && tls::shadow_checks.load(std::memory_order_relaxed)) {
        AtomicNote* note = tls_atomic_note;
        if (note->reads && note->may_spin) {
            tls_atomic_note = nullptr;
            spin_point(p, n, pc, unsigned(note->writes) | unsigned(note->expected != nullptr) << 1);
            tls_atomic_note = note;
        } else if (note->writes) {  // the thread's own write: no spin goes on across it
            spin_forget(tls::worker->block, tls::thread->linear, 1);
        }
    }
    shadow_record(a, p, n, k, pc, noted);
    if (noted) tls_atomic_note = nullptr;  // seen: the switch below may run other threads
    // The hook runs before the store: under SIMT_SCHEDULE=interleave another thread may run
    // between this thread's load and its store, so `p[0] += 1` loses updates as on a GPU.
    if (k == Access::write) rmw_point(Loc{});
}

/// The usual access, a kernel's plain load or store in bounds, is decided here with loads and
/// compares only, and goes on to the shadow checks as a tail call; anything else goes to
/// raw_access_slow. So this part saves no registers. Inlined into each entry point, where the
/// size, the kind and the alignment are constants that fold most of the tests away.
[[gnu::always_inline]] inline void raw_access(const void* p, std::size_t n, Access k, bool aligned,
                                              const void* pc, bool noted) {
    if (p == tls::view_access) {  // a view's access, checked by the view already
        tls::view_access = nullptr;
        return;
    }
    Allocation* a = arena::owner_in_range(p);
    bool plain = tls::thread && a && a->holds(p, n) && (a->device_bits & tls::reachable_devices) &&
                 (a->space != Space::constant || k == Access::read) && k != Access::atomic &&
                 !misaligned(p, n, aligned) && !(k == Access::write && tls::interleave) && !noted;
    if (!plain) [[unlikely]] return raw_access_slow(a, p, n, k, aligned, pc, noted);
    shadow_record(a, p, n, k, pc);
}

}  // namespace

void* check_access_marked(const Allocation* a, void* p, std::size_t size, Access k, Loc loc) {
    void* q = check_access(a, p, size, k, loc);
    if (q == p) tls::view_access = p;
    return q;
}

namespace {

/// `aligned`: the compiler made the access as one load or store of n bytes, which a GPU can do
/// only at a multiple of n (a range, or one the compiler knew may be unaligned, it splits).
/// `noted`: an atomic or volatile access, which tls_atomic_note describes.
[[gnu::always_inline]] inline void check(const volatile void* p, std::size_t n, Access k,
                                         const void* pc, bool aligned = false,
                                         bool noted = false) {
    if (arena::contains(const_cast<const void*>(p))) [[unlikely]]
        raw_access(const_cast<const void*>(p), n, k, aligned, pc, noted);
    else if (host_memory_launches.load(std::memory_order_relaxed) != 0 &&
             (k != Access::read || watching_launches.load(std::memory_order_relaxed) != 0))
        [[unlikely]]
        host_memory_access(const_cast<const void*>(p), n, k, pc);
}

/// The scope of the atomic being made: what its call named (atomics.hpp), once.
Scope take_scope() {
    Scope s = next_atomic_scope;
    if (s != Scope::device) [[unlikely]] next_atomic_scope = Scope::device;
    return s;
}

/// An atomic's hook: `reads` and `writes` say what it does, `order` is the memory order it was
/// made with, `expected` a compare-and-swap's expected value.
[[gnu::always_inline]] inline void check_atomic(const volatile void* p, std::size_t n, bool reads,
                                                bool writes, int order, const void* pc,
                                                const void* expected = nullptr,
                                                bool may_spin = true) {
    const Scope scope = take_scope();
    const bool continues = next_atomic_continues;
    if (continues) [[unlikely]] next_atomic_continues = false;
    // The usual atomic, atomicAdd(p, 1): relaxed, of device scope, a read-modify-write that changes
    // the memory. It needs no note: the race rule takes an unnoted atomic as that (race.cpp).
    if (scope == Scope::device && order == __ATOMIC_RELAXED && reads && writes && !expected &&
        !may_spin) [[likely]]
        return check(p, n, Access::atomic, pc, true);
    AtomicNote note{reads, writes, scope, order, false, expected, may_spin};
    tls_atomic_note = &note;
    tls_profile_uncounted = continues ? &note : nullptr;
    check(p, n, Access::atomic, pc, true, true);
    tls_atomic_note = nullptr;
}

/// A volatile load or store's hook (a relaxed atomic of system scope in global memory).
[[gnu::always_inline]] inline void check_volatile(const volatile void* p, std::size_t n, Access k,
                                                  const void* pc, bool aligned) {
    AtomicNote note{k == Access::read, k == Access::write, Scope::system, __ATOMIC_RELAXED, true};
    tls_atomic_note = &note;
    check(p, n, k, pc, aligned, true);
    tls_atomic_note = nullptr;
}

}  // namespace

}  // namespace simt::sim::detail

using simt::sim::detail::Access;
using simt::sim::detail::check;
using simt::sim::detail::check_atomic;
using simt::sim::detail::check_volatile;

// The entry points, with the names and signatures GCC's and Clang's instrumentation call
// (compiler-rt's tsan_interface.h and tsan_interface_atomic.h).
#define SIMT_RET __builtin_return_address(0)
extern "C" {

void __tsan_init() { simt::sim::detail::instrumented_build = true; }
void __tsan_func_entry(void*) {}
void __tsan_func_exit() {}
void __tsan_vptr_update(void**, void*) {}
void __tsan_vptr_read(void**) {}
void __tsan_read_range(void* p, unsigned long n) { check(p, n, Access::read, SIMT_RET); }
void __tsan_write_range(void* p, unsigned long n) { check(p, n, Access::write, SIMT_RET); }

#define SIMT_TSAN_PLAIN(n)                                                                       \
    void __tsan_read##n(void* p) { check(p, n, Access::read, SIMT_RET, true); }                  \
    void __tsan_write##n(void* p) { check(p, n, Access::write, SIMT_RET, true); }                \
    void __tsan_unaligned_read##n(void* p) { check(p, n, Access::read, SIMT_RET); }              \
    void __tsan_unaligned_write##n(void* p) { check(p, n, Access::write, SIMT_RET); }            \
    void __tsan_volatile_read##n(void* p) { check_volatile(p, n, Access::read, SIMT_RET, true); } \
    void __tsan_volatile_write##n(void* p) {                                                     \
        check_volatile(p, n, Access::write, SIMT_RET, true);                                     \
    }                                                                                            \
    void __tsan_unaligned_volatile_read##n(void* p) {                                            \
        check_volatile(p, n, Access::read, SIMT_RET, false);                                     \
    }                                                                                            \
    void __tsan_unaligned_volatile_write##n(void* p) {                                           \
        check_volatile(p, n, Access::write, SIMT_RET, false);                                    \
    }
SIMT_TSAN_PLAIN(1)
SIMT_TSAN_PLAIN(2)
SIMT_TSAN_PLAIN(4)
SIMT_TSAN_PLAIN(8)
SIMT_TSAN_PLAIN(16)
#undef SIMT_TSAN_PLAIN

// The atomics: each checked with what it does and the memory order it was made with (a CUDA
// atomicAdd is relaxed; libcu++'s and std::atomic_ref's carry theirs), then done sequentially
// consistent, which is never weaker than what was asked for.
#define SIMT_TSAN_ATOMIC(bits, T)                                                                  \
    T __tsan_atomic##bits##_load(const volatile T* p, int mo) {                                    \
        check_atomic(p, sizeof(T), true, false, mo, SIMT_RET);                                     \
        return __atomic_load_n(p, __ATOMIC_SEQ_CST);                                               \
    }                                                                                              \
    void __tsan_atomic##bits##_store(volatile T* p, T v, int mo) {                                 \
        check_atomic(p, sizeof(T), false, true, mo, SIMT_RET);                                     \
        __atomic_store_n(p, v, __ATOMIC_SEQ_CST);                                                  \
    }                                                                                              \
    T __tsan_atomic##bits##_exchange(volatile T* p, T v, int mo) {                                 \
        check_atomic(p, sizeof(T), true, true, mo, SIMT_RET);                                      \
        return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);                                        \
    }                                                                                              \
    SIMT_TSAN_FETCH(bits, T, add)                                                                  \
    SIMT_TSAN_FETCH(bits, T, sub)                                                                  \
    SIMT_TSAN_FETCH(bits, T, and)                                                                  \
    SIMT_TSAN_FETCH(bits, T, or)                                                                   \
    SIMT_TSAN_FETCH(bits, T, xor)                                                                  \
    SIMT_TSAN_FETCH(bits, T, nand)                                                                 \
    int __tsan_atomic##bits##_compare_exchange_strong(volatile T* p, T* expected, T v, int mo,     \
                                                      int) {                                       \
        check_atomic(p, sizeof(T), true, true, mo, SIMT_RET, expected);                            \
        return __atomic_compare_exchange_n(p, expected, v, false, __ATOMIC_SEQ_CST,                \
                                           __ATOMIC_SEQ_CST);                                      \
    }                                                                                              \
    int __tsan_atomic##bits##_compare_exchange_weak(volatile T* p, T* expected, T v, int mo,       \
                                                    int) {                                         \
        check_atomic(p, sizeof(T), true, true, mo, SIMT_RET, expected);                            \
        return __atomic_compare_exchange_n(p, expected, v, true, __ATOMIC_SEQ_CST,                 \
                                           __ATOMIC_SEQ_CST);                                      \
    }                                                                                              \
    T __tsan_atomic##bits##_compare_exchange_val(volatile T* p, T expected, T v, int mo, int) {    \
        check_atomic(p, sizeof(T), true, true, mo, SIMT_RET, &expected);                           \
        __atomic_compare_exchange_n(p, &expected, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);   \
        return expected;                                                                           \
    }
// An add, sub, or or xor of 0, or an and of all ones, leaves the memory as it was: a read.
#define SIMT_TSAN_FETCH(bits, T, op)                                                             \
    T __tsan_atomic##bits##_fetch_##op(volatile T* p, T v, int mo) {                             \
        check_atomic(p, sizeof(T), true, true, mo, SIMT_RET, nullptr, SIMT_TSAN_LEAVES_##op(T, v)); \
        return __atomic_fetch_##op(p, v, __ATOMIC_SEQ_CST);                                      \
    }
#define SIMT_TSAN_LEAVES_add(T, v) (v == T(0))
#define SIMT_TSAN_LEAVES_sub(T, v) (v == T(0))
#define SIMT_TSAN_LEAVES_or(T, v) (v == T(0))
#define SIMT_TSAN_LEAVES_xor(T, v) (v == T(0))
#define SIMT_TSAN_LEAVES_and(T, v) (v == T(~T(0)))
#define SIMT_TSAN_LEAVES_nand(T, v) false
SIMT_TSAN_ATOMIC(8, char)
SIMT_TSAN_ATOMIC(16, short)
SIMT_TSAN_ATOMIC(32, int)
SIMT_TSAN_ATOMIC(64, long)
#undef SIMT_TSAN_FETCH
#undef SIMT_TSAN_LEAVES_add
#undef SIMT_TSAN_LEAVES_sub
#undef SIMT_TSAN_LEAVES_or
#undef SIMT_TSAN_LEAVES_xor
#undef SIMT_TSAN_LEAVES_and
#undef SIMT_TSAN_LEAVES_nand
#undef SIMT_TSAN_ATOMIC

// memcpy, memmove and memset of checked sources (sim/cuda_include/simt_memory_calls.h): each
// range is one access, checked before the C library does the work (the destination first: when
// both run past their arrays, the write is the one a report names).
void* simt_memcpy(void* dst, const void* src, std::size_t n) {
    if (n) {
        check(dst, n, Access::write, SIMT_RET);
        check(src, n, Access::read, SIMT_RET);
    }
    return std::memcpy(dst, src, n);
}
void* simt_memmove(void* dst, const void* src, std::size_t n) {
    if (n) {
        check(dst, n, Access::write, SIMT_RET);
        check(src, n, Access::read, SIMT_RET);
    }
    return std::memmove(dst, src, n);
}
void* simt_memset(void* dst, int value, std::size_t n) {
    if (n) check(dst, n, Access::write, SIMT_RET);
    return std::memset(dst, value, n);
}

// std::atomic_thread_fence in a kernel: a fence of system scope, as C++'s own are.
void __tsan_atomic_thread_fence(int mo) {
    simt::sim::detail::fence(simt::sim::detail::Scope::system, mo);
}
void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }

}  // extern "C"
