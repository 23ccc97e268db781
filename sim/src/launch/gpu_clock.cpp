// The named GPU's clock (gpu_clock.hpp has the rule): operations in the order issued, each
// resolved once everything issued before it has ended.
#include "gpu_clock.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <condition_variable>
#include <limits>
#include <map>
#include <mutex>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "streams.hpp"
#include "../device/model.hpp"
#include "../device/timing.hpp"

namespace simt::sim::detail {

namespace {

constinit std::atomic<bool> wanted{false};

/// A pageable copy is staged through the driver's pinned buffer: about half the link's rate, as
/// bandwidthTest shows on these cards.
constexpr double pageable_share = 0.5;

struct Op {
    Engine engine = Engine::none;
    int device = 0;
    unsigned stream = 0;
    bool legacy = false;              ///< on a device's legacy default stream
    std::string name;                 ///< what the trace calls it: the kernel, or the copy
    double sim_start = -1, sim_end = -1;  ///< the simulator's own time, µs since the clock began
    double host_at = 0;               ///< the host's clock when it issued the operation
    std::vector<std::size_t> after;   ///< indices of the operations it follows
    double us = 0;
    bool ended = false;
    bool predicted = true;            ///< false: a launch the time model had no counts for
    std::uint32_t graph = 0;          ///< the graph launch a kernel node ran in (1, 2, ...), or 0
    double start = 0, end = 0;        ///< once resolved
};

const char* engine_name(Engine e) {
    constexpr const char* names[] = {"none", "multiprocessors", "copy engine to the device",
                                     "copy engine to the host"};
    return names[static_cast<unsigned>(e)];
}

std::string& trace_path() {
    static std::string* path = new std::string;  // read at the very end of the program
    return *path;
}

class Clock {
public:
    ClockOp add(const StreamImpl& s, Engine e, double us, bool ended) {
        std::lock_guard lock(m_);
        return add_locked(s, e, us, ended);
    }

    void launch(const StreamImpl& s, std::uint32_t serial, std::string name, std::uint32_t graph) {
        std::lock_guard lock(m_);
        const std::size_t i = add_locked(s, Engine::multiprocessors, 0, false) - 1;
        ops_[i].name = std::move(name);
        ops_[i].graph = graph;
        launches_[serial] = i;
    }

    void launch_started(std::uint32_t serial) {
        std::lock_guard lock(m_);
        if (auto it = launches_.find(serial); it != launches_.end())
            ops_[it->second].sim_start = now_us();
    }

    void predicted(std::uint32_t serial, double us, std::string name) {
        std::lock_guard lock(m_);
        if (auto it = launches_.find(serial); it != launches_.end()) {
            ops_[it->second].us = us;
            if (!name.empty()) ops_[it->second].name = std::move(name);
            predicted_.insert(serial);
        }
    }

    void named(ClockOp op, std::string name, double sim_start) {
        std::lock_guard lock(m_);
        ops_[op - 1].name = std::move(name);
        ops_[op - 1].sim_start = sim_start;
        ops_[op - 1].sim_end = now_us();
    }

    /// Microseconds of this machine's steady clock since the clock began.
    double now_us() const {
        return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - began_)
            .count();
    }

    /// Places every operation that has ended, in order, up to the first that has not: what a
    /// picture of the run can show of a program that stopped on an error too.
    void resolve_ended(std::unique_lock<std::mutex>& lock) {
        std::size_t last = resolved_;
        while (last < ops_.size() && ops_[last].ended) ++last;
        if (last > resolved_) resolve(lock, last - 1);
    }

