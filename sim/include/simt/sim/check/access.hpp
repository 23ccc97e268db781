// The access hook: every element access of ptr, span, mdspan, shared and every atomic passes here.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include <atomic>
#include <cstddef>
#include <type_traits>

#include "simt/sim/location.hpp"
#include "simt/sim/memory/allocation.hpp"
#include "simt/sim/thread/context.hpp"

namespace simt::sim::detail {

/// Reports an access that must not happen (out of bounds, freed, null, from the host) and
/// returns poisoned scratch memory to perform it on instead. Cold: it formats a report.
[[gnu::cold, gnu::noinline]] std::byte* bad_access(const Allocation* a, const void* p,
                                                   std::size_t size, Access kind, Loc loc);
/// Reports an index outside a view's extents (with every index and extent) and returns scratch.
[[gnu::cold, gnu::noinline]] std::byte* bad_index(const Allocation* a, const std::ptrdiff_t* idx,
                                                  const std::size_t* ext, int rank,
                                                  std::size_t size, Loc loc);
/// The Allocation that scratch memory belongs to on this OS thread.
const Allocation* scratch_allocation();
/// Records an in-bounds access for the shadow checkers (race, init).
void record_access(const Allocation* a, const void* p, std::size_t size, Access kind, Loc loc);

/// The checks of one element access. Order of the early returns: in bounds and on a device
/// thread (the common case), then shadow checks when a checker is on; anything else is a bad
/// access, reported out of line. Returns where to perform the access.
[[gnu::always_inline]] inline void* check_access(const Allocation* a, void* p, std::size_t size,
                                                 Access k, Loc loc) {
    if (a == nullptr || tls::thread == nullptr || !a->holds(p, size)) [[unlikely]]
        return bad_access(a, p, size, k, loc);
    if (tls::shadow_checks.load(std::memory_order_relaxed)) [[unlikely]]
        record_access(a, p, size, k, loc);
    return p;
}
/// check_access, compiled in simt's library, for programs built with the raw-access
/// instrumentation; it also marks the element so that the instrumented access that follows
/// skips its own check (raw_access.cpp).
void* check_access_marked(const Allocation* a, void* p, std::size_t size, Access k, Loc loc);

#if defined(SIMT_UNCHECKED)
/// Called once per file built UNCHECKED, during static initialisation: when no file of the
/// program has the raw-access instrumentation, it runs with every checker off and its blocks on
/// every worker, and says nothing at exit, whatever SIMT_CHECK says (process.cpp). SIMT_PROFILE
/// counts none of its accesses and says so once.
void unchecked_build_file();
inline const bool unchecked_build_noted = (unchecked_build_file(), true);
#endif

/// The hook. In a program built UNCHECKED (cmake/simt.cmake defines SIMT_UNCHECKED for its
/// sources) it is the pointer itself, so that a view's element costs what a raw pointer's does.
/// In one built with the raw-access instrumentation it is a call: inlined, the checks' own loads
/// and stores (the allocation record, simt's thread-locals) would each be instrumented too.
/// Being always inlined, the versions never meet at link time.
template <Access K, class T>
[[gnu::always_inline]] inline T* access(const Allocation* a, T* p, Loc loc) {
#if defined(SIMT_UNCHECKED)
    (void)a, (void)loc;
    return p;
#elif defined(__SANITIZE_THREAD__)
    return static_cast<T*>(
        check_access_marked(a, const_cast<std::remove_const_t<T>*>(p), sizeof(T), K, loc));
#else
    return static_cast<T*>(
        check_access(a, const_cast<std::remove_const_t<T>*>(p), sizeof(T), K, loc));
#endif
}

}  // namespace simt::sim::detail
