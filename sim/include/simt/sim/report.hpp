// What the checkers found, for tests and tools: simt::sim::findings().
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include <cstddef>
#include <string>
#include <vector>

namespace simt::sim {

/// One access (or barrier) a finding is about: where, by which thread of which block.
struct Site {
    std::string file;      ///< as the compiler saw it
    unsigned line = 0;
    uint3 thread{}, block{};
    std::string access;    ///< "read", "write", "atomic", "barrier", ...
};

/// A problem the simulator saw. Printed when its launch ends, once per kind and source site(s).
struct Finding {
    /// "data-race", "uninitialized-read", "out-of-bounds", "use-after-free", "null-pointer",
    /// "misaligned-atomic", "leak", "barrier-exit", "barrier-divergence", "warp-mask", "deadlock"
    std::string kind;
    std::string space;     ///< "global" or "shared" ("" when no memory is involved)
    std::string array;     ///< the array's name, as written where it was allocated or declared
    std::string index;     ///< the element index, e.g. "10" or "(3, 40)"
    std::string hazard;    ///< for a data race: "RAW", "WAR" or "WAW"
    std::vector<Site> sites;
    std::string text;      ///< the report as printed
};

/// Every finding reported so far in this process, in report order.
std::vector<Finding> findings();
/// Memory the race and init checkers use now: their shadow cells, and the device and shared
/// memory those cells describe (for the benchmark's bytes-per-byte figure).
struct ShadowUsage {
    std::size_t shadow_bytes = 0, memory_bytes = 0;
};
ShadowUsage shadow_usage();

/// Forgets them (tests call this between cases), including which sites were already reported.
void clear_findings();

}  // namespace simt::sim