    /// The run as the Trace Event format has it (chrome://tracing, Perfetto): the GPU's clock as
    /// one process, a row per stream, and the simulator's own time as another. Only what has
    /// ended by now: a program that stopped on an error still leaves what it ran.
    nlohmann::ordered_json trace(const std::string& gpu) {
        std::unique_lock lock(m_);
        resolve_ended(lock);
        nlohmann::ordered_json events = nlohmann::ordered_json::array();
        auto process = [&](int pid, const std::string& name) {
            events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", pid},
                              {"args", {{"name", name}}}});
        };
        process(1, gpu);
        process(2, "the simulator, on this machine");
        std::map<std::pair<int, unsigned>, bool> rows;  ///< (process, stream): legacy
        for (std::size_t i = 0; i < resolved_; ++i) {
            const Op& op = ops_[i];
            if (op.engine == Engine::none) continue;  // an event record, or a wait between streams
            const char* kind = op.engine == Engine::multiprocessors
                                   ? (op.name.starts_with("cudaMem") ? "device memory" : "kernel")
                                   : "copy";
            nlohmann::ordered_json args = {{"engine", engine_name(op.engine)},
                                           {"device", op.device}};
            if (op.predicted)
                events.push_back({{"name", op.name}, {"cat", kind}, {"ph", "X"}, {"pid", 1},
                                  {"tid", op.stream}, {"ts", op.start}, {"dur", op.us},
                                  {"args", args}});
            else
                args["predicted"] = false;
            rows[{1, op.stream}] = op.legacy;
            if (op.sim_start >= 0 && op.sim_end >= op.sim_start) {
                events.push_back({{"name", op.name}, {"cat", kind}, {"ph", "X"}, {"pid", 2},
                                  {"tid", op.stream}, {"ts", op.sim_start},
                                  {"dur", op.sim_end - op.sim_start}, {"args", args}});
                rows[{2, op.stream}] = op.legacy;
            }
        }
        for (const auto& [row, legacy] : rows)
            events.push_back(
                {{"name", "thread_name"}, {"ph", "M"}, {"pid", row.first}, {"tid", row.second},
                 {"args",
                  {{"name", legacy ? "default stream (legacy)"
                                   : "stream " + std::to_string(row.second)}}}});
        return {{"traceEvents", std::move(events)}, {"displayTimeUnit", "ns"}};
    }

    /// The same operations as the report page's timeline (report/page.hpp): one entry each,
    /// with both clocks' start and length.
    nlohmann::ordered_json page(const std::string& gpu) {
        std::unique_lock lock(m_);
        resolve_ended(lock);
        nlohmann::ordered_json ops = nlohmann::ordered_json::array();
        for (std::size_t i = 0; i < resolved_; ++i) {
            const Op& op = ops_[i];
            if (op.engine == Engine::none) continue;
            nlohmann::ordered_json o = {
                {"name", op.name},
                {"kind", op.engine != Engine::multiprocessors ? "copy"
                         : op.name.starts_with("cudaMem")      ? "device memory"
                         : op.graph                            ? "graph"
                                                               : "kernel"},
                {"stream", op.stream},
                {"row", op.legacy ? "default stream (legacy)"
                                  : "stream " + std::to_string(op.stream)},
                {"engine", engine_name(op.engine)},
                {"device", op.device}};
            if (op.graph) o["graph_launch"] = op.graph;
            if (op.predicted) o["gpu_start_us"] = op.start, o["gpu_us"] = op.us;
            if (op.sim_start >= 0 && op.sim_end >= op.sim_start)
                o["sim_start_us"] = op.sim_start, o["sim_us"] = op.sim_end - op.sim_start;
            ops.push_back(std::move(o));
        }
        return {{"gpu", gpu}, {"ops", std::move(ops)}};
    }

    void launch_ended(std::uint32_t serial) {
        {
            std::lock_guard lock(m_);
            auto it = launches_.find(serial);
            if (it == launches_.end()) return;
            Op& op = ops_[it->second];
            op.ended = true;
            if (op.sim_start >= 0) op.sim_end = now_us();
            op.predicted = predicted_.erase(serial) > 0;
            launches_.erase(it);
        }
        ended_.notify_all();
    }

    void stream_waits(const StreamImpl& s, ClockOp record) {
        if (!record) return;
        std::lock_guard lock(m_);
        waits_[s.id].push_back(record - 1);
    }

    void host_waits(ClockOp op) {
        if (!op) return;
        std::unique_lock lock(m_);
        resolve(lock, op - 1);
        host_ = std::max(host_, ops_[op - 1].end);
    }

    void host_waits_stream(const StreamImpl& s) {
        std::unique_lock lock(m_);
        auto it = last_.find(s.id);
        if (it == last_.end()) return;
        const std::size_t i = it->second;
        resolve(lock, i);
        host_ = std::max(host_, ops_[i].end);
    }

    void host_waits_all() {
        std::unique_lock lock(m_);
        if (ops_.empty()) return;
        resolve(lock, ops_.size() - 1);
        host_ = std::max(host_, latest_end_);
    }

    std::optional<double> elapsed_ms(ClockOp from, ClockOp to) {
        std::unique_lock lock(m_);
        if (!from || !to) {
            why_ = "the clock was off when an event was recorded";
            return std::nullopt;
        }
        resolve(lock, std::max(from, to) - 1);
        if (unpredicted_ <= std::max(from, to) - 1) {
            why_ = "a launch before the event has no prediction";
            return std::nullopt;
        }
        why_ = "";
        return (ops_[to - 1].end - ops_[from - 1].end) / 1000.0;
    }

    const char* why() {
        std::lock_guard lock(m_);
        return why_;
    }

