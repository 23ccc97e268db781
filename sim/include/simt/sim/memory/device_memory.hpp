// The simulator's memory policy for DeviceArray: allocations in simt's device memory.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include <cstddef>

#include "simt/core/type_name.hpp"
#include "simt/sim/location.hpp"
#include "simt/sim/memory/allocation.hpp"
#include "simt/sim/memory/ptr.hpp"

namespace simt::sim::detail {

/// Allocates device memory (256-byte aligned, like cudaMalloc), poisoned and uninitialised, on
/// simulated device `device`, each of which has the whole memory of the GPU it models.
Allocation* allocate(std::size_t bytes, std::size_t elem_size, const char* elem_type, Loc site,
                     int device = 0);
/// Bytes of global memory allocated on `device` and not freed.
std::size_t global_bytes_in_use(int device);
/// Frees it; the record stays so that later accesses are reported as use after free.
void release(Allocation* a);
/// Host-to-device and device-to-host copies; both wait for queued kernels first, like cudaMemcpy.
void copy_in(Allocation* a, const void* src, std::size_t bytes);
void copy_out(const Allocation* a, void* dst, std::size_t bytes);
/// Gives an allocation the name reports use for it.
void name_allocation(const Allocation* a, const char* name);

/// An array is its Allocation record, which knows its element type and where it was made.
struct DeviceMemory {
    using handle = Allocation*;

    template <class T>
    static handle allocate(std::size_t n, Loc site) {
        return detail::allocate(n * sizeof(T), sizeof(T), simt::detail::type_name<T>(), site);
    }
    static void release(handle h) { detail::release(h); }
    static void copy_in(handle h, const void* src, std::size_t bytes) {
        detail::copy_in(h, src, bytes);
    }
    static void copy_out(handle h, void* dst, std::size_t bytes) {
        detail::copy_out(h, dst, bytes);
    }
    template <class T>
    static simt::ptr<T> data(handle h) {
        return simt::ptr<T>(reinterpret_cast<T*>(h->base), h);
    }
    /// The device copy of a host vector passed to a launch is named as such in reports.
    template <class T>
    static void name_staged(simt::ptr<T> p) {
        name_allocation(p.allocation(), "host vector passed to simt::launch");
    }
};

}  // namespace simt::sim::detail
