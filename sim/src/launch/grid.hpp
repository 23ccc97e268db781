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

}  // namespace simt::sim::detail
