// SIMT_PROFILE: Nsight Compute's memory and divergence counters, rebuilt warp by warp from the
// threads' accesses (docs/profiling.md). The profiler is a Checker that wants accesses
// (check/checker.hpp): it sees what the checkers see, from views and raw pointers alike, and
// costs nothing while SIMT_PROFILE is off. The one event the checker seam lacks, a warp
// intrinsic completing, comes from warp/warp.cpp through profile_warp_meeting.
#pragma once

namespace simt::sim::detail {

struct BlockState;

namespace profile {
struct BlockProfile;
}  // namespace profile

/// The running block's profile on this worker; null while no profiled launch runs here.
inline thread_local profile::BlockProfile* tls_profile = nullptr;

/// Lanes `mask` of warp `warp` of the running block met in a warp intrinsic: a warp-level
/// instruction, and a point where the warp's lanes are together again.
void profile_warp_meeting(BlockState& b, unsigned warp, unsigned mask);

/// A file of the program was built UNCHECKED: the profile says once that its accesses are not
/// counted.
void profile_unchecked_build();

}  // namespace simt::sim::detail
