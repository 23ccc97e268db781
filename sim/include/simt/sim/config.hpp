// Simulator settings: read from SIMT_* environment variables, changeable in code for tests.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include <cstddef>
#include <cstdint>
#include <string>

namespace simt::sim {

/// The order in which a block's threads run and resume after barriers.
enum class Schedule : std::uint8_t {
    in_order,    ///< thread 0, 1, 2, ... (default; deterministic)
    reverse,     ///< highest thread first
    random,      ///< a seeded permutation per block and barrier
    interleave,  ///< random, and may switch threads inside a read-modify-write
};

/// Every setting of the simulator. `config()` starts from the environment:
/// SIMT_CHECK=all|none|race,mem,init,sync  SIMT_SCHEDULE=in-order|reverse|random:SEED|interleave:SEED
/// SIMT_REPORT=text|json:PATH  SIMT_STACK_SIZE=65536|64K|1M  SIMT_WORKERS=N (0: all cores)
struct Config {
    bool check_race = true, check_mem = true, check_init = true, check_sync = true;
    Schedule schedule = Schedule::in_order;
    std::uint64_t seed = 0;
    std::string report_json;                    ///< JSON Lines path; empty: text only
    std::size_t stack_size = 64 * 1024;         ///< bytes of stack per CUDA thread
    int workers = 0;                            ///< OS threads running blocks; 0: all cores

    bool any_check() const { return check_race || check_mem || check_init || check_sync; }
};

/// The settings in force. Change them between launches, not while kernels run.
Config& config();

/// Parses one SIMT_* value; throws std::invalid_argument with a message naming the variable.
void apply_setting(Config& c, const std::string& name, const std::string& value);

}  // namespace simt::sim
