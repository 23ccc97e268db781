// simt's benchmark: the cost of a thread, a barrier and a core, against a plain serial loop.
// Every figure is the median of several runs in this one process, side by side.
#include <simt/simt.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr int kRuns = 5;

double median_seconds(const std::function<void()>& f, int runs = kRuns) {
    f();  // warm-up: pages touched, fibers created
    std::vector<double> t;
    for (int r = 0; r < runs; ++r) {
        auto a = std::chrono::steady_clock::now();
        f();
        auto b = std::chrono::steady_clock::now();
        t.push_back(std::chrono::duration<double>(b - a).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

std::string cpu_model() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
    return "unknown CPU";
}

/// Runs the plain-CUDA benchmark (plain_cuda.cu) built at `path`: its "name value" lines.
std::map<std::string, double> run_plain_cuda(const char* path) {
    std::map<std::string, double> figures;
    std::FILE* p = popen(path, "r");
    if (!p) return figures;
    char name[64];
    double value;
    while (std::fscanf(p, "%63s %lf", name, &value) == 2) figures[name] = value;
    if (pclose(p) != 0) figures.clear();
    return figures;
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
// With sync_steps false the steps skip their barrier, so the difference is 8 barriers' cost.
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

// Independent blocks with real work per thread, to see how blocks spread over cores.
__global__ void compute_heavy(simt::span<float> out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = static_cast<float>(i) * 1e-6f;
    for (int k = 0; k < 400; ++k) x = x * 0.999f + 0.5f / (1.0f + x * x);
    out[i] = x;
}

int main(int argc, char** argv) {
    std::string json_path;
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--json") == 0 && i + 1 < argc) json_path = argv[++i];

    auto& cfg = simt::sim::config();
    const simt::sim::Config saved = cfg;
    simt::sim::apply_setting(cfg, "SIMT_CHECK", "none");

    // 1. Barrier-free: vector add over 16M elements, against the same body in a serial loop.
    const int n = 1 << 24;
    std::vector<float> ha(n), hb(n), hc(n);
    for (int i = 0; i < n; ++i) ha[i] = i * 0.5f, hb[i] = 1.0f - i;
    double serial = median_seconds([&] {
        const float* a = ha.data();
        const float* b = hb.data();
        float* c = hc.data();
        for (int i = 0; i < n; ++i) c[i] = a[i] + b[i];
        asm volatile("" : : "r"(c) : "memory");
    });
    auto da = simt::to_device(ha), db = simt::to_device(hb);
    auto dc = simt::device_array<float>(n);
    double vadd = median_seconds([&] {
        simt::launch(vector_add, n / 256, 256)(da, db, dc);
        simt::synchronize();
    });
    bool vadd_ok = dc.copy_to_host() == hc;

    // 2. One barrier: tiled transpose of a 4096 x 4096 matrix, 32 x 8 threads per block.
    const int m = 4096;
    std::vector<float> hm(std::size_t(m) * m);
    for (std::size_t i = 0; i < hm.size(); ++i) hm[i] = static_cast<float>(i % 9973);
    auto din = simt::to_device(hm, {m, m});
    auto dout = simt::device_array<float>({m, m});
    double transpose = median_seconds([&] {
        simt::launch(transpose_tiled, dim3(m / TILE, m / TILE), dim3(TILE, ROWS))(din, dout);
        simt::synchronize();
    });
    auto tr = dout.copy_to_host();
    bool transpose_ok = tr[1] == hm[m] && tr[std::size_t(m) * 7 + 3] == hm[std::size_t(3) * m + 7];

    // 3. Further barriers: 256-thread tree reduction, with and without the 8 step barriers.
    const int rblocks = 1 << 14, rthreads = rblocks * 256;
    auto rin = simt::to_device(std::vector<float>(rthreads, 1.0f));
    auto rout = simt::device_array<float>(rblocks);
    double reduce_sync = median_seconds([&] {
        simt::launch(tree_reduce, rblocks, 256)(rin, rout, true);
        simt::synchronize();
    });
    bool reduce_ok = rout.copy_to_host()[5] == 256.0f;
    double reduce_nosync = median_seconds([&] {
        simt::launch(tree_reduce, rblocks, 256)(rin, rout, false);
        simt::synchronize();
    });

    // 4. Two cores against one on independent blocks.
    const int hblocks = 2048, hthreads = hblocks * 256;
    auto hout = simt::device_array<float>(hthreads);
    auto heavy = [&](const char* workers) {
        simt::sim::apply_setting(cfg, "SIMT_WORKERS", workers);
        return median_seconds([&] {
            simt::launch(compute_heavy, hblocks, 256)(hout);
            simt::synchronize();
        });
    };
    double one_core = heavy("1"), two_cores = heavy("2");

    // 5. Every checker on, against the same launches unchecked (measured above). The inputs
    //    are re-copied first so that each checked run starts from host-written memory.
    simt::sim::apply_setting(cfg, "SIMT_WORKERS", "0");
    simt::sim::apply_setting(cfg, "SIMT_CHECK", "all");
    simt::sim::clear_findings();
    double vadd_checked = median_seconds([&] {
        simt::launch(vector_add, n / 256, 256)(da, db, dc);
        simt::synchronize();
    }, 3);
    double transpose_checked = median_seconds([&] {
        simt::launch(transpose_tiled, dim3(m / TILE, m / TILE), dim3(TILE, ROWS))(din, dout);
        simt::synchronize();
    }, 3);
    double reduce_checked = median_seconds([&] {
        simt::launch(tree_reduce, rblocks, 256)(rin, rout, true);
        simt::synchronize();
    }, 3);
    bool checked_silent = simt::sim::findings().empty();
    auto usage = simt::sim::shadow_usage();
    double shadow_per_byte = usage.memory_bytes ? double(usage.shadow_bytes) / usage.memory_bytes : 0;
    cfg = saved;

    const double per = 1e9;
    double serial_ns = serial * per / n;
    double vadd_ns = vadd * per / n;
    double transpose_ns = transpose * per / (double(m) * m / (TILE / ROWS));
    double extra_ns = (reduce_sync - reduce_nosync) * per / rthreads / 8;
    double speedup = one_core / two_cores;
    double slow_vadd = vadd_checked / vadd, slow_transpose = transpose_checked / transpose,
           slow_reduce = reduce_checked / reduce_sync;
    double checked_slowdown = std::max({slow_vadd, slow_transpose, slow_reduce});  // the worst

    std::printf("simt benchmark: %s, %u hardware threads\n", cpu_model().c_str(),
                std::thread::hardware_concurrency());
    std::printf("compiler: %s %s, build: Release (-O3 -DNDEBUG), median of %d runs per row\n",
#if defined(__clang__)
                "clang", __clang_version__,
#else
                "g++", __VERSION__,
#endif
                kRuns);
    std::printf("reproduce: ./lab bench\n\n");
    std::printf("%-34s %12s %10s %s\n", "measure", "ns/thread", "target", "");
    auto row = [](const char* name, double v, const char* target, bool ok) {
        std::printf("%-34s %12.2f %10s %s\n", name, v, target, ok ? "ok" : "MISSED");
    };
    row("serial loop (c = a + b, 16M)", serial_ns, "anchor", true);
    row("barrier-free kernel (16M threads)", vadd_ns, "<= 3x", vadd_ns <= 3 * serial_ns);
    row("one barrier (transpose 4096^2)", transpose_ns, "<= 12", transpose_ns <= 12);
    row("each further barrier (reduce 256)", extra_ns, "<= 5", extra_ns <= 5);
    std::printf("%-34s %12.2fx %9s %s\n", "barrier-free / serial loop", vadd_ns / serial_ns, "<= 3x",
                vadd_ns <= 3 * serial_ns ? "ok" : "MISSED");
    std::printf("%-34s %12.2fx %9s %s\n", "two cores / one core", speedup, ">= 1.7x",
                speedup >= 1.7 ? "ok" : "MISSED");
    std::printf("%-34s %12.2fx %9s %s\n", "checked / unchecked (worst)", checked_slowdown,
                "<= 20x", checked_slowdown <= 20 ? "ok" : "MISSED");
    std::printf("%-34s %12.2fx\n", "  vector add", slow_vadd);
    std::printf("%-34s %12.2fx\n", "  transpose", slow_transpose);
    std::printf("%-34s %12.2fx\n", "  tree reduction", slow_reduce);
    std::printf("%-34s %12.2f %10s %s\n", "shadow bytes per device byte", shadow_per_byte, "<= 8",
                shadow_per_byte <= 8 ? "ok" : "MISSED");
    if (!checked_silent) {
        std::printf("FAILED: the checkers reported a finding in a correct benchmark kernel\n");
        return 1;
    }
    if (!(vadd_ok && transpose_ok && reduce_ok)) {
        std::printf("FAILED: a benchmark kernel computed a wrong result\n");
        return 1;
    }
    // 6. Plain CUDA (raw pointers, plain __shared__), built with the raw-access instrumentation
    //    and without. Vector add makes three raw accesses per thread: the instrumentation's cost
    //    per access is the difference over three.
    auto checked_build = run_plain_cuda(SIMT_BENCH_PLAIN_CUDA);
    auto unchecked_build = run_plain_cuda(SIMT_BENCH_PLAIN_CUDA_UNCHECKED);
    if (checked_build.empty() || unchecked_build.empty()) {
        std::printf("FAILED: the plain-CUDA benchmark (plain_cuda.cu) did not run cleanly\n");
        return 1;
    }
    double per_access_off = (checked_build["vector_add_none"] - unchecked_build["vector_add_none"]) / 3;
    double per_access_all = (checked_build["vector_add_all"] - unchecked_build["vector_add_none"]) / 3;
    std::printf("\nplain CUDA (ns per thread)          unchecked build   checked build   checked build\n"
                "                                     checks off        checks off      all checks\n");
    for (const char* k : {"vector_add", "transpose", "tree_reduction"})
        std::printf("%-34s %12.2f %15.2f %15.2f\n", k, unchecked_build[std::string(k) + "_none"],
                    checked_build[std::string(k) + "_none"], checked_build[std::string(k) + "_all"]);
    std::printf("%-34s %12.2f ns (checks off), %.2f ns (all checks)\n",
                "instrumented raw access, each", per_access_off, per_access_all);

    if (!json_path.empty()) {
        std::ofstream out(json_path);
        out << "{\n"
            << "  \"serial_loop_ns_per_thread\": " << serial_ns << ",\n"
            << "  \"barrier_free_ns_per_thread\": " << vadd_ns << ",\n"
            << "  \"one_barrier_ns_per_thread\": " << transpose_ns << ",\n"
            << "  \"per_extra_barrier_ns_per_thread\": " << extra_ns << ",\n"
            << "  \"checked_slowdown\": " << checked_slowdown << ",\n"
            << "  \"checked_slowdown_vector_add\": " << slow_vadd << ",\n"
            << "  \"checked_slowdown_transpose\": " << slow_transpose << ",\n"
            << "  \"checked_slowdown_tree_reduction\": " << slow_reduce << ",\n"
            << "  \"shadow_bytes_per_device_byte\": " << shadow_per_byte << ",\n"
            << "  \"two_core_speedup\": " << speedup << ",\n"
            << "  \"instrumentation_ns_per_access_checks_off\": " << per_access_off << ",\n"
            << "  \"instrumentation_ns_per_access_all_checks\": " << per_access_all << ",\n";
        for (auto& [k, v] : unchecked_build) out << "  \"plain_cuda_unchecked_build_" << k << "_ns\": " << v << ",\n";
        for (auto& [k, v] : checked_build) out << "  \"plain_cuda_checked_build_" << k << "_ns\": " << v << ",\n";
        out
            << "  \"runs_per_measure\": " << kRuns << "\n}\n";
        std::printf("\nwrote %s\n", json_path.c_str());
    }
    return 0;
}
