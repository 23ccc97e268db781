// SIMT_PROFILE: Nsight Compute's memory and divergence counters, rebuilt warp by warp from the
// threads' accesses (docs/profiling.md). The profiler is a Checker that wants accesses
// (check/checker.hpp): it sees what the checkers see, from views and raw pointers alike, and
// costs nothing while SIMT_PROFILE is off. The one event the checker seam lacks, a warp
// intrinsic completing, comes from warp/warp.cpp through profile_warp_meeting.
#pragma once

namespace simt::sim::detail {

struct BlockState;
struct AtomicNote;

namespace profile {
struct BlockProfile;
}  // namespace profile

/// The running block's profile on this worker; null while no profiled launch runs here.
inline thread_local profile::BlockProfile* tls_profile = nullptr;

/// The note of the atomic hook now running when that hook continues an atomic call already
/// counted (atomics.hpp, continue_atomic): the check sees it, the profile does not. A note, not
/// a flag: a hook that waits in a spin lets other threads of this OS thread run, and their
/// atomics carry notes of their own.
inline thread_local const AtomicNote* tls_profile_uncounted = nullptr;

/// Lanes `mask` of warp `warp` of the running block met in a warp intrinsic: a warp-level
/// instruction, and a point where the warp's lanes are together again.
void profile_warp_meeting(BlockState& b, unsigned warp, unsigned mask);

/// A file of the program was built UNCHECKED: the profile says once that its accesses are not
/// counted.
void profile_unchecked_build();

}  // namespace simt::sim::detail
