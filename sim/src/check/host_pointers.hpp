// Host memory handed to a kernel: a GPU faults when the kernel touches it, so the simulator does.
//
// A raw access outside the device arena is otherwise none of simt's business (the kernel's own
// stack, thread-locals, the simulator's state), and the simulator cannot tell the host's heap
// from its own by the address alone. What it can tell is which pointers the program passed to
// a launch: an argument that is neither device memory nor pinned host memory points into the
// host's heap, stack or globals. While such a launch runs, its extent there (the heap block's
// size, the stack above it) is watched, and a kernel thread's access into it ends that thread
// with cudaErrorIllegalAddress, as the GPU would (unless the system shares host memory with
// the GPU: HMM or ATS, which the message names).
#pragma once
#include <atomic>
#include <cstddef>

#include <simt/simt.hpp>

namespace simt::sim::detail {

/// Launches now running that were given host memory, and checked launches now tried on every
/// worker (attempt.hpp), which no write outside the arena may outlive: while there are none, an
/// access outside the arena costs this load and a branch.
inline std::atomic<int> host_memory_launches{0};
/// Of those, the launches given host memory: without them, only a write outside the arena needs
/// host_memory_access (an attempt's end), not a read (a kernel's locals, its parameters).
inline std::atomic<int> watching_launches{0};

/// Watches the host memory `k`'s pointer arguments reach while it lives (a launch's run).
class HostMemoryArgs {
public:
    explicit HostMemoryArgs(const KernelLaunch& k);
    ~HostMemoryArgs();
    HostMemoryArgs(const HostMemoryArgs&) = delete;
    HostMemoryArgs& operator=(const HostMemoryArgs&) = delete;

private:
    unsigned watched_ = 0;  ///< bit i: slot i of the watch table is this launch's
};

/// A kernel thread's access of `n` bytes at `p`, outside the device arena, while some launch was
/// given host memory or an attempt runs: ends the thread if `p` is host memory a launch was
/// given, and the attempt if it writes anywhere but the thread's own stack.
void host_memory_access(const void* p, std::size_t n, Access k, const void* pc);

/// Whether `p` lies in pinned host memory (cudaMallocHost, cudaHostAlloc), which a kernel may
/// reach as on a GPU with unified addressing (api/memory.cpp).
bool pinned_host_memory(const void* p);

}  // namespace simt::sim::detail
