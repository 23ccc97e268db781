// How long a launch would take on a modelled GPU, from what the profiler counted: a roofline of
// five terms (DRAM, L2, shared memory, arithmetic, latency) plus the launch's fixed cost.
//
// The model is docs/profiling.md's "Predicted time", term by term; tests/device/timing_test.cpp
// pins its arithmetic on cases worked out by hand. It is a pure function of the GPU's row
// (model.hpp's Speeds) and the counts, so that a prediction made on a laptop for an H100 is the
// same one `./lab verify --time` later holds against the card.
#pragma once
#include <cstdint>

#include "model.hpp"

namespace simt::sim::detail {

/// What one launch did, in the counts the time model reads (profile/profile.cpp fills them).
struct LaunchWork {
    /// Global-memory sectors the warps asked for (l1tex__t_sectors_...), and those of them a
    /// block's load had loaded before: L1 hits. The rest go to L2.
    std::uint64_t sectors = 0, l1_hit_sectors = 0;
    /// Distinct sectors read, and distinct sectors written (an atomic's count as both): what
    /// DRAM must deliver and take at least once.
    std::uint64_t distinct_read_sectors = 0, distinct_written_sectors = 0;
    std::uint64_t distinct_sectors = 0;  ///< read or written: the footprint L2 must hold
    std::uint64_t shared_wavefronts = 0;  ///< l1tex__data_pipe_lsu_wavefronts_mem_shared
    /// Warp-level global loads and atomics whose result is used (_op_atom): the requests a warp
    /// waits for. Stores and reductions (_op_red) it sends and goes on.
    std::uint64_t global_waits = 0;
    /// Warp-level instructions the simulator saw: memory requests, barriers, warp intrinsics.
    std::uint64_t warp_instructions = 0;
    /// Thread-level arithmetic: the operators of each source line times the times its threads
    /// ran it. Every line's where the program was built with simt::lineinfo (every_line); else
    /// only those of lines that access memory, the only ones the access hooks see.
    std::uint64_t thread_ops = 0;
    bool every_line = false;
    std::uint64_t warps = 0;     ///< warps in the launch
    double waves = 0;            ///< launch__waves_per_multiprocessor; 0 if a block cannot launch
};

/// What bounds the predicted time: the largest term, or the launch's own cost when every term
/// is smaller.
enum class TimeBound : std::uint8_t { dram, l2, shared, compute, latency, launch };

/// A prediction and the numbers behind each term, for the text and JSON that show it.
struct TimePrediction {
    const GpuModel* gpu = nullptr;
    double us = 0;  ///< launch_us + the largest term
    TimeBound bound = TimeBound::launch;
    double dram_us = 0, l2_us = 0, shared_us = 0, compute_us = 0, latency_us = 0, launch_us = 0;
    double dram_bytes = 0;          ///< after the L2 reuse model
    double dram_bytes_per_s = 0;    ///< the bandwidth the DRAM term is taken at
    double l2_bytes = 0, l2_bytes_per_s = 0;
    double shared_wavefronts = 0, shared_wavefronts_per_s = 0;
    double thread_ops = 0, ops_per_s = 0;  ///< thread arithmetic, and its rate on all SMs
    bool every_line = false;               ///< LaunchWork's: thread_ops counts every line
    double requests_per_warp = 0;   ///< global loads waited for, one after another, in each warp
    double latency_ns = 0;          ///< what each of them waits, L1, L2 and DRAM mixed
    double waves = 0;               ///< whole waves of blocks
};

/// Fraction of peak DRAM bandwidth a streaming kernel reaches on these cards.
inline constexpr double dram_efficiency = 0.9;

/// The prediction for `w` on `gpu` (docs/profiling.md, "Predicted time").
TimePrediction predict_time(const GpuModel& gpu, const LaunchWork& w);

/// The bound's name as reports write it: "DRAM", "L2", "shared memory", ...
const char* bound_name(TimeBound b);

}  // namespace simt::sim::detail
