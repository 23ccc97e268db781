// Helpers for tests that assert what the checkers found.
#pragma once
#include <simt/simt.hpp>

#include <string>
#include <vector>

namespace test {

#if defined(__CUDACC__)
/// The GPU has no checkers of its own (compute-sanitizer is the tool there), so a kernel test
/// built for CUDA sees no findings and asserts only its results.
struct Finding {
    std::string kind, text;
    struct Site {
        unsigned line = 0;
    };
    std::vector<Site> sites;
};
template <class F>
std::vector<Finding> findings_of(F&& host) {
    host();
    simt::synchronize();
    return {};
}
inline const std::string& kind_name(const Finding& f) { return f.kind; }
#else
using Finding = simt::sim::Finding;
/// Runs `host` (which launches kernels) and returns every finding it produced, in report order.
template <class F>
std::vector<Finding> findings_of(F&& host) {
    simt::sim::clear_findings();
    host();
    simt::synchronize();
    return simt::sim::findings();
}
/// "data-race", "out-of-bounds", ...: the kind as the JSON report spells it.
inline std::string kind_name(const Finding& f) { return std::string(simt::sim::to_string(f.kind)); }
#endif

/// The first finding of `kind` (as the JSON report spells it: "data-race"), or null.
inline const Finding* first_of(const std::vector<Finding>& fs, const std::string& kind) {
    for (const auto& f : fs)
        if (kind_name(f) == kind) return &f;
    return nullptr;
}

/// The source lines of a finding's sites, in report order.
inline std::vector<unsigned> lines_of(const Finding& f) {
    std::vector<unsigned> lines;
    for (const auto& s : f.sites) lines.push_back(s.line);
    return lines;
}

/// Everything found, one report after the other, for INFO() when an assertion fails.
inline std::string all_text(const std::vector<Finding>& fs) {
    std::string s;
    for (const auto& f : fs) s += f.text + "\n";
    return s;
}

}  // namespace test
