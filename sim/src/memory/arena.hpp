// The device arena: one reserved range of addresses that all simulated device, shared and
// constant memory comes from, so that a raw pointer can be told apart from host memory in two
// instructions and traced back to its allocation in one table lookup.
//
// Ground rules:
//  - The range is reserved once (PROT_NONE, no memory behind it) and never moves. Allocations
//    are carved from it in order and their addresses are never reused, so a dangling pointer
//    always finds the allocation it came from and is reported as a use after free.
//  - Every allocation starts on a page boundary and has a red page before and after it. The red
//    pages and the rest of its last page are readable and writable (filled with poison) and
//    belong to it in the owner table: a raw access just outside an array is reported against that
//    array and then done harmlessly, as AddressSanitizer's red zones are.
//  - A freed allocation's pages are returned to the system (they read as zero) but stay mapped
//    and owned, so a late access is reported, not a crash.
//  - What lies past the last allocation stays inaccessible: an access there cannot be done at all.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>

#include <simt/simt.hpp>

namespace simt::sim::detail::arena {

/// What device and shared memory hold before anything writes them, and what a read that is not
/// performed gives: every byte 0xFF, -1 as an integer and NaN as a float, so that it stands out.
inline constexpr unsigned char poison_byte = 0xFF;

/// The reserved range, for the raw-access hooks' fast test. Zero until the first allocation.
inline std::atomic<std::uintptr_t> lo{0}, span{0};
/// The owner table (one entry per page) and log2 of the page size, published with the range.
inline std::atomic<std::atomic<Allocation*>*> owners{nullptr};
inline std::atomic<int> page_shift{0};

/// Whether `p` lies in the reserved range: the test every instrumented load and store makes.
[[gnu::always_inline]] inline bool contains(const void* p) {
    return reinterpret_cast<std::uintptr_t>(p) - lo.load(std::memory_order_relaxed) <
           span.load(std::memory_order_relaxed);
}

/// Why reserve() has no memory: the addresses left and in all, or the system refusing pages.
/// The caller says it, with where the memory was asked for (report/'s OutOfMemory).
struct Shortage {
    std::size_t left = 0, addresses = 0;
    bool system = false;
};
/// Memory for `owner`'s `bytes`, page-aligned, between red pages, filled with poison; null, and
/// `why`, when there is none.
std::byte* reserve(Allocation* owner, std::size_t bytes, Shortage& why);
/// Gives the memory of [base, base + bytes) back to the system; its addresses stay owned.
void release(std::byte* base, std::size_t bytes);
/// The allocation whose pages (red pages included) hold `p`, which must lie in the range
/// (contains(p)); null where nothing was allocated. Inline: every raw device access asks.
inline Allocation* owner_in_range(const void* p) {
    std::uintptr_t off = reinterpret_cast<std::uintptr_t>(p) - lo.load(std::memory_order_relaxed);
    return owners.load(std::memory_order_relaxed)[off >> page_shift.load(std::memory_order_relaxed)]
        .load(std::memory_order_relaxed);
}
/// Whether `p` may be read or written at all (false past the last allocation).
bool mapped(const void* p);

}  // namespace simt::sim::detail::arena
