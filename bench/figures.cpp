#include "figures.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>

namespace simt_bench {

bool write_figures(const Figures& figures, const std::string& path) {
    std::ofstream out(path);
    out << figures.dump(2) << '\n';
    if (!out.flush()) {
        fmt::print(stderr, "simt_bench: cannot write {}\n", path);
        return false;
    }
    return true;
}

namespace {

// A figure that a table needs and the file lacks: the table is not printed half-made.
struct MissingFigure {
    std::string key;
};

class Reader {
public:
    explicit Reader(const Figures& figures) : figures_(figures) {}

    double operator()(const std::string& key) const {
        auto it = figures_.find(key);
        if (it == figures_.end() || !it->is_number()) throw MissingFigure{key};
        return it->get<double>();
    }
    bool has(const std::string& key) const { return figures_.contains(key); }

private:
    const Figures& figures_;
};

// The tables are built whole before anything is printed: a file that lacks a figure gets its
// name, not half a table.
template <typename... Args>
void put(fmt::memory_buffer& out, fmt::format_string<Args...> format, Args&&... args) {
    fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
}

// Three significant digits or so, as a learner reads them: 183, 75.4, 0.73.
std::string num(double x) {
    if (x >= 100) return fmt::format("{:.0f}", x);
    if (x >= 10) return fmt::format("{:.1f}", x);
    return fmt::format("{:.2f}", x);
}

// A figure and, in brackets, how many times `of` it is.
std::string times(double x, double of) { return num(x) + " (" + num(x / of) + "x)"; }

// The learner's tables: what a thread, a barrier, a core and the checkers cost, with no verdicts.
void show_costs(fmt::memory_buffer& out, const Reader& v) {
    put(out,
        "Four kernels against a serial C++ loop doing the same work, checkers off, ns per thread\n"
        "(in brackets: times the loop). Views: simt::span and friends; plain CUDA: raw pointers;\n"
        "both built UNCHECKED (nothing checked):\n");
    put(out, "  {:<36} {:>10} {:>16} {:>16}\n", "", "serial loop", "views", "plain CUDA");
    for (const auto& w : kWorkloads) {
        const std::string k = w.key;
        double serial = v("serial_" + k + "_ns_per_thread");
        put(out, "  {:<36} {:>10} {:>16} {:>16}\n", w.title, num(serial),
            times(v("views_" + k + "_unchecked_ns_per_thread"), serial),
            times(v("plain_cuda_unchecked_build_" + k + "_none_ns"), serial));
    }
    put(out,
        "With every checker on, built as programs are by default (with the raw-access\n"
        "instrumentation), ns per thread (in brackets: times the same kernel built UNCHECKED):\n");
    for (const auto& w : kWorkloads) {
        const std::string k = w.key;
        put(out, "  {:<36} {:>10} {:>16} {:>16}\n", w.title, "",
            times(v("views_" + k + "_checked_ns_per_thread"),
                  v("views_" + k + "_unchecked_ns_per_thread")),
            times(v("plain_cuda_checked_build_" + k + "_all_ns"),
                  v("plain_cuda_unchecked_build_" + k + "_none_ns")));
    }

    if (v.has("hipcpu_vector_add_ns_per_thread")) {
        put(out,
            "The same kernels as HIP, run by ROCm's HIP-CPU in the same run, ns per thread (in\n"
            "brackets: plain CUDA built UNCHECKED, times HIP-CPU; 1x or less is at or ahead of "
            "it):\n");
        put(out, "  {:<36} {:>10} {:>16}\n", "", "HIP-CPU", "plain CUDA");
        for (const auto& w : kWorkloads) {
            const std::string k = w.key;
            double hipcpu = v("hipcpu_" + k + "_ns_per_thread");
            put(out, "  {:<36} {:>10} {:>16}\n", w.title, num(hipcpu),
                times(v("plain_cuda_unchecked_build_" + k + "_none_ns"), hipcpu));
        }
    }

    double serial_loop = v("serial_loop_ns_per_thread"),
           barrier_free = v("barrier_free_ns_per_thread");
    put(out, "What a thread, a barrier and a core cost, checkers off:\n");
    put(out, "  {:<44} {:>6} ns per element\n", "a plain C++ loop, c[i] = a[i] + b[i]",
        num(serial_loop));
    put(out, "  {:<44} {:>6} ns per thread ({} times the loop)\n",
        "the same body as a kernel, no barrier", num(barrier_free),
        num(barrier_free / serial_loop));
    put(out, "  {:<44} {:>6} ns per thread\n", "a kernel with one __syncthreads (transpose)",
        num(v("one_barrier_ns_per_thread")));
    put(out, "  {:<44} {:>6} ns per thread\n", "each further __syncthreads (tree reduction)",
        num(v("per_extra_barrier_ns_per_thread")));
    put(out, "  {:<44} {:>6} times as fast\n", "two cores instead of one, independent blocks",
        num(v("two_core_speedup")));
    if (v.has("unchecked_build_two_worker_speedup"))
        put(out, "  {:<44} {:>6} times as fast\n", "the same for plain CUDA built UNCHECKED",
            num(v("unchecked_build_two_worker_speedup")));
    put(out, "  {:<44} {:>6} bytes per byte of device memory\n", "shadow memory for the checkers",
        num(v("shadow_bytes_per_device_byte")));
    put(out,
        "Views and plain CUDA, ns per thread: built UNCHECKED / built checked, checkers off /\n"
        "built checked, every checker on:\n");
    for (const auto& w : kWorkloads) {
        const std::string k = w.key;
        put(out, "  {:<44} {:>6} / {:>6} / {:>6}\n", "views, " + k,
            num(v("views_" + k + "_unchecked_ns_per_thread")),
            num(v("views_checked_build_" + k + "_none_ns")),
            num(v("views_checked_build_" + k + "_all_ns")));
    }
    for (const auto& w : kWorkloads) {
        const std::string k = w.key;
        put(out, "  {:<44} {:>6} / {:>6} / {:>6}\n", "plain CUDA, " + k,
            num(v("plain_cuda_unchecked_build_" + k + "_none_ns")),
            num(v("plain_cuda_checked_build_" + k + "_none_ns")),
            num(v("plain_cuda_checked_build_" + k + "_all_ns")));
    }
    put(out, "  {:<44} {:>6} ns, checkers off ({} ns with every checker on)\n",
        "the instrumentation, per raw access", num(v("instrumentation_ns_per_access_checks_off")),
        num(v("instrumentation_ns_per_access_all_checks")));
    if (!v.has("plain_cuda_checked_slowdown_one_worker_vector_add")) return;
    put(out,
        "Plain CUDA with every checker on, times the same kernel built UNCHECKED, on one worker /\n"
        "on every worker, and how much faster every worker runs it checked (a checked launch is\n"
        "tried on every worker, docs/parallel-checking.md):\n");
    for (const auto& w : kWorkloads) {
        const std::string k = w.key;
        put(out, "  {:<44} {:>6} / {:>6}   {}x\n", "plain CUDA, " + k,
            num(v("plain_cuda_checked_slowdown_one_worker_" + k)),
            num(v("plain_cuda_checked_slowdown_every_worker_" + k)),
            num(v("plain_cuda_checked_every_worker_speedup_" + k)));
    }
    if (v.has("matmul_1024_checked_2_workers_s"))
        put(out, "  {:<44} {:>6} / {:>6}   {}x  ({} s checked, {} s UNCHECKED, on two)\n",
            "naive matmul 1024^2", num(v("matmul_1024_checked_1_workers_s") /
                                       v("matmul_1024_unchecked_1_workers_s")),
            num(v("matmul_1024_checked_slowdown_two_workers")),
            num(v("matmul_1024_checked_1_workers_s") / v("matmul_1024_checked_2_workers_s")),
            num(v("matmul_1024_checked_2_workers_s")), num(v("matmul_1024_unchecked_2_workers_s")));
}

// One figure against its target. The verdict is taken on the value as printed, rounded to the
// digits shown, so that a line never says that a printed 1.80 misses 1.8.
void target_row(fmt::memory_buffer& out, const std::string& name, double x, int digits,
                const char* unit, bool at_most, double target) {
    std::string shown = fmt::format("{:.{}f}", x, digits);
    double as_shown = std::stod(shown);
    bool met = at_most ? as_shown <= target : as_shown >= target;
    put(out, "  {:<46} {:>9}{:<3} {} {:<8} {}\n", name, shown, unit,
        at_most ? "<=" : ">=", fmt::format("{}{}", target, unit), met ? "met" : "missed");
}

// The same figures against the project's targets, for developers.
void show_targets(fmt::memory_buffer& out, const Reader& v) {
    put(out, "Against the targets:\n");
    for (const auto& w : kWorkloads) {
        const std::string k = w.key;
        target_row(out, "views, " + k + " / serial loop", v("views_" + k + "_ratio_to_serial"), 1,
                   "x", true, w.max_ratio);
        target_row(out, "plain CUDA, " + k + " / serial loop",
                   v("plain_cuda_" + k + "_ratio_to_serial"), 1, "x", true, w.max_ratio);
    }
    for (const auto& w : kWorkloads) {
        const std::string k = w.key;
        target_row(out, "views, " + k + " checked / unchecked", v("checked_slowdown_" + k), 1, "x",
                   true, kMaxCheckedSlowdown);
        target_row(out, "plain CUDA, " + k + " checked / unchecked",
                   v("plain_cuda_" + k + "_checked_slowdown"), 1, "x", true, kMaxCheckedSlowdown);
    }
    if (v.has("hipcpu_vector_add_ns_per_thread")) {
        for (const auto& w : kWorkloads) {
            const std::string k = w.key;
            target_row(out, "plain CUDA, " + k + " / HIP-CPU",
                       v("plain_cuda_unchecked_to_hipcpu_" + k), 2, "x", true, kMaxToHipcpu);
        }
    }
    target_row(out, "two cores / one core", v("two_core_speedup"), 2, "x", false,
               kMinTwoCoreSpeedup);
    if (v.has("unchecked_build_two_worker_speedup"))
        target_row(out, "two cores / one core, built UNCHECKED",
                   v("unchecked_build_two_worker_speedup"), 2, "x", false, kMinTwoCoreSpeedup);
    target_row(out, "each further barrier (reduction)", v("per_extra_barrier_ns_per_thread"), 2,
               " ns", true, kMaxExtraBarrierNs);
    target_row(out, "shadow bytes per device byte", v("shadow_bytes_per_device_byte"), 2, "", true,
               kMaxShadowPerByte);
    if (v.has("plain_cuda_checked_slowdown_every_worker_vector_add")) {
        for (const auto& w : kWorkloads) {
            const std::string k = w.key;
            target_row(out, "2 workers: " + k + " checked / unchecked",
                       v("plain_cuda_checked_slowdown_every_worker_" + k), 1, "x", true,
                       k == "vector_add" ? kMaxCheckedSlowdownTwoWorkersVectorAdd
                                         : kMaxCheckedSlowdownTwoWorkers);
        }
    }
    if (v.has("page_slowdown"))
        target_row(out, "report page on / off (worst lesson)", v("page_slowdown"), 2, "x", true,
                   kMaxPageSlowdown);
    if (v.has("matmul_1024_checked_2_workers_s")) {
        target_row(out, "2 workers: matmul 1024^2 checked / unchecked",
                   v("matmul_1024_checked_slowdown_two_workers"), 1, "x", true,
                   kMaxCheckedSlowdownTwoWorkers);
        target_row(out, "matmul 1024^2 checked, two workers / one",
                   v("matmul_1024_checked_1_workers_s") / v("matmul_1024_checked_2_workers_s"), 2,
                   "x", false, kMinCheckedTwoWorkerSpeedup);
    }
}

}  // namespace

int show_figures(const std::string& path, bool targets) {
    std::ifstream in(path);
    if (!in) {
        fmt::print(stderr, "simt_bench: cannot read {}\n", path);
        return 2;
    }
    Figures figures = Figures::parse(in, nullptr, false);
    if (figures.is_discarded() || !figures.is_object()) {
        fmt::print(stderr, "simt_bench: {} is not a bench.json (a JSON object of figures)\n", path);
        return 2;
    }
    Reader v(figures);
    fmt::memory_buffer out;
    try {
        show_costs(out, v);
        if (targets) {
            put(out, "\n");
            show_targets(out, v);
        }
    } catch (const MissingFigure& missing) {
        fmt::print(stderr,
                   "simt_bench: {} has no figure \"{}\"; ./lab bench writes a complete one\n", path,
                   missing.key);
        return 2;
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

}  // namespace simt_bench
