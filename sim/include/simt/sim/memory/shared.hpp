// The simulator's storage policy for simt::shared: the array and its allocation record, fresh
// (poisoned) for every block.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "simt/core/type_name.hpp"
#include "simt/sim/location.hpp"
#include "simt/sim/memory/allocation.hpp"
#include "simt/sim/memory/ptr.hpp"
#include "simt/sim/thread/context.hpp"

namespace simt::sim::detail {

/// Poisons a shared array for the block now running and accounts its bytes to the block.
void refresh_shared(Allocation& a, std::uint64_t& epoch);
/// A shared array's record and storage (in the device arena, so that raw accesses to it are
/// checked too), made when the array is first used on an OS thread and kept for the process.
/// `name`: what reports call it; null to read it from the declaration's line.
Allocation* make_shared_array(std::size_t bytes, std::size_t elem_size, const char* elem_type,
                              unsigned rank, const std::size_t (&extents)[3], Loc site,
                              const char* name);
/// The block's dynamic shared memory (LaunchOptions::shared_bytes), fresh for every block.
Allocation* dynamic_shared_area();

/// A shared array's storage. `__shared__` makes it one object per OS thread, which is one block
/// at a time; the epoch tells a block that starts on that thread to poison it again.
template <class A>
class SharedStorage {
    using T = std::remove_all_extents_t<A>;
    static constexpr bool by_element = simt::detail::checked_as_element<T>;

public:
    /// Reports name the array after the line that declared it.
    static constexpr bool tracks_site = true;

    /// `name`: what reports call it; without one it is read from the declaration's line. The
    /// record is filled in the library, not here: this code is the kernel's, instrumented, and a
    /// checked launch tried on every worker would take those writes for the kernel's own
    /// (check/host_pointers.cpp).
    explicit SharedStorage(Loc site, const char* name = nullptr)
        : alloc_(make_shared_array(sizeof(A), by_element ? sizeof(T) : 1,
                                   by_element ? simt::detail::type_name<T>() : "byte", rank(),
                                   {std::extent_v<A, 0>, std::extent_v<A, 1>, std::extent_v<A, 2>},
                                   site, name)) {}
    /// Element 0, checked, once the array is fresh for the running block.
    [[gnu::always_inline]] simt::ptr<T> handle() {
        if (epoch_ != tls::block_epoch) [[unlikely]]
            refresh_shared(*alloc_, epoch_);
        return simt::ptr<T>(reinterpret_cast<T*>(alloc_->base), alloc_);
    }
    /// The array itself, fresh for the running block: what a plain `__shared__ T name[N]` is.
    [[gnu::always_inline]] A& array() {
        if (epoch_ != tls::block_epoch) [[unlikely]]
            refresh_shared(*alloc_, epoch_);
        return *reinterpret_cast<A*>(alloc_->base);
    }

private:
    // Reports name 2-D and 3-D arrays' elements by index tuple, as the bounds check does.
    static constexpr unsigned rank() {
        return by_element && (std::rank_v<A> == 2 || std::rank_v<A> == 3) ? std::rank_v<A> : 1;
    }
    Allocation* alloc_;
    std::uint64_t epoch_ = 0;
};

/// What the front end (sim/frontend) turns a plain `__shared__ T name[N][M];` in a function
/// into: `static thread_local SharedDecl<T[N][M]> ...; T (&name)[N][M] = ....array();`, so that
/// the array is fresh for every block, checked, and named in reports.
template <class A>
using SharedDecl = SharedStorage<std::remove_cv_t<A>>;

/// What `extern __shared__ T name[];` becomes: the running block's dynamic shared memory as T*.
template <class T>
T* extern_shared() {
    return static_cast<T*>(static_cast<void*>(dynamic_shared_area()->base));
}

/// The same at namespace scope, where there is no block yet: found again at every use.
template <class T>
struct ExternShared {
    T* get() const { return extern_shared<T>(); }
    operator T*() const { return get(); }
    T& operator[](std::ptrdiff_t i) const { return get()[i]; }
    template <class U>
    explicit operator U*() const { return static_cast<U*>(static_cast<void*>(get())); }
};

}  // namespace simt::sim::detail

