// What the race checker's shadow cell of an element holds (shadow_peek.cpp).
#pragma once
#include <cstdint>
#include <optional>

namespace test {

/// An access a shadow cell keeps: its block (linear index), thread (linear in its block) and
/// line; or, when it is no block's, what it is.
struct ShadowRead {
    bool any = false;
    std::uint64_t block = 0;
    unsigned thread = 0, line = 0;
    enum class Other { none, host_copy, set_aside } other = Other::none;
    bool operator==(const ShadowRead&) const = default;
};
/// The cell's two reads: r (the one a later write is checked against first) and r2; and its
/// write.
struct ShadowReads {
    ShadowRead r, r2, w;
    bool operator==(const ShadowReads&) const = default;
};
/// The reads kept for the element at `element`, or nothing when it has no shadow.
std::optional<ShadowReads> kept_reads(const void* element);

}  // namespace test
