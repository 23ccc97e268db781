// The words of a predicted time (timing_text.hpp).
#include "timing_text.hpp"

#include <fmt/format.h>

namespace simt::sim::detail {

namespace {

/// Three significant digits and an SI prefix: "134 MB", "1.84 TB/s", "9.75 T".
std::string si(double v, const char* unit) {
    static constexpr const char* prefixes[] = {"", "k", "M", "G", "T", "P"};
    unsigned p = 0;
    while (v >= 999.5 && p + 1 < std::size(prefixes)) v /= 1000, ++p;
    return fmt::format("{:.3g} {}{}", v, prefixes[p], unit);
}

/// A count in words: "8000", "1.07 billion".
std::string in_words(double v) {
    static constexpr struct {
        double at;
        const char* word;
    } scales[] = {{1e12, "trillion"}, {1e9, "billion"}, {1e6, "million"}, {1e4, "thousand"}};
    for (const auto& s : scales)
        if (v >= s.at) return fmt::format("{:.3g} {}", v / s.at, s.word);
    return fmt::format("{:.0f}", v);
}

/// What sets the time, in the numbers of the bounding term.
std::string because(const TimePrediction& p) {
    switch (p.bound) {
        case TimeBound::dram:
            return fmt::format("{} at {}", si(p.dram_bytes, "B"), si(p.dram_bytes_per_s, "B/s"));
        case TimeBound::l2:
            return fmt::format("{} through L2 at {}", si(p.l2_bytes, "B"),
                               si(p.l2_bytes_per_s, "B/s"));
        case TimeBound::shared:
            return fmt::format("{} wavefronts at {} a second", in_words(p.shared_wavefronts),
                               in_words(p.shared_wavefronts_per_s));
        case TimeBound::compute:
            return fmt::format("{} operations at {} a second", in_words(p.thread_ops),
                               in_words(p.ops_per_s));
        case TimeBound::latency:
            return fmt::format("{:.3g} loads a warp waits for, one after another, {:.0f} ns "
                               "each, {:.0f} wave{}",
                               p.requests_per_warp, p.latency_ns, p.waves, p.waves == 1 ? "" : "s");
        case TimeBound::launch: break;
    }
    return fmt::format("every term under the launch's own {}", duration_text(p.launch_us));
}

}  // namespace

std::string duration_text(double us) {
    if (us < 1) return fmt::format("{:.3g} ns", us * 1e3);
    if (us < 1e3) return fmt::format("{:.3g} µs", us);
    if (us < 1e6) return fmt::format("{:.3g} ms", us * 1e-3);
    return fmt::format("{:.3g} s", us * 1e-6);
}

std::string prediction_text(const TimePrediction& p, double total_us, unsigned launches) {
    const std::string why = fmt::format("({}-bound: {})", bound_name(p.bound), because(p));
    if (launches <= 1)
        return fmt::format("predicted on {}: {} {}", p.gpu->key, duration_text(p.us), why);
    return fmt::format("predicted on {}: {} for {} launches, the first {} {}", p.gpu->key,
                       duration_text(total_us), launches, duration_text(p.us), why);
}

nlohmann::ordered_json prediction_json(const TimePrediction& p) {
    return {{"gpu", p.gpu->key},
            {"predicted_us", p.us},
            {"bound", bound_name(p.bound)},
            {"terms_us",
             {{"dram", p.dram_us},
              {"l2", p.l2_us},
              {"shared", p.shared_us},
              {"compute", p.compute_us},
              {"latency", p.latency_us},
              {"launch", p.launch_us}}},
            {"dram_bytes", p.dram_bytes},
            {"l2_bytes", p.l2_bytes},
            {"requests_per_warp", p.requests_per_warp},
            {"waves", p.waves},
            {"thread_ops", p.thread_ops},
            {"arithmetic_counted", p.every_line ? "every line" : "lines that access memory"}};
}

}  // namespace simt::sim::detail
