// simt's benchmark: four workloads as simt views and as plain CUDA, each against a serial loop
// doing the same work, unchecked and checked; then a barrier's and a core's cost.
// Every figure is the median of several runs. bench/CMakeLists.txt builds this file twice: built
// UNCHECKED it is simt_bench, which times the serial loops and the unchecked kernels itself and
// runs the checked builds (this file's, with --checked-part, and plain_cuda.cu's) for the rest,
// and ROCm's HIP-CPU running the same kernels (hipcpu.cpp) where `--hipcpu PROGRAM` names it.
// `simt_bench --json FILE` writes the figures to FILE; `simt_bench --show FILE [--targets]`
// prints the tables of a bench.json, which is what `./lab bench` shows.
#include <simt/simt.hpp>

#include "figures.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#ifndef SIMT_BENCH_LESSONS
#define SIMT_BENCH_LESSONS ""  // the checked part (simt_bench_views_checked) times no lesson
#endif

namespace {

constexpr int kRuns = 5;
// The side of the course's naive matrix multiply timed checked and UNCHECKED (issue 42).
constexpr int kMatmulSide = 1024;

// One size per workload, shared by its serial loop, its views kernel and its plain-CUDA kernel
// (simt_bench passes them to plain_cuda.cu). The transpose was 4096² before issue 11; it is now
// the issue's 2048², which keeps its per-thread meaning and a quarter of its running time.
constexpr int kVectorAddN = 1 << 24;   // 16M threads, one element each
constexpr int kTransposeSide = 2048;   // 2048² floats; 1M threads of 32 x 8, 4 elements each
constexpr int kReductionN = 1 << 22;   // 4M threads, 16K blocks of 256
constexpr int kAtomicN = 1 << 20;      // 1M threads, one atomicAdd each

using simt_bench::kMaxCheckedSlowdown;
using simt_bench::kMaxExtraBarrierNs;
using simt_bench::kMaxShadowPerByte;
using simt_bench::kMinTwoCoreSpeedup;
using simt_bench::Workload;

double median_seconds(const std::function<void()>& f, int runs = kRuns,
                      const std::function<void()>& before = [] {}) {
    before();
    f();  // warm-up: pages touched, fibers created
    std::vector<double> t;
    for (int r = 0; r < runs; ++r) {
        before();  // untimed: resets what the run accumulates into
        auto a = std::chrono::steady_clock::now();
        f();
        auto b = std::chrono::steady_clock::now();
        t.push_back(std::chrono::duration<double>(b - a).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

// Verdicts are taken on the value as printed, so a row never says that a printed 1.40 misses 1.4.
double as_printed(double x, int digits) {
    double s = std::pow(10.0, digits);
    return std::round(x * s) / s;
}
const char* verdict(bool ok) { return ok ? "ok" : "MISSED"; }

std::string cpu_model() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
    return "unknown CPU";
}

/// Runs another build of the benchmark's kernels (a checked build, plain CUDA, HIP-CPU's) at
/// `path` with `args`: its "name value" lines. Empty when it failed (a wrong result or a finding).
std::map<std::string, double> run_part(const char* path, const std::string& args) {
    std::map<std::string, double> figures;
    std::string cmd = std::string("'") + path + "' " + args;
    std::FILE* p = popen(cmd.c_str(), "r");
    if (!p) return figures;
    char name[64];
    double value;
    while (std::fscanf(p, "%63s %lf", name, &value) == 2) figures[name] = value;
    if (pclose(p) != 0) figures.clear();
    return figures;
}

/// Seconds a whole run of `program` takes, with `env` ("NAME=value", or empty) set for it: the
/// median of three after one untimed run. Negative when it failed.
double process_seconds(const std::string& program, const std::string& env) {
    const std::string cmd =
        (env.empty() ? "" : "env '" + env + "' ") + "'" + program + "' >/dev/null 2>&1";
    std::vector<double> t;
    for (int r = 0; r < 4; ++r) {
        auto a = std::chrono::steady_clock::now();
        if (std::system(cmd.c_str()) != 0) return -1;
        auto b = std::chrono::steady_clock::now();
        if (r > 0) t.push_back(std::chrono::duration<double>(b - a).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

[[noreturn]] void wrong_result(const char* kernel, const char* how) {
    std::printf("FAILED: the benchmark kernel %s computed a wrong result (%s)\n", kernel, how);
    std::exit(1);
}

}  // namespace

__global__ void vector_add(simt::span<const float> a, simt::span<const float> b, simt::span<float> c) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < static_cast<int>(c.size())) c[i] = a[i] + b[i];
}

constexpr int TILE = 32, ROWS = 8;

__global__ void transpose_tiled(simt::mdspan<const float, 2> in, simt::mdspan<float, 2> out) {
    __shared__ simt::shared<float[TILE][TILE + 1]> tile;
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) tile[threadIdx.y + j][threadIdx.x] = in(y + j, x);
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) out(y + j, x) = tile[threadIdx.x][threadIdx.y + j];
}

// A 256-thread tree reduction: one barrier after the load, then one per halving step (8).
// With sync_steps false the steps skip their barrier, so the difference is 8 barriers' cost;
// that variant races (on a GPU too), so its result is never looked at.
__global__ void tree_reduce(simt::span<const float> in, simt::span<float> out, bool sync_steps) {
    __shared__ simt::shared<float[256]> s;
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * 256 + t];
    __syncthreads();
    for (unsigned stride = 128; stride > 0; stride /= 2) {
        if (t < stride) s[t] += s[t + stride];
        if (sync_steps) __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void atomic_counter(simt::span<int> counter) { atomicAdd(&counter[0], 1); }

// Independent blocks with real work per thread, to see how blocks spread over cores.
SIMT_DEVICE_FN float heavy_value(int i) {
    float x = static_cast<float>(i) * 1e-6f;
    for (int k = 0; k < 400; ++k) x = x * 0.999f + 0.5f / (1.0f + x * x);
    return x;
}
__global__ void compute_heavy(simt::span<float> out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = heavy_value(i);
}

int main(int argc, char** argv) {
    std::string json_path, show_path, hipcpu_program;
    // The views kernels built checked (the default build), every checker off and then on: the
    // same kernels and checks as below, printed as "name ns-per-thread" lines for simt_bench.
    bool checked_part = false, targets = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--json") == 0 && i + 1 < argc) json_path = argv[++i];
        if (std::strcmp(argv[i], "--show") == 0 && i + 1 < argc) show_path = argv[++i];
        if (std::strcmp(argv[i], "--hipcpu") == 0 && i + 1 < argc) hipcpu_program = argv[++i];
        if (std::strcmp(argv[i], "--checked-part") == 0) checked_part = true;
        if (std::strcmp(argv[i], "--targets") == 0) targets = true;
    }
    if (!show_path.empty()) return simt_bench::show_figures(show_path, targets);

    auto& cfg = simt::sim::config();
    const simt::sim::Config saved = cfg;
    simt::sim::apply_setting(cfg, "SIMT_CHECK", "none");

    // Each workload: its serial loop (whose output is the reference the kernels must match),
    // then its views kernel with the checkers off. Section 4 runs the kernels again with every
    // checker on.

    // 1. Vector add, barrier-free: c = a + b over 16M elements.
    const int n = kVectorAddN;
    std::vector<float> ha(n), hb(n), hc(n);
    for (int i = 0; i < n; ++i) ha[i] = i * 0.5f, hb[i] = 1.0f - i;
    double serial_vadd = median_seconds([&] {
        const float* a = ha.data();
        const float* b = hb.data();
        float* c = hc.data();
        for (int i = 0; i < n; ++i) c[i] = a[i] + b[i];
        asm volatile("" : : "r"(c) : "memory");
    });
    auto da = simt::to_device(ha), db = simt::to_device(hb);
    auto dc = simt::device_array<float>(n);
    auto run_vadd = [&] {
        simt::launch(vector_add, n / 256, 256)(da, db, dc);
        simt::synchronize();
    };
    auto check_vadd = [&] { if (dc.copy_to_host() != hc) wrong_result("vector_add", "c != a + b"); };
    double vadd = median_seconds(run_vadd);
    check_vadd();

    // 2. Tiled transpose, one barrier: 2048² floats. The serial loop is plain nested loops over
    //    the kernel's 32 x 32 tiles, each tile read by rows and written by columns.
    const int m = kTransposeSide;
    std::vector<float> hm(std::size_t(m) * m), ht(hm.size());
    for (std::size_t i = 0; i < hm.size(); ++i) hm[i] = static_cast<float>(i % 9973);
    double serial_transpose = median_seconds([&] {
        const float* in = hm.data();
        float* out = ht.data();
        for (int ty = 0; ty < m; ty += TILE)
            for (int tx = 0; tx < m; tx += TILE)
                for (int y = ty; y < ty + TILE; ++y)
                    for (int x = tx; x < tx + TILE; ++x) out[std::size_t(x) * m + y] = in[std::size_t(y) * m + x];
        asm volatile("" : : "r"(out) : "memory");
    });
    auto din = simt::to_device(hm, {std::size_t(m), std::size_t(m)});
    auto dout = simt::device_array<float>({std::size_t(m), std::size_t(m)});
    auto run_transpose = [&] {
        simt::launch(transpose_tiled, dim3(m / TILE, m / TILE), dim3(TILE, ROWS))(din, dout);
        simt::synchronize();
    };
    auto check_transpose = [&] {
        if (dout.copy_to_host() != ht) wrong_result("transpose_tiled", "out != the transpose of in");
    };
    double transpose = median_seconds(run_transpose);
    check_transpose();

    // 3. Tree reduction, 1 + 8 barriers: the sum of each 256-element chunk of 4M floats. The
    //    serial loop sums each chunk in the kernel's order (halving), so the sums match exactly;
    //    the compiler vectorizes its halving steps, as it could not a running sum.
    const int rthreads = kReductionN, rblocks = rthreads / 256;
    std::vector<float> hr(rthreads), hsums(rblocks);
    for (int i = 0; i < rthreads; ++i) hr[i] = static_cast<float>(i % 101) * 0.25f;
    double serial_reduce = median_seconds([&] {
        const float* in = hr.data();
        float* out = hsums.data();
        for (int b = 0; b < rblocks; ++b) {
            float s[256];
            std::copy_n(in + std::size_t(b) * 256, 256, s);
            for (int stride = 128; stride > 0; stride /= 2)
                for (int t = 0; t < stride; ++t) s[t] += s[t + stride];
            out[b] = s[0];
        }
        asm volatile("" : : "r"(out) : "memory");
    });
    auto rin = simt::to_device(hr);
    auto rout = simt::device_array<float>(rblocks);
    auto run_reduce = [&] {
        simt::launch(tree_reduce, rblocks, 256)(rin, rout, true);
        simt::synchronize();
    };
    auto check_reduce = [&] {
        if (rout.copy_to_host() != hsums) wrong_result("tree_reduce", "a chunk's sum differs");
    };
    double reduce_sync = median_seconds(run_reduce);
    check_reduce();
    double reduce_nosync = median_seconds([&] {
        simt::launch(tree_reduce, rblocks, 256)(rin, rout, false);
        simt::synchronize();
    });

    // 4. Atomic counter: 1M increments of one int. The serial loop increments a std::atomic<int>
    //    with a relaxed fetch_add (a locked add each, as the kernel's atomicAdd is), which the
    //    compiler does not fold.
    const int an = kAtomicN;
    std::atomic<int> serial_counter{0};
    double serial_atomic = median_seconds(
        [&] {
            for (int i = 0; i < an; ++i) serial_counter.fetch_add(1, std::memory_order_relaxed);
        },
        kRuns, [&] { serial_counter.store(0, std::memory_order_relaxed); });
    if (serial_counter.load() != an) wrong_result("the serial atomic loop", "count != n");
    const std::vector<int> zero{0};
    auto dcount = simt::to_device(zero);
    auto run_atomic = [&] {
        simt::launch(atomic_counter, an / 256, 256)(dcount);
        simt::synchronize();
    };
    auto reset_atomic = [&] { dcount.copy_from_host(zero); };
    auto check_atomic = [&] {
        if (dcount.copy_to_host()[0] != an) wrong_result("atomic_counter", "count != threads");
    };
    double atomic = median_seconds(run_atomic, kRuns, reset_atomic);
    check_atomic();

    // 5. Two cores against one on independent blocks (checked on every 64th thread: the whole
    //    reference would cost a second).
    const int hblocks = 2048, hthreads = hblocks * 256;
    auto hout = simt::device_array<float>(hthreads);
    auto heavy = [&](const char* workers) {
        simt::sim::apply_setting(cfg, "SIMT_WORKERS", workers);
        double t = median_seconds([&] {
            simt::launch(compute_heavy, hblocks, 256)(hout);
            simt::synchronize();
        });
        auto h = hout.copy_to_host();
        for (int i = 0; i < hthreads; i += 64)
            if (h[i] != heavy_value(i)) wrong_result("compute_heavy", "differs from the host's");
        return t;
    };
    double one_core = checked_part ? 0 : heavy("1"), two_cores = checked_part ? 0 : heavy("2");

    const double per = 1e9;
    const double transpose_threads = double(m) * m / (TILE / ROWS);
    struct Sized : Workload {
        double threads;  // for ns per thread
    };
    const Sized workloads[] = {{simt_bench::kWorkloads[0], double(n)},
                               {simt_bench::kWorkloads[1], transpose_threads},
                               {simt_bench::kWorkloads[2], double(rthreads)},
                               {simt_bench::kWorkloads[3], double(an)}};

    // 6. Every checker on, against the same launches checkers off (measured above): in the
    //    checked build only (in the UNCHECKED one the views have no checks to turn on).
    if (checked_part) {
        const double none_s[] = {vadd, transpose, reduce_sync, atomic};
        simt::sim::apply_setting(cfg, "SIMT_WORKERS", "0");
        simt::sim::apply_setting(cfg, "SIMT_CHECK", "all");
        simt::sim::clear_findings();
        double all_s[4];
        all_s[0] = median_seconds(run_vadd, 3);
        check_vadd();
        all_s[1] = median_seconds(run_transpose, 3);
        check_transpose();
        all_s[2] = median_seconds(run_reduce, 3);
        check_reduce();
        all_s[3] = median_seconds(run_atomic, 3, reset_atomic);
        check_atomic();
        auto usage = simt::sim::shadow_usage();
        cfg = saved;
        if (!simt::sim::findings().empty()) {
            std::fprintf(stderr, "FAILED: the checkers reported a finding in a correct benchmark kernel\n");
            return 1;
        }
        for (int w = 0; w < 4; ++w)
            std::printf("%s_none %g\n%s_all %g\n", workloads[w].key, none_s[w] * per / workloads[w].threads,
                        workloads[w].key, all_s[w] * per / workloads[w].threads);
        std::printf("shadow_bytes_per_device_byte %g\n",
                    usage.memory_bytes ? double(usage.shadow_bytes) / usage.memory_bytes : 0);
        return 0;
    }
    cfg = saved;

    // 7. The checked builds: the views kernels (this file) and plain CUDA (raw pointers, plain
    //    __shared__; plain_cuda.cu, built with the raw-access instrumentation and without).
    const std::string sizes = std::to_string(kVectorAddN) + " " + std::to_string(kTransposeSide) + " " +
                              std::to_string(kReductionN) + " " + std::to_string(kAtomicN);
    auto views_checked_build = run_part(SIMT_BENCH_VIEWS_CHECKED, "--checked-part");
    auto checked_build = run_part(SIMT_BENCH_PLAIN_CUDA, sizes);
    auto unchecked_build = run_part(SIMT_BENCH_PLAIN_CUDA_UNCHECKED, sizes);
    // SIMT_PROFILE's cost (docs/profiling.md): the views' checked build again, counting too.
    setenv("SIMT_PROFILE", "json:/dev/null", 1);
    auto profiled_build = run_part(SIMT_BENCH_VIEWS_CHECKED, "--checked-part");
    unsetenv("SIMT_PROFILE");
    // The report page's cost (docs/report-page.md): each lesson its tests open, checked as
    // `./lab run` runs it, with SIMT_REPORT=html:... and without.
    std::map<std::string, double> page_slowdown;
    if (std::strlen(SIMT_BENCH_LESSONS) > 0) {
        const std::string lessons = SIMT_BENCH_LESSONS,
                          page = "/tmp/simt-bench-page-" + std::to_string(getpid()) + ".html";
        for (std::size_t at = 0; at <= lessons.size();) {
            std::size_t end = lessons.find(':', at);
            if (end == std::string::npos) end = lessons.size();
            const std::string program = lessons.substr(at, end - at);
            at = end + 1;
            const double plain = process_seconds(program, ""),
                         paged = process_seconds(program, "SIMT_REPORT=html:" + page);
            if (plain <= 0 || paged <= 0) {
                std::printf("FAILED: the lesson %s did not run cleanly\n", program.c_str());
                return 1;
            }
            page_slowdown[program.substr(program.rfind('/') + 1)] = paged / plain;
        }
        std::remove(page.c_str());
    }
    if (views_checked_build.empty()) {
        std::printf("FAILED: the views kernels' checked build (bench.cu --checked-part) did not run cleanly\n");
        return 1;
    }
    // Two workers against one for plain CUDA built UNCHECKED, under the settings any program gets
    // (this process sets SIMT_CHECK=none for itself): issue 25 asks that a program built
    // UNCHECKED run its blocks on every worker, whatever SIMT_CHECK says.
    auto with_workers = [&](const char* workers, const char* build = SIMT_BENCH_PLAIN_CUDA_UNCHECKED,
                            const std::string& args = "independent-blocks") {
        const char* users = std::getenv("SIMT_WORKERS");
        const std::string saved_workers = users ? users : "";
        setenv("SIMT_WORKERS", workers, 1);
        auto part = run_part(build, args);
        if (users) setenv("SIMT_WORKERS", saved_workers.c_str(), 1);
        else unsetenv("SIMT_WORKERS");
        return part;
    };
    auto unchecked_one_worker = with_workers("1"), unchecked_two_workers = with_workers("2");
    // Issue 42: every checker on against UNCHECKED for each plain-CUDA workload, on one worker as
    // well as on every worker (the runs above): checked launches are tried on every worker.
    auto checked_one_worker = with_workers("1", SIMT_BENCH_PLAIN_CUDA, sizes);
    auto unchecked_build_one_worker = with_workers("1", SIMT_BENCH_PLAIN_CUDA_UNCHECKED, sizes);
    // The course's first matrix multiply (naive, 16 x 16 blocks) at kMatmulSide: every checker on
    // (the instrumented build) against the UNCHECKED build, each on one worker and on two. Timed
    // once each: checked, it takes about a minute.
    const std::string matmul_args = "matmul " + std::to_string(kMatmulSide);
    std::map<std::string, double> matmul_s;
    for (const char* workers : {"1", "2"}) {
        matmul_s[std::string("checked_") + workers] =
            with_workers(workers, SIMT_BENCH_PLAIN_CUDA, matmul_args)["matmul"];
        matmul_s[std::string("unchecked_") + workers] =
            with_workers(workers, SIMT_BENCH_PLAIN_CUDA_UNCHECKED, matmul_args)["matmul"];
    }
    if (checked_build.empty() || unchecked_build.empty() || unchecked_one_worker.empty() ||
        unchecked_two_workers.empty() || checked_one_worker.empty() ||
        unchecked_build_one_worker.empty()) {
        std::printf("FAILED: the plain-CUDA benchmark (plain_cuda.cu) did not run cleanly\n");
        return 1;
    }
    // ROCm's HIP-CPU on the same kernels, written as HIP (hipcpu.cpp), where ./lab bench --hipcpu
    // built it: the same sizes and method, in the same run.
    std::map<std::string, double> hipcpu;
    if (!hipcpu_program.empty()) {
        hipcpu = run_part(hipcpu_program.c_str(), sizes);
        if (hipcpu.empty()) {
            std::printf("FAILED: HIP-CPU's benchmark (%s, from bench/hipcpu.cpp) did not run "
                        "cleanly\n", hipcpu_program.c_str());
            return 1;
        }
    }
    double shadow_per_byte = views_checked_build["shadow_bytes_per_device_byte"];

    std::map<std::string, double> serial_s = {{"vector_add", serial_vadd}, {"transpose", serial_transpose},
                                              {"tree_reduction", serial_reduce}, {"atomic_counter", serial_atomic}};
    std::map<std::string, double> views_s = {{"vector_add", vadd}, {"transpose", transpose},
                                             {"tree_reduction", reduce_sync}, {"atomic_counter", atomic}};
    // Views checked: the checked build with every checker on (ns per thread), against views
    // unchecked (this build, seconds).
    std::map<std::string, double> views_checked_slowdown;
    for (auto& w : workloads)
        views_checked_slowdown[w.key] = views_checked_build[std::string(w.key) + "_all"] / (views_s[w.key] * per / w.threads);

    // The figures bench.json has always had, with their meanings of today.
    double serial_ns = serial_vadd * per / n;
    double vadd_ns = vadd * per / n;
    double transpose_ns = transpose * per / transpose_threads;
    double extra_ns = (reduce_sync - reduce_nosync) * per / rthreads / 8;
    double speedup = one_core / two_cores;
    double unchecked_speedup =
        unchecked_one_worker["independent_blocks"] / unchecked_two_workers["independent_blocks"];
    double checked_slowdown = 0;  // the worst workload's, views
    for (auto& w : workloads)
        checked_slowdown = std::max(checked_slowdown, views_checked_slowdown[w.key]);
    // Vector add makes three raw accesses per thread: the instrumentation's cost per access is
    // the difference between the builds over three.
    double per_access_off = (checked_build["vector_add_none"] - unchecked_build["vector_add_none"]) / 3;
    double per_access_all = (checked_build["vector_add_all"] - unchecked_build["vector_add_none"]) / 3;

    std::printf("simt benchmark: %s, %u hardware threads\n", cpu_model().c_str(),
                std::thread::hardware_concurrency());
    std::printf("compiler: %s %s, build: Release (-O3 -DNDEBUG), median of %d runs per row "
                "(3 with every checker on)\n",
#if defined(__clang__)
                "clang", __clang_version__,
#else
                "g++", __VERSION__,
#endif
                kRuns);
    std::printf("method: the serial loop does the kernel's work in one C++ loop; unchecked: views and\n"
                "plain CUDA built UNCHECKED (nothing checked); checked: every checker on, views and plain\n"
                "CUDA built as by default (with the raw-access instrumentation); ns per kernel thread\n");
    std::printf("reproduce: ./lab bench\n\n");

    // The side-by-side table: per workload, views and plain CUDA.
    auto target = [](double t) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "<= %gx", t);
        return std::string(buf);
    };
    const char* head = "%-19s %-10s %8s %11s %9s   %-7s %-6s %9s %8s   %-6s %s\n";
    std::printf(head, "", "", "serial", "unchecked", "", "", "", "checked", "", "", "");
    std::printf(head, "workload", "kernel", "ns/thr", "ns/thr", "/ serial", "target", "", "ns/thr", "/ unchk",
                "target", "");
    std::map<std::string, double> json;     // the new figures, written after today's keys
    std::map<std::string, long> json_count;  // and the thread counts
    for (auto& w : workloads) {
        double serial_w = serial_s[w.key] * per / w.threads;
        json[std::string("serial_") + w.key + "_ns_per_thread"] = serial_w;
        json_count[std::string(w.key) + "_threads"] = static_cast<long>(w.threads);
        for (bool views : {true, false}) {
            std::string k = w.key;
            double unchecked = views ? views_s[k] * per / w.threads : unchecked_build[k + "_none"];
            double checked = views ? views_checked_build[k + "_all"] : checked_build[k + "_all"];
            double ratio = unchecked / serial_w, slowdown = checked / unchecked;
            bool ratio_ok = as_printed(ratio, 1) <= w.max_ratio;
            bool slow_ok = as_printed(slowdown, 1) <= kMaxCheckedSlowdown;
            std::printf("%-19s %-10s %8.2f %11.2f %8.1fx   %-7s %-6s %9.2f %7.1fx   %-6s %s\n",
                        views ? w.label : "", views ? "views" : "plain CUDA", serial_w, unchecked, ratio,
                        target(w.max_ratio).c_str(), verdict(ratio_ok), checked, slowdown,
                        target(kMaxCheckedSlowdown).c_str(), verdict(slow_ok));
            if (views) {  // views' checked / unchecked is today's checked_slowdown_<workload>
                json["views_" + k + "_unchecked_ns_per_thread"] = unchecked;
                json["views_" + k + "_checked_ns_per_thread"] = checked;
                json["views_" + k + "_ratio_to_serial"] = ratio;
            } else {  // the builds' ns are today's plain_cuda_*_build_<workload>_{none,all}_ns
                json["plain_cuda_" + k + "_ratio_to_serial"] = ratio;
                json["plain_cuda_" + k + "_checked_slowdown"] = slowdown;
            }
        }
    }

    // Today's rows, which docs/simulator.md quotes.
    auto row = [](const char* name, const std::string& value, const std::string& target, const char* verdict) {
        std::printf("%-36s %12s %16s %s\n", name, value.c_str(), target.c_str(), verdict);
    };
    auto fmt = [](double v, const char* unit, int digits = 2) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.*f%s", digits, v, unit);
        return std::string(buf);
    };
    const Sized& vadd_w = workloads[0];
    const Sized& transpose_w = workloads[1];
    double serial_transpose_ns = serial_transpose * per / transpose_threads;
    std::printf("\n");
    row("measure", "value", "target", "");
    row("serial loop (c = a + b, 16M)", fmt(serial_ns, " ns"), "anchor", "");
    // Issue 11's ratios to the serial loop replace the 3x and the 12 ns of before.
    row("barrier-free kernel (16M threads)", fmt(vadd_ns, " ns"), target(vadd_w.max_ratio) + " serial",
        verdict(as_printed(vadd_ns / serial_ns, 1) <= vadd_w.max_ratio));
    row("one barrier (transpose 2048^2)", fmt(transpose_ns, " ns"), target(transpose_w.max_ratio) + " serial",
        verdict(as_printed(transpose_ns / serial_transpose_ns, 1) <= transpose_w.max_ratio));
    row("each further barrier (reduce 256)", fmt(extra_ns, " ns"), "<= " + fmt(kMaxExtraBarrierNs, " ns", 0),
        verdict(as_printed(extra_ns, 2) <= kMaxExtraBarrierNs));
    row("two cores / one core", fmt(speedup, "x"), ">= " + fmt(kMinTwoCoreSpeedup, "x", 1),
        verdict(as_printed(speedup, 2) >= kMinTwoCoreSpeedup));
    row("two cores / one, plain UNCHECKED", fmt(unchecked_speedup, "x"),
        ">= " + fmt(kMinTwoCoreSpeedup, "x", 1), verdict(as_printed(unchecked_speedup, 2) >= kMinTwoCoreSpeedup));
    row("checked / unchecked (worst, views)", fmt(checked_slowdown, "x", 1), target(kMaxCheckedSlowdown),
        verdict(as_printed(checked_slowdown, 1) <= kMaxCheckedSlowdown));
    row("shadow bytes per device byte", fmt(shadow_per_byte, ""), "<= " + fmt(kMaxShadowPerByte, "", 0),
        verdict(as_printed(shadow_per_byte, 2) <= kMaxShadowPerByte));
    double profile_slowdown = 0;  // the worst workload's: counters and checks / checks alone
    if (!profiled_build.empty()) {
        for (auto& w : workloads) {
            const std::string k = std::string(w.key) + "_all";
            json[std::string("views_") + w.key + "_profiled_ns_per_thread"] = profiled_build[k];
            profile_slowdown = std::max(profile_slowdown, profiled_build[k] / views_checked_build[k]);
        }
        row("SIMT_PROFILE on / checked (worst, views)", fmt(profile_slowdown, "x", 1), "<= 3x",
            verdict(as_printed(profile_slowdown, 1) <= 3));
        json["profile_slowdown"] = profile_slowdown;
    }
    {
        double worst = 0;
        std::string which;
        for (const auto& [lesson, x] : page_slowdown) {
            json["page_slowdown_" + lesson] = x;
            if (x > worst) worst = x, which = lesson;
        }
        row("report page on / off (worst lesson)", fmt(worst, "x", 2) + " " + which, target(simt_bench::kMaxPageSlowdown),
            verdict(as_printed(worst, 2) <= simt_bench::kMaxPageSlowdown));
        json["page_slowdown"] = worst;
    }
    std::printf("%-36s %12s (checks off), %.2f ns (all checks)\n", "instrumented raw access, each",
                fmt(per_access_off, " ns").c_str(), per_access_all);

    std::printf("\nplain CUDA (ns per thread)          unchecked build   checked build   checked build\n"
                "                                     checks off        checks off      all checks\n");
    for (auto& w : workloads)
        std::printf("%-34s %12.2f %15.2f %15.2f\n", w.key, unchecked_build[std::string(w.key) + "_none"],
                    checked_build[std::string(w.key) + "_none"], checked_build[std::string(w.key) + "_all"]);

    std::printf("\nplain CUDA, every checker on       one worker                  every worker (%u)"
                "          checked,\n"
                "(ns per thread)                    unchecked  checked  ratio   unchecked  checked  "
                "ratio  every / one\n", std::thread::hardware_concurrency());
    for (auto& w : workloads) {
        const std::string none = std::string(w.key) + "_none", all = std::string(w.key) + "_all";
        const double one_u = unchecked_build_one_worker[none], one_c = checked_one_worker[all];
        const double every_u = unchecked_build[none], every_c = checked_build[all];
        std::printf("%-34s %9.2f %8.2f %5.1fx %11.2f %8.2f %5.1fx %11.2fx\n", w.key, one_u, one_c,
                    one_c / one_u, every_u, every_c, every_c / every_u, one_c / every_c);
    }

    std::printf("\nnaive matmul %dx%d (s)             unchecked build   checked build  checked / unchecked\n",
                kMatmulSide, kMatmulSide);
    for (const char* workers : {"1", "2"})
        std::printf("%-34s %12.2f %15.2f %15.1fx\n",
                    workers == std::string("1") ? "one worker" : "two workers",
                    matmul_s[std::string("unchecked_") + workers],
                    matmul_s[std::string("checked_") + workers],
                    matmul_s[std::string("checked_") + workers] /
                        matmul_s[std::string("unchecked_") + workers]);

    if (!hipcpu.empty()) {
        std::printf("\n%-34s %12s %22s %11s\n", "HIP-CPU, same kernels (ns/thr)", "HIP-CPU",
                    "plain CUDA unchecked", "/ HIP-CPU");
        for (auto& w : workloads) {
            double theirs = hipcpu[w.key], ours = unchecked_build[std::string(w.key) + "_none"];
            bool ok = as_printed(ours / theirs, 2) <= simt_bench::kMaxToHipcpu;
            std::printf("%-34s %12.2f %22.2f %10.2fx   <= %gx %s\n", w.key, theirs, ours, ours / theirs,
                        simt_bench::kMaxToHipcpu, verdict(ok));
        }
    }

    if (!json_path.empty()) {
        simt_bench::Figures figures;
        figures["serial_loop_ns_per_thread"] = serial_ns;
        figures["barrier_free_ns_per_thread"] = vadd_ns;
        figures["one_barrier_ns_per_thread"] = transpose_ns;
        figures["per_extra_barrier_ns_per_thread"] = extra_ns;
        figures["checked_slowdown"] = checked_slowdown;
        for (auto& w : workloads)
            figures[std::string("checked_slowdown_") + w.key] = views_checked_slowdown[w.key];
        figures["shadow_bytes_per_device_byte"] = shadow_per_byte;
        figures["two_core_speedup"] = speedup;
        figures["instrumentation_ns_per_access_checks_off"] = per_access_off;
        figures["instrumentation_ns_per_access_all_checks"] = per_access_all;
        for (auto& [k, v] : unchecked_build) figures["plain_cuda_unchecked_build_" + k + "_ns"] = v;
        for (auto& [k, v] : checked_build) figures["plain_cuda_checked_build_" + k + "_ns"] = v;
        for (auto& [k, v] : views_checked_build)
            if (k != "shadow_bytes_per_device_byte")
                figures["views_checked_build_" + k + "_ns"] = v;
        for (auto& [k, v] : json) figures[k] = v;
        // Issue 25's two measures: plain CUDA built UNCHECKED on two workers against one, and
        // against HIP-CPU (plain CUDA built UNCHECKED / HIP-CPU, per workload) where it ran.
        figures["unchecked_build_one_worker_ns_per_thread"] =
            unchecked_one_worker["independent_blocks"];
        figures["unchecked_build_two_workers_ns_per_thread"] =
            unchecked_two_workers["independent_blocks"];
        figures["unchecked_build_two_worker_speedup"] = unchecked_speedup;
        for (auto& [k, v] : hipcpu) {
            figures["hipcpu_" + k + "_ns_per_thread"] = v;
            figures["plain_cuda_unchecked_to_hipcpu_" + k] = unchecked_build[k + "_none"] / v;
        }
        for (auto& [k, v] : json_count) figures[k] = v;
        // Issue 42: every checker on against UNCHECKED, per workload, on one worker and on all.
        for (auto& w : workloads) {
            const std::string none = std::string(w.key) + "_none", all = std::string(w.key) + "_all";
            figures["plain_cuda_one_worker_unchecked_build_" + none + "_ns"] = unchecked_build_one_worker[none];
            figures["plain_cuda_one_worker_checked_build_" + all + "_ns"] = checked_one_worker[all];
            figures[std::string("plain_cuda_checked_slowdown_one_worker_") + w.key] =
                checked_one_worker[all] / unchecked_build_one_worker[none];
            figures[std::string("plain_cuda_checked_slowdown_every_worker_") + w.key] =
                checked_build[all] / unchecked_build[none];
            figures[std::string("plain_cuda_checked_every_worker_speedup_") + w.key] =
                checked_one_worker[all] / checked_build[all];
        }
        // Issue 42's workload: seconds for one naive multiply, by build and workers.
        for (auto& [k, v] : matmul_s)
            figures["matmul_" + std::to_string(kMatmulSide) + "_" + k + "_workers_s"] = v;
        figures["matmul_" + std::to_string(kMatmulSide) + "_checked_slowdown_two_workers"] =
            matmul_s["checked_2"] / matmul_s["unchecked_2"];
        figures["runs_per_measure"] = kRuns;
        if (!simt_bench::write_figures(figures, json_path)) return 1;
        std::printf("\nwrote %s\n", json_path.c_str());
    }
    return 0;
}
