// `__device__` and `__constant__` variables: storage in the device arena, so that kernels'
// accesses to them are checked like any device memory's, and a record that names them.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include <cstddef>
#include <type_traits>

#include "simt/core/type_name.hpp"
#include "simt/sim/location.hpp"
#include "simt/sim/memory/allocation.hpp"

namespace simt::sim::detail {

/// A variable's record and storage, made before main: filled with `init`'s bytes, or zeros (a
/// device variable without an initialiser is zero, as a C++ global is), so initcheck counts it
/// written. `managed`: a `__managed__` variable, which host code may touch too.
Allocation* make_symbol(std::size_t bytes, std::size_t elem_size, const char* elem_type,
                        unsigned rank, const std::size_t (&extents)[3], Space space, bool managed,
                        Loc site, const char* name, const void* init);

/// What the front end (sim/frontend) turns a namespace-scope `__constant__ float k[16];`
/// into: `SymbolDecl<float[16]> simt_symbol_k_{...}; float (&k)[16] = simt_symbol_k_.get();`,
/// so that `k` is the arena's storage under the user's name, `sizeof(k)` is unchanged, and
/// cudaMemcpyToSymbol(k, ...) finds the record from its address.
template <class A>
class SymbolDecl {
    using T = std::remove_all_extents_t<A>;
    static constexpr bool by_element = simt::detail::checked_as_element<T>;

public:
    SymbolDecl(Space space, bool managed, Loc site, const char* name, const void* init = nullptr)
        : alloc_(make_symbol(sizeof(A), by_element ? sizeof(T) : 1,
                             by_element ? simt::detail::type_name<std::remove_cv_t<T>>() : "byte",
                             rank(),
                             {std::extent_v<A, 0>, std::extent_v<A, 1>, std::extent_v<A, 2>}, space,
                             managed, site, name, init)) {}
    A& get() const { return *reinterpret_cast<A*>(alloc_->base); }

private:
    static constexpr unsigned rank() {
        return by_element && (std::rank_v<A> == 2 || std::rank_v<A> == 3) ? std::rank_v<A> : 1;
    }
    Allocation* alloc_;
};

}  // namespace simt::sim::detail
