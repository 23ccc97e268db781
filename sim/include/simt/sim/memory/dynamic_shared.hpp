// simt::dynamic_shared<T>(): the running block's dynamic shared memory as a checked span.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include "simt/sim/memory/shared.hpp"
#include "simt/view/span.hpp"

namespace simt {

/// The dynamic shared memory of the running block (LaunchOptions::shared_bytes), as T.
/// In the simulator: fresh (poisoned) per block and bounds-checked.
template <class T>
span<T> dynamic_shared() {
    auto* a = sim::detail::dynamic_shared_area();
    return span<T>(ptr<T>(reinterpret_cast<T*>(a->base), a), a->bytes / sizeof(T));
}

}  // namespace simt
