// Running a launch: its blocks on the TBB arena, what each block leaves, and the wait for every
// stream that cudaFree and the destructors make.
#pragma once
#include <cstdint>

#include "../state/grid_run.hpp"

namespace simt::sim::detail {

/// Runs a launch on the TBB arena; throws KernelError for the first failing block (by index).
void run_grid(const KernelLaunch& k);
/// Adds what block `b` (number `i`) found and the error it ended with, if any, to its launch.
void collect_block(GridRun& g, BlockState& b, std::uint64_t i);

/// Waits for every stream without collecting errors (for destructors, like cudaFree's sync).
void wait_all_quietly();

/// Returns once every launch queued before `serial` has run or been dropped. A checked launch
/// waits so: launches that no stream or event orders run in the order the host queued them, not
/// in the order their streams' threads got there, and the race checker's reports (which name
/// the access made first) and the results are the same in every run.
void wait_for_launches_before(std::uint32_t serial);

}  // namespace simt::sim::detail
