// Simulator settings: one table of SIMT_* variables, read once at start, changeable in code for
// tests.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace simt::sim {

/// The order in which a block's threads run and resume after barriers.
enum class Schedule : std::uint8_t {
    in_order,    ///< thread 0, 1, 2, ... (default; deterministic)
    reverse,     ///< highest thread first
    random,      ///< a seeded permutation per block and barrier
    interleave,  ///< random, and may switch threads inside a read-modify-write
};

/// Every setting of the simulator, with its default; `settings()` lists each one's variable,
/// parser and help (one row per setting in process/settings.cpp).
struct Config {
    bool check_race = true, check_init = true, check_sync = true;
    /// Each allocation never freed is a finding at exit (SIMT_CHECK's `leak`, once named `mem`);
    /// otherwise they make one note line. Bounds are checked either way.
    bool check_leak = false;
    Schedule schedule = Schedule::in_order;
    std::uint64_t seed = 0;
    std::string report_json;                    ///< JSON Lines path; empty: text only
    std::size_t stack_size = 64 * 1024;         ///< bytes of stack per CUDA thread
    int workers = 0;                            ///< OS threads running blocks; 0: all cores
    unsigned timeout_s = 30;  ///< seconds without progress before a launch is stopped; 0: never
    int devices = 4;                            ///< simulated devices (cudaGetDeviceCount)
    std::string device = "A100";                ///< the GPU model simulated (SIMT_DEVICE)
    int exit_code = 0;  ///< exit status when anything was found; 0: unchanged
    bool profile_text = false;                  ///< SIMT_PROFILE: a table per kernel at exit
    std::string profile_json;                   ///< SIMT_PROFILE: one JSON object per launch here

    bool operator==(const Config&) const = default;
};

/// One row of the settings table: what `./lab help settings` prints.
struct Setting {
    const char* name;           ///< the environment variable, e.g. "SIMT_CHECK"
    const char* default_value;  ///< as it would be written in the environment
    const char* accepted;       ///< the values it accepts, as an error message names them
    const char* help;           ///< one sentence
};

/// Every setting, in the order the help prints them.
std::span<const Setting> settings();

/// The settings in force: read from the environment before main runs. Change them between
/// launches, not while kernels run.
Config& config();

/// Parses one SIMT_* value into `c`; throws std::invalid_argument with a message naming the
/// variable, the value and what it accepts. In a program built UNCHECKED the checkers stay off.
void apply_setting(Config& c, const std::string& name, const std::string& value);

namespace detail {
/// Reads the environment, opens the JSON report and arms the exit sequence; a bad setting ends
/// the program here, on the main thread, before anything runs (exit status 2).
bool start_process();
/// Runs start_process() during static initialisation of the first file that includes simt.hpp.
inline const bool process_started = start_process();
}  // namespace detail

}  // namespace simt::sim
