// The words of a predicted time (device/timing.hpp): what SIMT_PROFILE's text prints and the
// JSON it writes beside each launch's counters.
#pragma once
#include <nlohmann/json.hpp>

#include <string>

#include "../device/timing.hpp"

namespace simt::sim::detail {

/// "predicted on A100: 76.1 µs (DRAM-bound: 134 MB at 1.84 TB/s)"; for several launches of one
/// kernel, their total first: "predicted on A100: 152 µs for 2 launches, the first 76.1 µs
/// (DRAM-bound: ...)".
std::string prediction_text(const TimePrediction& first, double total_us = 0,
                            unsigned launches = 1);
/// A time as reports write it: "812 ns", "76.1 µs", "4.20 ms", "1.05 s".
std::string duration_text(double us);
/// The prediction's fields: predicted_us, bound, and each term with the numbers behind it.
nlohmann::ordered_json prediction_json(const TimePrediction& p);

}  // namespace simt::sim::detail
