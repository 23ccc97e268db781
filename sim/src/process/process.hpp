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
#include <simt/simt.hpp>

namespace simt::sim::detail {

/// What the process itself keeps. Every other part of the runtime's state belongs to its layer,
/// made on first use and never destroyed, as this is: memory's allocation records
/// (memory/memory.cpp), the checkers (check/checker.cpp), the published findings
/// (report/report.cpp), the symbol cache (report/symbolize.cpp), the streams
/// (launch/stream.cpp), the TBB arenas (launch/grid.cpp), the pools of cooperative and turn
/// threads (launch/), the workers (block/executor.cpp), the CUDA runtime's records
/// (api/cuda_api.hpp) and the shared-memory opt-in (device/occupancy.cpp).
struct Process {
    Config config;
    /// No file of the program has the raw-access instrumentation and one was built UNCHECKED
    /// (unchecked_build_file): nothing is checked and nothing reported at exit.
    bool unchecked = false;
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


/// The settings read from SIMT_* variables; throws std::invalid_argument for a bad one.
Config settings_from_environment();

/// How the program ends, in order: waits for queued work, reports an error nobody collected,
/// lets the checkers speak at exit (leaks; only when `leaks`: after an uncaught exception the
/// arrays still alive are not leaks), prints the summary, and exits with SIMT_EXITCODE when
/// anything was found. Returns only when nothing changes the exit status.
void end_process(int status, bool leaks);

}  // namespace simt::sim::detail
