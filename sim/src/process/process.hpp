// The one owner of the simulator's process-wide state, and the order in which a process ends.
//
// Ground rules:
//  - The Process is made once, during static initialisation, on the main thread: settings are
//    parsed there (a bad one ends the program before anything runs) and the JSON report's path
//    is opened there, never on a stream or worker thread.
//  - It owns every piece of process-wide state (see the struct). Elsewhere only lone atomic
//    counters and what a signal handler must reach stay at namespace scope.
//  - It is never destroyed. Stream threads and TBB workers may still be parked when the process
//    ends, and an object they use must not die under them.
//  - The end is explicit: `end_process` (registered with std::atexit before any user object
//    exists, so it runs after their destructors) drains the streams, lets the checkers speak
//    (leaks), prints the summary and sets the exit status. No destructor does that work.
#pragma once
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <oneapi/tbb/task_arena.h>
#include <set>
#include <string>
#include <vector>

#include "../check/checker.hpp"
#include "../launch/cooperative.hpp"
#include "../launch/streams.hpp"
#include "../report/symbolize.hpp"
#include "../block/block.hpp"
#include "../block/worker.hpp"
#include "../launch/grid_run.hpp"
#include "../report/text.hpp"
#include "watchdog.hpp"

namespace simt::sim::detail {

/// Every allocation record (memory.cpp). A deque: records never move, and views point at them.
struct Allocations {
    std::mutex m;
    std::deque<Allocation> records;
    std::uint64_t next_id = 1;
};

/// The findings printed so far (report.cpp), read by findings() and the exit summary.
struct Published {
    std::mutex m;
    std::vector<Finding> all;
    std::set<FindingKey> keys;  // published, by report/finding.hpp's one key
};

/// The TBB arenas blocks run in (grid.cpp), by the number of workers asked for.
struct Arenas {
    std::mutex m;
    std::map<int, std::unique_ptr<tbb::task_arena>> by_workers;
};

/// The CUDA runtime API's state (api/memory.cpp, error.cpp, device.cpp): cudaMalloc'd memory by address, and the error
/// a failed kernel left for every later call.
struct CudaRuntime {
    std::mutex m;
    std::map<const std::byte*, Allocation*> live;
    cudaError_t sticky = cudaSuccess;
    /// The largest cudaFuncAttributeMaxDynamicSharedMemorySize set for any kernel (see
    /// cudaFuncSetAttribute in api/device.cpp: the simulator does not tell kernels apart).
    std::size_t dynamic_shared_optin = 0;
};

/// The whole of the runtime's state. Each part is used by the file named beside its type.
struct Process {
    Config config;
    StreamRegistry streams;
    Allocations allocations;
    Published published;
    Arenas arenas;
    WatchState watch;
    Checkers checkers;
    CudaRuntime cuda;
    Symbols symbols;
    CoopThreads coop_threads;
    /// Where the blocks of a checked launch run while another waits in a spin (launch/turns.hpp).
    CoopThreads turn_threads;
    /// No file of the program has the raw-access instrumentation and one was built UNCHECKED
    /// (unchecked_build_file): nothing is checked and nothing reported at exit.
    bool unchecked = false;
    /// Every OS thread's Worker (executor.cpp), kept for the life of the process: their fibers are
    /// suspended mid-loop and must never be unwound.
    std::mutex workers_m;
    std::vector<Worker*> workers;
};

/// Set once by start_process() and never changed.
inline Process* the_process = nullptr;

/// Turns the checkers off in `c` when the program was built UNCHECKED (Process::unchecked): at
/// start, and whenever the program changes a setting itself (simt::sim::apply_setting, as the
/// benchmark does with SIMT_CHECK).
void checks_off_if_unchecked(Config& c);

/// The process's state; made by start_process() before main runs. Inline: asked for on every
/// launch and by every out-of-line access.
inline Process& process() {
    if (!the_process) [[unlikely]] start_process();
    return *the_process;
}

/// GCC's instrumentation calls __tsan_init from a constructor of priority 99 in every file it
/// instruments (check/raw_access.cpp), so that this is set before any file's own static
/// initialisation, unchecked_build_file's included.
void instrumented_build_file();

/// The settings read from SIMT_* variables; throws std::invalid_argument for a bad one.
Config settings_from_environment();

/// How the program ends, in order: waits for queued work, reports an error nobody collected,
/// lets the checkers speak at exit (leaks; only when `leaks`: after an uncaught exception the
/// arrays still alive are not leaks), prints the summary, and exits with SIMT_EXITCODE when
/// anything was found. Returns only when nothing changes the exit status.
void end_process(int status, bool leaks);

}  // namespace simt::sim::detail
