// __ldg and CUDA's other loads and stores with a cache hint: plain accesses in the simulator.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include <type_traits>

#include "simt/sim/location.hpp"
#include "simt/sim/memory/ptr.hpp"

// A GPU routes these through a given cache (__ldg: the read-only data cache); the value is the
// one a plain access gives, which is what they are here, for every type (scalars, vector types,
// __half). Through a raw pointer the instrumentation checks the access; through a simt::ptr
// the pointer does, and a report names the caller's line.
#define SIMT_SIM_LOAD(name)                                                                   \
    template <class T>                                                                        \
    inline T name(const T* p) { return *p; }                                                  \
    template <class T>                                                                        \
    inline std::remove_const_t<T> name(simt::ptr<T> p,                                        \
                                       simt::sim::Loc loc = simt::sim::Loc::current()) {      \
        return p[simt::sim::Index(0, loc)];                                                   \
    }
#define SIMT_SIM_STORE(name)                                                                  \
    template <class T>                                                                        \
    inline void name(T* p, std::type_identity_t<T> v) { *p = v; }                             \
    template <class T>                                                                        \
    inline void name(simt::ptr<T> p, std::type_identity_t<T> v,                               \
                     simt::sim::Loc loc = simt::sim::Loc::current()) {                        \
        p[simt::sim::Index(0, loc)] = v;                                                      \
    }
SIMT_SIM_LOAD(__ldg)   // read-only data cache
SIMT_SIM_LOAD(__ldca)  // cache at all levels
SIMT_SIM_LOAD(__ldcg)  // cache in L2, not L1
SIMT_SIM_LOAD(__ldcs)  // streaming: likely used once
SIMT_SIM_LOAD(__ldlu)  // last use
SIMT_SIM_LOAD(__ldcv)  // volatile: fetch again
SIMT_SIM_STORE(__stwb)  // write back at all levels
SIMT_SIM_STORE(__stcg)  // cache in L2, not L1
SIMT_SIM_STORE(__stcs)  // streaming
SIMT_SIM_STORE(__stwt)  // write through
#undef SIMT_SIM_LOAD
#undef SIMT_SIM_STORE
