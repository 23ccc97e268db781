// A finding before it has any text: what a checker fills in, and what the formatters read.
//
// Checkers build a Draft (kind, hazard, array, index, sites, the advice to give) and hand it to
// add_finding; the one text formatter (format.cpp) turns it into the report a learner reads, the
// one JSON formatter writes the public Finding, and the de-duplication key comes from the kind
// and the sites (dedup_key), so that no checker writes a word of a report.
#pragma once
#include "../runtime.hpp"

namespace simt::sim::detail {

enum class Hazard : std::uint8_t { none, raw, war, waw };

/// The usual fix a report ends with, where a kind has more than one.
enum class Hint : std::uint8_t {
    none,
    // data races
    atomic_orders_nothing,  ///< one side is an atomic
    read_modify_write,      ///< a line racing with itself: counter[0] += 1
    syncthreads,            ///< threads of one block, different warps
    syncthreads_or_syncwarp,///< lanes of one warp
    next_iteration,         ///< a barrier separates the lines: the loop's next iteration races
    other_block,            ///< blocks of one launch are never ordered
    other_block_grid_sync,  ///< blocks of a cooperative launch, with no grid.sync() between
    other_stream,           ///< launches on streams nothing orders
    // uninitialised reads
    shared_uninitialized,
    global_uninitialized,
    cuda_uninitialized,     ///< memory from cudaMalloc
};

/// A site of a draft: the public Site, plus a note printed after its line.
struct DraftSite {
    Site site;
    std::string note;  ///< e.g. " (in the kernel launched at a.cu:30)"
};

struct Draft {
    FindingKind kind{};
    Hazard hazard = Hazard::none;
    const Allocation* array = nullptr;  ///< the memory involved, if any (described in line 1)
    std::string index;                  ///< "10", "(3, 9)"
    std::string extent;                 ///< a view's extents, when the view (not the array) was left
    std::string bad;                    ///< which index left which extent, for a view
    const void* address = nullptr;      ///< misaligned atomics
    std::size_t count = 0;              ///< bytes of a misaligned atomic; threads that left a barrier
    std::vector<DraftSite> sites;
    Hint hint = Hint::none;
    std::string barrier;                ///< the barrier between the two sites (next_iteration)
    /// Lines the report carries as they are: a deadlock's groups of threads, the threads that
    /// exited before a barrier, a warp intrinsic's misuse (also the KernelError's text).
    std::vector<std::string> lines;
    bool divergent_barrier = false;     ///< barrier-exit: the others skipped it inside an if
    bool raw = false;                   ///< a raw pointer's access: it was done, in a red zone
};

/// A site at `loc` by the running thread (or the host), with the access's name.
DraftSite draft_site(const Loc& loc, const char* access);
/// The key that reports a finding once: its kind and its sites' source lines (and columns for
/// memcheck, whose findings have one site each), or the allocation for a leak.
std::string dedup_key(const Draft& d);
/// The report a learner reads.
std::string format_text(const Draft& d);
/// One JSON object on one line (JSON Lines).
std::string format_json(const Finding& f);
/// The public finding a draft stands for, its text included.
Finding to_finding(const Draft& d);
/// Records a finding for the block running on this thread; once per key per block.
void add_finding(Draft d);
/// "(3, 9)" for element `flat` of an array declared as T[4][10]; "flat" when its extents are
/// not known.
std::string element_index(const Allocation* a, std::size_t flat);

}  // namespace simt::sim::detail
