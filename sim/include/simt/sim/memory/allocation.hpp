// Allocation: what the simulator knows about one block of device or shared memory.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "simt/sim/location.hpp"

namespace simt::sim::detail {

/// Where an array lives: `constant` is a `__constant__` variable (kernels may only read it).
enum class Space : std::uint8_t { global, shared, constant };
enum class Access : std::uint8_t { read, write, atomic };

/// Every checked view carries a pointer to the Allocation it points into. Records are never
/// deleted, so a view that outlives its array still finds out that the memory was freed.
struct Allocation {
    std::byte* base = nullptr;
    std::size_t bytes = 0;       ///< bytes that may be accessed now; 0 once freed
    std::size_t size = 0;        ///< bytes allocated (kept after free, for reports)
    std::size_t elem_size = 1;
    const char* elem_type = "";
    Space space = Space::global;
    bool freed = false;
    bool cuda = false;           ///< made by cudaMalloc (reports then speak the runtime API)
    bool managed = false;        ///< cudaMallocManaged: the host may touch it too
    bool scratch = false;        ///< the poison target of an access that was not performed
    bool symbol =
        false;  ///< a `__device__` or `__constant__` variable: lives as long as the program
    Loc site;                    ///< where it was allocated (or declared, for shared arrays)
    std::string name;            ///< the user's name for it, found lazily for reports
    std::uint64_t id = 0;
    bool host_init = false;      ///< every byte was written by a host copy (initcheck)
    int device = 0;              ///< the simulated device it was allocated on (cudaSetDevice)
    /// Bit d set: a kernel on device d reaches it without peer access. cudaMalloc'd memory is
    /// its device's alone; managed memory, variables, shared memory and simt's arrays, anyone's.
    std::uint16_t device_bits = 0xFFFF;
    void* shadow = nullptr;      ///< the race and init checkers' cells, one per element
    std::size_t shadow_cells = 0;
    /// The shadow's second part (escaped stamps, second readers) is in use: it counts from then.
    bool shadow_extra = false;
    /// The parallel attempt (check/attempt.hpp) that copied this allocation last, to undo it.
    std::uint32_t attempt_mark = 0;
    /// Its elements per granule (log2) in the owning attempt that copied it last, and whether
    /// that attempt made its shadow (all zeros before: nothing to copy).
    std::uint8_t attempt_granule = 0;
    bool attempt_fresh = false;
    /// cudaMallocPitch and cudaMalloc3D: rows of `row_bytes` bytes, `pitch` bytes apart. The
    /// padding after each row's width is allocated but no element's (0: not made of rows).
    std::size_t pitch = 0, row_bytes = 0;
    /// Whether the n bytes at p may be accessed now: in bounds, within a row, and not freed. The
    /// one bounds test of views' and raw accesses.
    bool holds(const void* p, std::size_t n) const {
        auto* b = static_cast<const std::byte*>(p);
        return !freed && b >= base && b + n <= base + bytes &&
               (pitch == 0 || static_cast<std::size_t>(b - base) % pitch + n <= row_bytes);
    }
    /// A shared array declared with 2 or 3 dimensions (`int[4][8]`): its extents, so that reports
    /// name an element as (3, 5) as the bounds check does. rank 1: a flat index.
    unsigned rank = 1;
    std::size_t extents[3] = {};
};

}  // namespace simt::sim::detail
