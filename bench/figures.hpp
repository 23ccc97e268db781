// bench.json: the figures simt_bench measured, as a JSON object of named numbers, and the tables
// that `./lab bench` prints from them (simt_bench --show). The performance targets live here once,
// for the run's own verdicts and for the tables.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace simt_bench {

/// The figures in the order they were measured, which is the order bench.json lists them in.
using Figures = nlohmann::ordered_json;

struct Workload {
    const char* key;    // bench.json's name for it
    const char* label;  // the run's own table's
    const char* title;  // the learner's table's
    double max_ratio;   // target: the unchecked kernel / its serial loop
};

// Ratios to the serial loop: issue 11's ("Ahead of HIP-CPU", HIP-CPU's on this 2-core machine).
inline constexpr Workload kWorkloads[] = {
    {"vector_add", "vector add, 16M", "vector add, 16M threads", 1.4},
    {"transpose", "transpose 2048^2", "tiled transpose 2048^2, 1 barrier", 2.0},
    {"tree_reduction", "tree reduction, 4M", "tree reduction 4M, 1 + 8 barriers", 69},
    {"atomic_counter", "atomic counter, 1M", "atomic counter, 1M threads", 2.7},
};
inline constexpr double kMaxCheckedSlowdown = 10;  // every checker on / unchecked, each workload
inline constexpr double kMinTwoCoreSpeedup = 1.8;  // two workers / one, independent blocks
inline constexpr double kMaxToHipcpu = 1.0;  // plain CUDA built UNCHECKED / HIP-CPU (issue 25)
// Not set by an issue: docs/simulator.md's.
inline constexpr double kMaxExtraBarrierNs = 5;
// Issue 42: half the 32-byte cell's 8 bytes per byte of a float array.
inline constexpr double kMaxShadowPerByte = 4;
/// SIMT_REPORT=html:PATH against the same checked lesson without it, whole runs (issue 54).
inline constexpr double kMaxPageSlowdown = 1.5;
// Issue 42, on two workers: every checker on / UNCHECKED for plain CUDA (vector add: 21
// instructions a thread, where a hook call per access already costs 7-10x), and checked two
// workers / one.
inline constexpr double kMaxCheckedSlowdownTwoWorkers = 10;
inline constexpr double kMaxCheckedSlowdownTwoWorkersVectorAdd = 15;
inline constexpr double kMinCheckedTwoWorkerSpeedup = 1.7;

/// Writes `figures` to `path`, one figure per line; false, said on stderr, when it cannot.
bool write_figures(const Figures& figures, const std::string& path);

/// `simt_bench --show FILE [--targets]`: the learner's tables from the bench.json at `path` and,
/// with `targets`, the same figures against the targets above. Returns the exit status: 0, or 2
/// when the file cannot be read, is not JSON or lacks a figure (which it names).
int show_figures(const std::string& path, bool targets);

}  // namespace simt_bench
