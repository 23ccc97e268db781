// The process's state and its start and end: settings once at start, the exit sequence once at end.
#include <cerrno>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>

#include "process.hpp"
#include "../check/checker.hpp"
#include "../launch/gpu_clock.hpp"
#include "../launch/watchdog.hpp"
#include "../report/page.hpp"

namespace simt::sim::detail {

/// Waits for every stream; prints an error nobody collected and says whether there was one.
bool drain_streams_at_exit();

namespace {

[[noreturn]] void refuse_settings(const std::string& message) {
    std::fprintf(stderr, "simt: %s\n  (`./lab help settings` lists every setting)\n",
                 message.c_str());
    std::fflush(stderr);
    std::_Exit(2);
}

/// Opens the report once, before anything runs, so that a path that cannot be written is a
/// setting error and not findings silently lost later.
void check_report_path(const std::string& path) {
    if (path.empty()) return;
    std::FILE* f = std::fopen(path.c_str(), "a");
    if (!f)
        refuse_settings("SIMT_REPORT=json:" + path + ": cannot open " + path + " for writing (" +
                        std::strerror(errno) + ")");
    std::fclose(f);
}

const char* kind_of(const std::exception& e) {
    if (dynamic_cast<const simt::LaunchError*>(&e)) return "simt::LaunchError";
    if (dynamic_cast<const simt::KernelError*>(&e)) return "simt::KernelError";
    if (dynamic_cast<const simt::CudaError*>(&e)) return "simt::CudaError";
    if (dynamic_cast<const simt::Error*>(&e)) return "simt::Error";
    return "exception";
}

/// An exception nobody caught ends the program with its message once, not with
/// "terminate called ..." and an abort.
[[noreturn]] void on_terminate() {
    std::string what = "std::terminate was called without an exception";
    std::string shown;  // what is printed: the first line only of a report already printed
    const char* kind = "error";
    if (std::exception_ptr e = std::current_exception()) {
        try {
            std::rethrow_exception(e);
        } catch (const std::exception& x) {
            kind = kind_of(x);
            what = x.what();
            shown = not_reported_yet(x);
        } catch (...) {
            what = "an exception of a type that is not std::exception";
        }
    }
    if (Worker* w = tls::worker; w && tls::thread && w->current != &w->main) {
        // In a kernel (an exception left a noexcept function, say): the thread fails, not the
        // process, whose end would wait for this very launch.
        w->fail_thread("simt: std::terminate was called in thread " + coord(tls::thread->idx) +
                       " block " + coord(w->block.idx) + ": " + what);
    }
    what = shown.empty() ? what : shown;
    if (what.rfind("simt: ", 0) == 0) what.erase(0, 6);
    std::fflush(stdout);
    std::fprintf(stderr, "simt: the program ended on an uncaught %s: %s\n", kind, what.c_str());
    page_ended("error", 1, std::string("the program ended on an uncaught ") + kind + ": " + what);
    // The stack was not unwound: arrays still alive are not leaks.
    end_process(1, false);
    std::_Exit(1);
}

void at_exit() { end_process(0, true); }

}  // namespace

void end_process(int status, bool leaks) {
    static std::atomic<bool> ending{false};
    if (ending.exchange(true)) return;  // an error inside the sequence must not start it again
    int code = drain_streams_at_exit() ? 1 : status;
    write_gpu_clock_trace();
    if (leaks) checks_exit();
    const Config& c = process().config;
    print_summary({c.check_race, c.check_init, c.check_sync, process().unchecked});
    if (code != 0) page_ended("error", code, "the program ended with exit status " + std::to_string(code));
    write_report_page();
    if (process().config.exit_code != 0 && !simt::sim::findings().empty())
        code = process().config.exit_code;
    if (code == 0) return;
    std::cout.flush();
    std::fflush(nullptr);
    std::_Exit(code);
}

/// An UNCHECKED build is asked for speed: a checked launch runs its blocks one at a time (the
/// shadow checkers share their state without atomics), and the leak note would be the only
/// thing such a program ever said. A program that mixes both kinds of file keeps SIMT_CHECK for
/// the instrumented ones.
void unchecked_build_file() {
    profile_unchecked_build();
    start_process();
    if (instrumented_build || the_process->unchecked) return;
    the_process->unchecked = true;
    checks_off_if_unchecked(the_process->config);
    const char* asked = std::getenv("SIMT_CHECK");
    if (asked && std::strcmp(asked, "none") != 0)
        std::fprintf(stderr,
                     "simt: note: SIMT_CHECK=%s has no effect: this program was built UNCHECKED, "
                     "so nothing in it is checked (build it without UNCHECKED to check it)\n",
                     asked);
}

void checks_off_if_unchecked(Config& c) {
    if (the_process && the_process->unchecked)
        c.check_race = c.check_init = c.check_sync = c.check_leak = false;
}

bool start_process() {
    if (the_process) return true;
    Config c;
    try {
        c = settings_from_environment();
    } catch (const std::invalid_argument& e) {
        refuse_settings(e.what());
    }
    check_report_path(c.report_json);
    the_process = new Process;
    the_process->config = std::move(c);
    std::set_terminate(on_terminate);
    start_watchdog();
    std::atexit(at_exit);
    return true;
}

}  // namespace simt::sim::detail

namespace simt::sim {

Config& config() { return detail::process().config; }

}  // namespace simt::sim