private:
    /// Issues an operation on `s`: after the stream's last one and the events it was made to wait
    /// for. Caller holds m_.
    ClockOp add_locked(const StreamImpl& s, Engine e, double us, bool ended) {
        Op op;
        op.engine = e;
        op.device = s.device;
        op.stream = s.id;
        op.legacy = s.legacy || s.id == 0;
        op.host_at = host_;
        op.us = us;
        op.ended = ended;
        if (auto it = last_.find(s.id); it != last_.end()) op.after.push_back(it->second);
        if (auto it = waits_.find(s.id); it != waits_.end()) {
            op.after.insert(op.after.end(), it->second.begin(), it->second.end());
            waits_.erase(it);
        }
        ops_.push_back(std::move(op));
        last_[s.id] = ops_.size() - 1;
        return ops_.size();
    }

    /// Places every operation up to `last` on the clock, waiting for those not yet ended.
    void resolve(std::unique_lock<std::mutex>& lock, std::size_t last) {
        ended_.wait(lock, [&] {
            for (std::size_t i = resolved_; i <= last; ++i)
                if (!ops_[i].ended) return false;
            return true;
        });
        for (; resolved_ <= last; ++resolved_) {
            Op& op = ops_[resolved_];
            double start = op.host_at;
            for (std::size_t before : op.after) start = std::max(start, ops_[before].end);
            double* engine = op.engine == Engine::none ? nullptr : &free_[{op.device, op.engine}];
            if (engine) start = std::max(start, *engine);
            op.start = start;
            op.end = start + op.us;
            if (engine) *engine = op.end;
            latest_end_ = std::max(latest_end_, op.end);
            if (!op.predicted) unpredicted_ = std::min(unpredicted_, resolved_);
        }
    }

    std::mutex m_;
    std::condition_variable ended_;
    std::vector<Op> ops_;
    std::size_t resolved_ = 0;  ///< ops_[0, resolved_) have their start and end
    std::size_t unpredicted_ = std::numeric_limits<std::size_t>::max();  ///< the first such launch
    double host_ = 0;
    double latest_end_ = 0;  ///< the latest end of a resolved operation
    std::unordered_map<unsigned, std::size_t> last_;                 ///< by stream
    std::unordered_map<unsigned, std::vector<std::size_t>> waits_;   ///< by stream, not yet taken
    std::unordered_map<std::uint32_t, std::size_t> launches_;        ///< by serial, not yet ended
    std::unordered_set<std::uint32_t> predicted_;  ///< launches the model has a time for
    std::map<std::pair<int, Engine>, double> free_;                  ///< when each engine is free
    const char* why_ = "";
    const std::chrono::steady_clock::time_point began_ = std::chrono::steady_clock::now();
};


Clock& clock() {
    static Clock* c = new Clock;  // stream threads may end launches after statics are gone
    return *c;
}

}  // namespace

void want_gpu_clock() { wanted.store(true, std::memory_order_relaxed); }
bool gpu_clock_on() { return wanted.load(std::memory_order_relaxed); }

