// grid.sync(): the grid-wide barrier of a cooperative launch, as cooperative groups call it.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp> and <cooperative_groups.h>, not the simulator's headers"
#endif
#include "simt/sim/location.hpp"

namespace simt::sim::detail {
/// Waits until every thread of every block of the grid has arrived. Only a kernel launched with
/// cudaLaunchCooperativeKernel may call it; under <<<>>> it ends the launch with a KernelError.
void sync_grid(Loc loc, const char* what);
/// Whether the running kernel was launched with cudaLaunchCooperativeKernel (grid_group::is_valid).
bool grid_is_cooperative();
}  // namespace simt::sim::detail
