// A kernel thread that cannot go on (a signal, __trap(), a failed assert, abort(), exit()): the
// message naming it and its line, and its end, which fails its launch with CUDA's error.
#pragma once
#include <string>

#include "../state/worker.hpp"
#include "../state/grid_run.hpp"

namespace simt::sim::detail {

/// The first of `pcs` (return addresses, innermost first) whose line is the user's own: neither
/// simt's, nor the standard library's, nor code without debug information (glibc's abort).
Loc user_site(const void* const* pcs, int n);

/// A fault of the running kernel thread at `site`: the draft with its thread and block filled in.
FaultDraft fault_here(FaultDraft::Problem problem, const Loc& site);

/// Ends the running kernel thread: its block fails with the fault's text (report/format.cpp) and
/// `code` (sticky, as a GPU's fault), and the thread leaves its frames without unwinding them
/// (Worker::leave_thread).
[[noreturn]] void end_thread(const FaultDraft& fault, cudaError_t code);

}  // namespace simt::sim::detail