void clock_launch(const StreamImpl& s, std::uint32_t serial, const char* file, unsigned line,
                  std::uint32_t graph_launch) {
    if (gpu_clock_on())
        clock().launch(s, serial,
                       "kernel launched at " + std::string(file ? file : "?") + ":" +
                           std::to_string(line),
                       graph_launch);
}
void clock_launch_started(std::uint32_t serial) {
    if (gpu_clock_on()) clock().launch_started(serial);
}
void clock_launch_predicted(std::uint32_t serial, double us, std::string kernel) {
    if (gpu_clock_on()) clock().predicted(serial, us, std::move(kernel));
}
void clock_launch_ended(std::uint32_t serial) {
    if (gpu_clock_on()) clock().launch_ended(serial);
}

ClockOp clock_copy(const StreamImpl& s, Engine e, std::size_t bytes, bool host_memory_pinned,
                   bool memset, double sim_start) {
    if (!gpu_clock_on()) return 0;
    const char* what = memset                            ? "cudaMemset"
                       : e == Engine::multiprocessors    ? "cudaMemcpy device to device"
                       : e == Engine::to_device          ? "cudaMemcpy host to device"
                                                         : "cudaMemcpy device to host";
    char name[160];
    std::snprintf(name, sizeof name, "%s, %zu bytes%s", what, bytes,
                  e == Engine::multiprocessors ? "" : host_memory_pinned ? ", pinned" : ", pageable");
    const GpuModel& gpu = gpu_model();
    const GpuModel::Speeds& speeds = gpu.speeds;
    double bytes_per_us;
    if (e == Engine::multiprocessors) {
        // On the device: a copy reads and writes each byte, a memset writes it.
        bytes_per_us = speeds.dram_gb_per_s * 1e3 * dram_efficiency / (memset ? 1 : 2);
    } else {
        bytes_per_us = speeds.host_link_gb_per_s * 1e3 * (host_memory_pinned ? 1 : pageable_share);
        // One copy engine takes both directions in turn.
        if (gpu.copy_engines < 2) e = Engine::to_device;
    }
    const ClockOp op = clock().add(s, e, speeds.launch_us + double(bytes) / bytes_per_us, true);
    clock().named(op, name, sim_start);
    return op;
}

double clock_now_us() { return gpu_clock_on() ? clock().now_us() : -1; }

void trace_gpu_clock_to(std::string path) {
    trace_path() = std::move(path);
    want_gpu_clock();
}

nlohmann::ordered_json gpu_clock_page() {
    const GpuModel& gpu = gpu_model();
    return clock().page(std::string(gpu.key) + ", predicted (" + gpu.name + ")");
}

void write_gpu_clock_trace() {
    const std::string& path = trace_path();
    if (path.empty() || !gpu_clock_on()) return;
    const GpuModel& gpu = gpu_model();
    const std::string label = std::string(gpu.key) + ", predicted (" + gpu.name + ")";
    std::ofstream out(path, std::ios::trunc);
    if (out) out << clock().trace(label).dump() << "\n";
    if (!out)
        std::fprintf(stderr, "simt: SIMT_TIMELINE: cannot write %s\n", path.c_str());
}

ClockOp clock_record(const StreamImpl& s) {
    return gpu_clock_on() ? clock().add(s, Engine::none, 0, true) : 0;
}
void clock_stream_waits(const StreamImpl& s, ClockOp record) {
    if (gpu_clock_on()) clock().stream_waits(s, record);
}

void clock_host_waits(ClockOp op) {
    if (gpu_clock_on()) clock().host_waits(op);
}
void clock_host_waits_stream(const StreamImpl& s) {
    if (gpu_clock_on()) clock().host_waits_stream(s);
}
void clock_host_waits_all() {
    if (gpu_clock_on()) clock().host_waits_all();
}

std::optional<double> clock_elapsed_ms(ClockOp from, ClockOp to) {
    if (!gpu_clock_on()) return std::nullopt;
    return clock().elapsed_ms(from, to);
}

const char* clock_unknown_why() { return gpu_clock_on() ? clock().why() : "the clock is off"; }

}  // namespace simt::sim::detail
