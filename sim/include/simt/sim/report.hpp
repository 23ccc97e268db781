// What the checkers found, for tests and tools: simt::sim::findings().
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "simt/sim/vector_types.hpp"

namespace simt::sim {

/// What a finding is about. `to_string` gives the name used in reports and JSON ("data-race").
enum class FindingKind : std::uint8_t {
    data_race,           ///< racecheck
    uninitialized_read,  ///< initcheck
    out_of_bounds,       ///< memcheck: outside an array or a view's extents
    use_after_free,
    null_pointer,
    misaligned_atomic,
    constant_write,      ///< memcheck: a kernel wrote __constant__ memory
    leak,                ///< memcheck at exit
    barrier_exit,        ///< synccheck: threads finished without reaching a barrier others wait at
    barrier_divergence,  ///< threads of one block wait at different barriers
    warp_mask,           ///< a warp intrinsic's mask leaves out the caller or names absent lanes
    warp_divergence,     ///< lanes of one mask call different warp intrinsics
    deadlock,            ///< no thread of a block can continue
    misaligned_address,  ///< memcheck: a load or store not at a multiple of its size
    /// racecheck: two accesses ordered only by an acquire without its fence, which today's GPUs
    /// complete and CUDA's memory model does not promise
    memory_model,
    /// memcheck: host code read or wrote device memory (a GPU would crash the program)
    host_access,
};

/// "data-race", "uninitialized-read", "out-of-bounds", ... (as in the JSON report).
std::string_view to_string(FindingKind k);

/// One access (or barrier) a finding is about: where, by which thread of which block.
struct Site {
    std::string file;      ///< as the compiler saw it
    unsigned line = 0;
    uint3 thread{}, block{};
    std::string access;    ///< "read", "write", "atomic", "barrier", ...
    unsigned column = 0;
    /// The library function ("cublasSaxpy") whose kernel made the access, in simt's headers:
    /// file and line are then the program's call of it.
    std::string call;
};

/// A problem the simulator saw. Printed when its launch ends, once per kind and source site(s).
struct Finding {
    FindingKind kind = FindingKind::data_race;
    std::string space;     ///< "global" or "shared" ("" when no memory is involved)
    std::string array;     ///< the array's name, as written where it was allocated or declared
    std::string index;     ///< the element index, e.g. "10" or "(3, 40)"
    /// Where the index is counted in the access's size because the memory has no element type
    /// (dynamic shared memory, bytes from cudaMalloc): the access's offset in bytes.
    std::optional<long long> byte_offset;
    std::string extent;    ///< the array's (or view's) extents, e.g. "10" or "(4, 8)"
    std::string hazard;    ///< for a data race: "RAW", "WAR" or "WAW"
    std::vector<Site> sites;
    /// What the report folds into it, the one shown included: the threads that made an access
    /// of the same key (kind and lines) in its launch, and the accesses they made.
    std::uint64_t threads = 1, accesses = 1;
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
/// How launches with racecheck or initcheck on have run so far: tried on every worker, and of
/// those, kept (the rest ran again one block at a time; sim/src/check/attempt.hpp says when);
/// of the kept, those whose blocks each held their own granules of global memory, checked
/// without locks.
struct CheckedLaunches {
    std::size_t tried_in_parallel = 0, kept = 0, kept_owning = 0;
};
CheckedLaunches checked_launches();

/// Forgets them (tests call this between cases), including which sites were already reported.
void clear_findings();

}  // namespace simt::sim
