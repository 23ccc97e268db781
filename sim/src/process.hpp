// The one owner of the simulator's process-wide state, and the order in which a process ends.
//
// Ground rules:
//  - The Process is made once, during static initialisation, on the main thread: settings are
//    parsed there (a bad one ends the program before anything runs) and the JSON report's path
//    is opened there, never on a stream or worker thread.
//  - It is never destroyed. Stream threads and TBB workers may still be parked when the process
//    ends, and an object they use must not die under them.
//  - The end is explicit: `exit_sequence` (registered with std::atexit before any user object
//    exists, so it runs after their destructors) drains the streams, lets the checkers speak
//    (leaks), prints the summary and sets the exit status. No destructor does that work.
#pragma once
#include "grid/streams.hpp"
#include "runtime.hpp"

namespace simt::sim::detail {

struct Process {
    Config config;
    StreamRegistry streams;
};

/// The process's state; made by start_process() before main runs.
Process& process();

/// The settings read from SIMT_* variables; throws std::invalid_argument for a bad one.
Config settings_from_environment();

/// How the program ends, in order: waits for queued work, reports an error nobody collected,
/// lets the checkers speak at exit (leaks; only when `leaks`: after an uncaught exception the
/// arrays still alive are not leaks), prints the summary, and exits with SIMT_EXITCODE when anything
/// was found. Returns only when nothing changes the exit status.
void end_process(int status, bool leaks);

}  // namespace simt::sim::detail
