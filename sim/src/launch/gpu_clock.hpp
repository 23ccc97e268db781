// The named GPU's clock: when each launch, copy and event record of the program would start and
// end on the GPU SIMT_DEVICE names, so that simt::gpu_elapsed_ms can answer with that GPU's time
// between two events rather than the simulator's own.
//
// The rule (docs/profiling.md, "The GPU's clock"): every operation is placed in the order the
// host issued it. It starts when all of these have happened:
//   - the host issued it: the host's own clock, which moves only when the host waits for the
//     GPU (a synchronize, a blocking copy, an event it waits for) to the end of what it waited
//     for; the host's own work takes no time on this clock;
//   - the operation before it in its stream, and every event its stream was made to wait for
//     (cudaStreamWaitEvent, and the legacy default stream's waits, which stream.cpp makes of
//     events too);
//   - its engine is free: kernels, device-to-device copies and memsets run on the multiprocessors
//     one at a time; host-to-device and device-to-host copies each have a copy engine of their
//     own. Each engine takes its work in the order issued.
// A launch lasts what the time model predicts from its counts (device/timing.hpp), a copy its
// bytes at the link's speed (model.hpp's Speeds) plus a fixed cost, an event record nothing.
//
// Counting every access costs time, so the clock runs only in a program that reads it (the
// public header's GpuClockWanted turns it on before main); elsewhere every hook returns at once.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace simt::sim::detail {

class StreamImpl;

/// An operation's place on the clock; 0 for none (the clock was off when it was issued).
using ClockOp = std::uint64_t;

/// What serves an operation. Each engine of each device runs one operation at a time.
enum class Engine : std::uint8_t { none, multiprocessors, to_device, to_host };

void want_gpu_clock();
bool gpu_clock_on();

/// A launch with KernelLaunch::serial `serial`, queued on `s` at file:line (a kernel node of graph
/// launch `graph_launch`, where that is not 0); its time comes from
/// clock_launch_predicted (with the kernel's name), and it ends at clock_launch_ended. Started:
/// the simulator began to run it (its own time, for the trace).
void clock_launch(const StreamImpl& s, std::uint32_t serial, const char* file, unsigned line,
                  std::uint32_t graph_launch = 0);
void clock_launch_started(std::uint32_t serial);
void clock_launch_predicted(std::uint32_t serial, double us, std::string kernel);
/// The launch has run, or was dropped: without a prediction, times that span it are unknown.
void clock_launch_ended(std::uint32_t serial);

/// A copy or memset of `bytes` on `s`; `host_memory_pinned` for a copy between the device and
/// pinned host memory (a pageable one is staged by the driver, at a lower rate). The simulator
/// did it from `sim_start` (clock_now_us) to now.
ClockOp clock_copy(const StreamImpl& s, Engine e, std::size_t bytes, bool host_memory_pinned,
                   bool memset, double sim_start);
/// This machine's time on the clock's scale, for clock_copy's `sim_start`; -1 while it is off.
double clock_now_us();

/// An event record on `s`: it ends when everything before it in the stream has.
ClockOp clock_record(const StreamImpl& s);
/// Work queued on `s` after this waits for `record` (cudaStreamWaitEvent).
void clock_stream_waits(const StreamImpl& s, ClockOp record);

/// The host waited for `op`, for everything queued on `s`, or for everything: its clock moves
/// to their end.
void clock_host_waits(ClockOp op);
void clock_host_waits_stream(const StreamImpl& s);
void clock_host_waits_all();

/// Milliseconds from `from`'s end to `to`'s on the clock, once every operation issued before
/// `to` has ended; nothing where the clock was off, or a launch before `to` was not predicted.
std::optional<double> clock_elapsed_ms(ClockOp from, ClockOp to);

/// Why clock_elapsed_ms has no answer, in a few words; empty while it has one.
const char* clock_unknown_why();

/// SIMT_TIMELINE=trace:PATH: the clock runs, and at the program's end write_gpu_clock_trace
/// writes what it placed to PATH in the Trace Event format (chrome://tracing and Perfetto open
/// it): the GPU's clock as one process and the simulator's own time as another, a row per stream.
void trace_gpu_clock_to(std::string path);
/// What the clock placed, as the report page's timeline (report/page.hpp).
nlohmann::ordered_json gpu_clock_page();
void write_gpu_clock_trace();

}  // namespace simt::sim::detail
