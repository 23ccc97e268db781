// What reports are made of: coordinates, source places, an array's name, description and
// indices, and the pipeline's end (publish). Implemented in report.cpp.
#pragma once
#include <atomic>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "draft.hpp"

namespace simt::sim::detail {

/// "(x,y,z)" for reports.
std::string coord(uint3 c);
/// "file.cu:12" (file name without its folders).
std::string where(const Loc& loc);
/// "file.cu:12" of a file and line kept apart from a Loc ("?:0" for none).
std::string file_line(const char* file, unsigned line);
/// "(0,0,0)..(15,0,0), (32,0,0)": `ranks` (sorted) in a block or grid of `shape`, x fastest, as
/// runs of consecutive ranks; after six runs, ", ...".
std::string rank_runs(const std::vector<std::uint64_t>& ranks, dim3 shape);
/// "16 threads wait at __syncthreads() at f.cu:9: (0,0,0)..(15,0,0)" (threads of a block of
/// `shape`), as a deadlock report and the watchdog say it.
std::string waiting_text(const DeadlockDraft::Waiting& w, dim3 shape);
/// A deadlock's lines, as its finding and its KernelError say them: the first names the block or
/// the grid and the launch.
std::vector<std::string> deadlock_lines(const DeadlockDraft& d);
/// The KernelError a deadlock ends its launch with: its lines, then the usual fix.
std::string deadlock_message(const DeadlockDraft& d);
/// The error a stopped thread ends its launch with.
std::string fault_text(const FaultDraft& f);
/// What a refused API call prints.
std::string api_error_text(const ApiErrorDraft& e);
/// What a refused launch prints, ending with the error cudaGetLastError() then returns.
std::string launch_refusal_text(const LaunchRefusal& r);
/// A warp intrinsic's misuse, as its finding and its KernelError say it.
std::string warp_misuse_text(const WarpMisuseDraft& d);
/// What a refused memory call prints: "cudaMemcpy at f.cu:9: 1008 bytes from byte 0 of the
/// destination run 8 bytes past the end of its allocation of 1000 bytes made at f.cu:3".
std::string memory_refusal_text(const MemoryRefusal& r);
/// The error of memory the simulator cannot give: "simt: out of device memory at f.cu:3: ...".
std::string out_of_memory_text(const OutOfMemory& o);
/// The one line at exit for memory never freed.
std::string leak_note_text(const LeakNote& n);
/// The watchdog's progress line: "simt: the kernel launched at f.cu:9: 40 of 1000 blocks done,
/// 12.5 blocks/s, about 77 s left".
std::string watchdog_progress(const WatchdogDraft& w);
/// What waiting for a long checked launch costs, said once within its first seconds: "simt: the
/// kernel launched at f.cu:9 (4096 blocks) takes about 3 min here checked at its rate so far,
/// about 25 s with SIMT_CHECK=none (64 of its blocks measured: ...), 493 µs on A100 (predicted
/// from ...)".
std::string watchdog_estimate(const WatchdogEstimate& e);
/// The first line of a launch the watchdog stopped (Ctrl-C, or no progress).
std::string watchdog_header(const WatchdogDraft& w);
/// What the watchdog prints when no thread noticed the stop: the header, where the threads were
/// sampled, and what that means.
std::string watchdog_gave_up(const WatchdogDraft& w);
/// A stopped thread's lines in the watchdog's report: where it was, what its block's other
/// threads do, and the advice.
std::string stopped_thread_text(const StoppedThread& t);
/// The file's name without its folders ("?" for none).
const char* base_name(const char* file);
/// Whether two names of source files name one file: a raw access's name comes from the debug
/// info, joined with the compile directory ("/home/me/a.cu"), a barrier's from
/// std::source_location, as the compiler was given it ("a.cu").
bool same_source(const char* a, const char* b);
/// Lines `first` to `last` (1-based) of `file`, as far as it has them; none when it cannot be
/// read. Every reader of the program's source (array names, the profiler's red/atom rule) uses
/// this one.
std::vector<std::string> source_lines(const char* file, unsigned first, unsigned last);
/// Whether every CUDA atomic function called on line `line` of `file` drops its result and is one
/// PTX's `red` can do (a statement of its own: `atomicAdd(p, v);`), as nvcc sees the call: the
/// profiler counts it `_op_red`, and a thread repeating it is not waiting on what it reads.
bool atomic_result_unused(const char* file, unsigned line);
/// Throws the error of a kernel-only call made on the host: "simt: __syncthreads() called on the
/// host at f.cu:9; `only`".
[[noreturn, gnu::cold, gnu::noinline]] void called_on_host(const char* what, Loc loc,
                                                           const char* only);
/// The report pipeline's end (report/finding.hpp): a launch's findings from blocks up to
/// `failed` (the first failed block's index), in block order, each new key printed once and
/// remembered for findings().
void publish(std::vector<PendingFinding>& fs, std::uint64_t failed = ~std::uint64_t(0));
/// A kernel error that a GPU reports with a CUDA error of its own (an illegal address, a failed
/// assert); every other kernel error is cudaErrorLaunchFailure.
struct KernelFault : simt::KernelError {
    KernelFault(const std::string& message, cudaError_t c, std::optional<FindingKey> f = {})
        : simt::KernelError(message), code(c), finding(std::move(f)) {}
    cudaError_t code;
    /// The finding that says what this error says (a deadlock's), when a checker made one: once
    /// that is printed, the error is printed as its first line only.
    std::optional<FindingKey> finding;
};
/// The CUDA error a kernel error stands for: a KernelFault's code, else cudaErrorLaunchFailure.
cudaError_t kernel_error_code(const std::exception& e);
/// A kernel error's text, or only its first line and "(reported above)" when the finding it
/// repeats (a deadlock's: KernelFault::finding) was printed.
std::string not_reported_yet(const std::exception& e);
/// What a run checked, for its last line: the shadow checkers that were on, and whether any file
/// of the program was built with its accesses checked (an UNCHECKED build checks nothing).
struct CheckedKinds {
    bool race = false, init = false, sync = false;
    bool unchecked_build = false;
};
/// Kernel launches that ended (launch/grid.cpp counts them): a run with none says nothing at exit.
inline std::atomic<std::uint64_t> launches_ended{0};
/// The run's last line, at exit: the count of findings by kind, or, after any kernel launch,
/// that there was none and what was checked (or that nothing was, in an UNCHECKED build).
void print_summary(const CheckedKinds& checked);
/// "simt: no findings (race, bounds, init, sync checked)", or what an UNCHECKED build says.
std::string no_findings_text(const CheckedKinds& checked);
/// The name the user gave an allocation, read from its allocation or declaration line.
std::string array_name(const Allocation* a);
/// A report's array description: "'name'" and "(int, 8 elements, allocated at f.cu:3)".
std::string describe(const Allocation* a);
std::string origin(const Allocation* a);
/// Element `flat` of an array as a report names it: "5", or "(0, 5)" in an `int[4][8]` array.
std::string element_index(const Allocation* a, std::size_t flat);
/// An array's extent as a report names it: "32", or "(4, 8)".
std::string array_extent(const Allocation* a);
const char* space_name(Space s);


}  // namespace simt::sim::detail
