// The time model (timing.hpp); docs/profiling.md, "Predicted time", states each term.
#include "timing.hpp"

#include <algorithm>
#include <cmath>

namespace simt::sim::detail {

const char* bound_name(TimeBound b) {
    constexpr const char* names[] = {"DRAM", "L2", "shared memory", "compute", "latency",
                                     "launch"};
    return names[static_cast<unsigned>(b)];
}

TimePrediction predict_time(const GpuModel& gpu, const LaunchWork& w) {
    const GpuModel::Speeds& s = gpu.speeds;
    const double clock = gpu.clock_khz * 1e3, sms = gpu.multiprocessors;
    TimePrediction p;
    p.gpu = &gpu;

    // DRAM: every distinct sector once; past what L2 holds, re-reads miss in proportion to how
    // much of the footprint does not fit.
    const double compulsory =
        32.0 * double(w.distinct_read_sectors + w.distinct_written_sectors);
    const double footprint = 32.0 * double(w.distinct_sectors);
    const double l1_hits = double(std::min(w.l1_hit_sectors, w.sectors));
    p.l2_bytes = 32.0 * (double(w.sectors) - l1_hits);
    p.dram_bytes = compulsory;
    if (footprint > gpu.l2_bytes && p.l2_bytes > compulsory)
        p.dram_bytes += (p.l2_bytes - compulsory) * (1.0 - gpu.l2_bytes / footprint);
    p.dram_bytes_per_s = s.dram_gb_per_s * 1e9 * dram_efficiency;
    p.dram_us = p.dram_bytes / p.dram_bytes_per_s * 1e6;

    p.l2_bytes_per_s = double(s.l2_bytes_per_clock) * clock;
    p.l2_us = p.l2_bytes / p.l2_bytes_per_s * 1e6;

    // Shared memory: one wavefront a clock on each SM.
    p.shared_wavefronts = double(w.shared_wavefronts);
    p.shared_wavefronts_per_s = sms * clock;
    p.shared_us = double(w.shared_wavefronts) / p.shared_wavefronts_per_s * 1e6;

    // Arithmetic at the FP32 lanes' rate, and every warp instruction at four schedulers' one
    // issue a clock each: the slower of the two.
    p.thread_ops = double(w.thread_ops);
    p.every_line = w.every_line;
    p.ops_per_s = sms * s.fp32_per_clock * clock;
    const double issue_us =
        (double(w.warp_instructions) + double(w.thread_ops) / 32.0) / (sms * 4.0 * clock) * 1e6;
    p.compute_us = std::max(double(w.thread_ops) / p.ops_per_s * 1e6, issue_us);

    // Latency: each warp's global loads (and atomics it reads the result of) one after another, all warps of a wave at once; a
    // request waits as long as L1, L2 or DRAM, in the shares of sectors each delivers.
    p.waves = std::ceil(w.waves);
    if (w.warps && w.global_waits && p.waves > 0) {
        p.requests_per_warp = double(w.global_waits) / double(w.warps);
        const double all = std::max(1.0, double(w.sectors)), l2 = p.l2_bytes / 32.0;
        const double dram = std::min(l2, p.dram_bytes / 32.0);
        p.latency_ns = (l1_hits * s.l1_latency_ns + (l2 - dram) * s.l2_latency_ns +
                        dram * s.dram_latency_ns) / all;
        p.latency_us = p.waves * p.requests_per_warp * p.latency_ns * 1e-3;
    }

    p.launch_us = s.launch_us;
    const double terms[] = {p.dram_us, p.l2_us, p.shared_us, p.compute_us, p.latency_us};
    const auto* largest = std::max_element(std::begin(terms), std::end(terms));
    p.bound = *largest > 0 && *largest >= p.launch_us
                  ? static_cast<TimeBound>(largest - std::begin(terms))
                  : TimeBound::launch;
    p.us = p.launch_us + *largest;
    return p;
}

}  // namespace simt::sim::detail
