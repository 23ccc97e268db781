// A kernel thread that cannot go on (a signal, __trap(), a failed assert, abort(), exit()): the
// message naming it and its line, and its end, which fails its launch with CUDA's error.
#pragma once
#include <string>

#include "../block/block.hpp"
#include "../block/worker.hpp"
#include "../launch/grid_run.hpp"
#include "../report/text.hpp"

namespace simt::sim::detail {

/// The first of `pcs` (return addresses, innermost first) whose line is the user's own: neither
/// simt's, nor the standard library's, nor code without debug information (glibc's abort).
Loc user_site(const void* const* pcs, int n);

/// "thread (7,0,0) block (0,0,0) at f.cu:12": who the running thread is, and where.
std::string thread_at(const Loc& site);

/// Ends the running kernel thread: its block fails with `message` and `code` (sticky, as a GPU's
/// fault), and the thread leaves its frames without unwinding them (Worker::leave_thread).
[[noreturn]] void end_thread(std::string message, cudaError_t code);

}  // namespace simt::sim::detail
