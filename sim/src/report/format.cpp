// The pipeline's last stages (TSan's PrintReport): a draft whose allocation has its name becomes
// the text a learner reads ({fmt}) and one JSON line (nlohmann::json). They format and output;
// what was found is decided by the checkers (check/), what is reported by report.cpp.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <cstring>

#include "finding.hpp"
#include "symbolize.hpp"
#include "timing_text.hpp"

namespace simt::sim::detail {

namespace {

const char* hazard_name(Hazard h) {
    switch (h) {
        case Hazard::raw: return "read after write";
        case Hazard::war: return "write after read";
        case Hazard::waw: return "write after write";
        case Hazard::none: break;
    }
    return "";
}

const char* hazard_code(Hazard h) {
    switch (h) {
        case Hazard::raw: return "RAW";
        case Hazard::war: return "WAR";
        case Hazard::waw: return "WAW";
        case Hazard::none: break;
    }
    return "";
}

/// Memory whose element type is not known (dynamic shared memory, an allocation of bytes):
/// a report counts it in the access's own size, as the program's type would.
bool counted_by_access(const Draft& d) { return d.array && untyped(d.array) && d.access_size > 1; }

/// The element a draft names, in the units its report counts in.
long long element(const Draft& d) {
    if (!counted_by_access(d)) return d.element;
    auto size = static_cast<long long>(d.access_size);
    return d.element >= 0 ? d.element / size : -((-d.element + size - 1) / size);
}

/// A view's index or extents: "3", or "(3, 9)" for a view of several dimensions.
template <class T>
std::string view_tuple(const std::vector<T>& v) {
    if (v.size() == 1) return fmt::format("{}", v[0]);
    return v.empty() ? std::string() : fmt::format("({})", fmt::join(v, ", "));
}

/// "index 9 is outside extent 8 of dimension 1": the first index that left its extent.
std::string view_index_outside(const Draft& d) {
    for (std::size_t i = 0; i < d.view_index.size(); ++i)
        if (static_cast<std::size_t>(d.view_index[i]) >= d.view_extent[i])
            return fmt::format("index {} is outside extent {}{}", d.view_index[i], d.view_extent[i],
                               d.view_index.size() > 1 ? fmt::format(" of dimension {}", i) : "");
    return "";
}

/// "3", or "(3, 9)" in a 2-D shared array or a view.
std::string index_text(const Draft& d) {
    if (!d.view_index.empty()) return view_tuple(d.view_index);
    if (counted_by_access(d)) return std::to_string(element(d));
    return element_index(d.array, static_cast<std::size_t>(d.element));
}

/// "shared memory 'tile'[3]", and the byte offset where the index is counted by the access.
std::string memory(const Draft& d) {
    std::string s = fmt::format("{} memory {}[{}]", space_name(d.array->space), describe(d.array),
                                index_text(d));
    if (counted_by_access(d)) s += fmt::format(", byte offset {}", d.element);
    return s;
}

/// The array's elements as the report counts them.
std::size_t elements(const Draft& d) {
    return d.array->size / (counted_by_access(d) ? d.access_size : d.array->elem_size);
}

bool known(const Loc& l) { return l.file_name() && *l.file_name(); }

/// The library call whose kernel made an access in simt's own headers (cuBLAS's axpy loop, say),
/// or null: a line of simt's headers tells the reader nothing, the program's call does.
const Loc* library_call(const DraftSite& s) {
    if (!simt_header(s.loc.file_name())) return nullptr;
    if (known(s.call)) return &s.call;
    return known(s.launch) && is_library_call(s.launch) ? &s.launch : nullptr;
}

/// "  read by thread (1,0,0) block (0,0,0) at a.cu:5" (or "  by thread ..." without the access);
/// "... in cublasSaxpy called at a.cu:12" for a library's kernel.
std::string by_line(const DraftSite& s, bool with_access) {
    if (s.host) return fmt::format("  {}{}by the host at {}\n", with_access ? s.access : "",
                                   with_access ? " " : "", where(s.loc));
    std::string at = fmt::format("at {}", where(s.loc)), note;
    if (const Loc* call = library_call(s))
        at = fmt::format("in {} called at {}", call->function_name(), where(*call));
    else if (known(s.launch))
        note = fmt::format(" (in the kernel launched at {})", where(s.launch));
    return fmt::format("  {}{}by thread {} block {} {}{}\n", with_access ? s.access : "",
                       with_access ? " " : "", coord(s.thread), coord(s.block), at, note);
}

const char* hint_text(const Draft& d) {
    switch (d.hint) {
        case Hint::atomic_orders_nothing:
            return "read the result after a __syncthreads() (or in a later kernel), or make every "
                   "access atomic; an atomic orders nothing by itself";
        case Hint::read_modify_write:
            return "a line racing with itself: where every thread updates the same element "
                   "(counter[0] += 1), use atomicAdd (or another atomic); where each reads an "
                   "element another thread writes (s[t] += s[t - d]), read it into a register, "
                   "__syncthreads(), then write";
        case Hint::read_ahead:
            return "a line racing with itself, the read first: one thread read this element here "
                   "before the thread that writes it here had, so the threads are at different "
                   "steps of the same code. Each step must wait for the others: in a loop (s[t] "
                   "+= s[t + stride]), end the loop body with a __syncthreads(), outside any if so "
                   "that every thread reaches it; outside a loop, read into a register, "
                   "__syncthreads(), then write";
        case Hint::syncthreads: return "separate them with __syncthreads()";
        case Hint::syncthreads_or_syncwarp:
            return "separate them with __syncthreads(), or with __syncwarp() when only lanes of "
                   "one warp share the data";
        case Hint::next_iteration: return "";  // format_text names the barrier
        case Hint::host_before_wait: return "";  // format_text says it whole
        case Hint::acquire_without_fence:          // sync_text names the atomic
        case Hint::acquire_through_barrier:
        case Hint::acquire_block_fence:
        case Hint::release_without_fence:
        case Hint::write_after_release:
        case Hint::access_between_fence_and_atomic:
        case Hint::release_block_scope: return "";
        case Hint::volatile_orders_nothing:
            return "volatile orders nothing and protects nothing (it only stops the compiler "
                   "from keeping the value in a register): guard the data with a lock, or pass "
                   "it with a flag, a __threadfence() before the flag's atomic write and one "
                   "after its atomic read, or with cuda::atomic_ref's memory_order_release and "
                   "_acquire";
        case Hint::block_scope_atomic:
            return "an atomic of block scope (atomicAdd_block and its kin) is atomic only among "
                   "the threads of its own block, and these two accesses are in different blocks: "
                   "use the plain atomic (device scope), or the _system one when the host takes "
                   "part";
        case Hint::other_block:
            return "blocks of one launch are never ordered: use atomics, or do the first part in "
                   "its own kernel launch";
        case Hint::other_block_grid_sync:
            return "blocks of a cooperative launch are ordered only by grid.sync(): put one "
                   "between these accesses, or use atomics";
        case Hint::other_stream:
            return "these launches are on streams that nothing orders: synchronize, or make one "
                   "stream wait for an event recorded on the other";
        case Hint::other_graph_node:
            return "these kernels are nodes of one graph that no path of edges orders: add an "
                   "edge between them (cudaGraphAddDependencies, or the dependencies given to "
                   "cudaGraphAddKernelNode), or capture them in order on one stream";
        case Hint::shared_uninitialized:
            return "no thread of this block wrote it: shared memory starts uninitialized in every "
                   "block, so write it (and __syncthreads()) before reading it";
        case Hint::global_uninitialized:
            return "nothing wrote it: device_array memory starts uninitialized; fill it with "
                   "to_device/copy_from_host or write it in an earlier kernel";
        case Hint::cuda_uninitialized:
            return "nothing wrote it: cudaMalloc memory starts uninitialized; fill it with "
                   "cudaMemcpy or cudaMemset, or write it in an earlier kernel";
        case Hint::none: break;
    }
    return "";
}

/// The fix for a race between threads that synchronise through atomics and fences, naming the
/// atomic (Draft::sync_site); empty for any other hint.
std::string sync_text(const Draft& d) {
    const std::string at = where(d.sync_site);
    switch (d.hint) {
        case Hint::acquire_without_fence:
            return fmt::format(
                "the atomic at {} read what the other thread released, but no __threadfence() "
                "follows it before this access, so the acquire is not complete{}: put a "
                "__threadfence() right after that atomic (at {}), before the accesses it guards",
                at,
                d.kind == FindingKind::memory_model
                    ? ": today's GPUs show this read the other thread's write, but CUDA's memory "
                      "model does not promise it"
                    : ", and a write after it may be performed before the atomic's read",
                at);
        case Hint::acquire_through_barrier:
            return fmt::format(
                "the atomic at {} read what another block released, and only a __syncthreads() "
                "followed it: a barrier is a fence of block scope, which completes an acquire of "
                "the block's own threads' releases, not another block's. Today's GPUs order "
                "these accesses all the same; CUDA's memory model does not promise it. Put a "
                "__threadfence() right after the atomic at {}, in the thread that made it, "
                "before the __syncthreads()",
                at, at);
        case Hint::acquire_block_fence:
            return fmt::format(
                "the atomic at {} read what another block released, and the __threadfence_block() "
                "after it has block scope: it completes an acquire of the block's own threads' "
                "releases, not another block's. Today's GPUs order these accesses all the same; "
                "CUDA's memory model does not promise it. Use __threadfence() after the atomic "
                "at {}",
                at, at);
        case Hint::release_without_fence:
            return fmt::format(
                "the other thread made this access, then the atomic at {}, with no "
                "__threadfence() between them, and an atomic orders nothing by itself: a thread "
                "that sees the atomic's value may still see the old data. Put a __threadfence() "
                "between the access and the atomic (and one after the atomic that reads it), or "
                "make them a release and an acquire (memory_order_release and _acquire with "
                "cuda::atomic_ref)",
                at);
        case Hint::write_after_release:
            if (known(d.fence_site))
                return fmt::format(
                    "the other thread made this access after its release (the __threadfence() at "
                    "{} and the atomic at {}), and a release covers only what comes before its "
                    "fence: make this access before the __threadfence() at {}",
                    where(d.fence_site), at, where(d.fence_site));
            return fmt::format(
                "the other thread made this access after its release (the atomic at {}, made with "
                "release order), and a release covers only what comes before it: make this access "
                "before the atomic at {}",
                at, at);
        case Hint::access_between_fence_and_atomic:
            return fmt::format(
                "the other thread made this access after its __threadfence() at {} and before the "
                "atomic at {}, and a release covers only what comes before its fence, so nothing "
                "orders this access for the thread that sees the atomic: put a __threadfence() "
                "between the access and the atomic at {}",
                where(d.fence_site), at, at);
        case Hint::release_block_scope:
            return fmt::format(
                "the release at {} has block scope (__threadfence_block(), or an atomic's _block "
                "form): it orders the other thread's accesses for threads of its own block only, "
                "and this thread is in another block; use __threadfence() and the plain atomic",
                at);
        default: return {};
    }
}

/// ", and 23 more threads at this line (47 more accesses in all)": what the report stands for
/// beyond the access it names, for the end of its first line; empty when it stands for that one.
std::string folded_clause(const Draft& d) {
    if (d.threads <= 1 && d.accesses <= 1) return {};
    const char* where = d.sites.size() > 1 ? "these lines" : "this line";
    const std::uint64_t threads = d.threads > 0 ? d.threads - 1 : 0;
    const std::uint64_t accesses = d.accesses > 0 ? d.accesses - 1 : 0;
    if (threads == 0)
        return fmt::format(", and {} more access{} by the same thread at {}", accesses,
                           accesses == 1 ? "" : "es", where);
    return fmt::format(", and {} more thread{} at {} ({} more access{} in all)", threads,
                       threads == 1 ? "" : "s", where, accesses, accesses == 1 ? "" : "es");
}

std::string misaligned(const Draft& d, const std::string& what) {
    // Where the access starts: in the array's elements and bytes, and in units of the access's
    // own size, which its address must be a multiple of.
    std::string at = fmt::format("address {}", reinterpret_cast<std::uintptr_t>(d.address));
    std::string units;
    if (d.array) {
        auto off =
            static_cast<std::size_t>(static_cast<const std::byte*>(d.address) - d.array->base);
        std::size_t into = off - static_cast<std::size_t>(d.element) * d.array->elem_size;
        at = memory(d) + (into ? fmt::format(" + {} byte{}", into, into > 1 ? "s" : "") : "") +
             fmt::format(" ({})", origin(d.array));
        units =
            fmt::format("byte offset {}, {:g} in {}-byte units, is not a multiple of {}: ", off,
                        static_cast<double>(off) / static_cast<double>(d.count), d.count, d.count);
    }
    return fmt::format(
        "simt: misaligned address: {}-byte {} of {}\n{}  {}{}An access of n bytes needs an address "
        "that is a multiple of n: do not cast a pointer into the middle of an element to a wider "
        "type; copy the bytes with memcpy, or keep the offset a multiple of the type's size",
        d.count, what, at, by_line(d.sites.front(), true), units,
        d.raw ? "a GPU stops the kernel here with cudaErrorMisalignedAddress, and simt stops "
                "the thread. "
              : "not performed. ");
}

std::string out_of_bounds(const Draft& d, const std::string& what, const std::string& sites) {
    if (!d.view_extent.empty())  // left a view's extents
        return fmt::format(
            "simt: out-of-bounds access of {}[{}]: {} (view extents {}{})\n{}  not performed (a "
            "read gives a poisoned value); guard the index with the view's extent",
            d.array ? fmt::format("{} memory {}", space_name(d.array->space), describe(d.array))
                    : std::string("a view"),
            view_tuple(d.view_index), view_index_outside(d), view_tuple(d.view_extent),
            d.array ? "; " + origin(d.array) : std::string(), by_line(d.sites.front(), false));
    if (const Allocation* a = d.array; a && a->pitch && d.element >= 0 &&
                                        static_cast<std::size_t>(d.element) * a->elem_size < a->size) {
        const std::size_t off = static_cast<std::size_t>(d.element) * a->elem_size;
        return fmt::format(
            "simt: out-of-bounds {} of {} ({})\n{}  {} the padding of row {}: byte {} of a row "
            "that holds {} bytes, the next row starting {} bytes on (the pitch). Guard the column "
            "with the width in bytes, and step from row to row by the pitch",
            what, memory(d), origin(a), sites, d.raw ? "done in" : "not performed, in",
            off / a->pitch, off % a->pitch, a->row_bytes, a->pitch);
    }
    std::size_t n = elements(d);
    return fmt::format(
        "simt: out-of-bounds {} of {} ({})\n{}  {}{}", what, memory(d), origin(d.array), sites,
        d.raw ? "done in the red zone around the array (a read gives a poisoned value); "
              : "not performed (a read gives a poisoned value); ",
        n == 0 ? std::string("the array has no elements: allocate it with a size, or skip the "
                             "kernel when there is nothing to do")
               : fmt::format("valid indices are 0..{}: guard the access with the array's size or "
                             "fix the index",
                             n - 1));
}

}  // namespace

namespace {

/// format_text's report, before what it folds in is added to its first line.
std::string report_text(const Draft& d) {
    const DraftSite& first = d.sites.front();
    const std::string what = first.access;
    std::string sites;
    for (const DraftSite& s : d.sites) sites += by_line(s, true);
    switch (d.kind) {
        case FindingKind::data_race:
            if (d.hint == Hint::host_before_wait)
                return fmt::format(
                    "simt: data race (host {} of managed memory a kernel may still use) on {} "
                    "({})\n{}  the kernel launched at {} was given it, and nothing has waited for "
                    "that kernel since\n  nothing orders these accesses: on a GPU the host's {} "
                    "may come before or during the kernel's (or, on a GPU without concurrent "
                    "managed access, fault); wait for the kernel first with "
                    "cudaDeviceSynchronize(), or cudaStreamSynchronize() on its stream",
                    first.access, memory(d), origin(d.array), by_line(first, true),
                    where(d.sites.back().loc), first.access);
            if (d.hint == Hint::next_iteration)
                return fmt::format(
                    "simt: data race ({}) on {} ({})\n{}  the two accesses are in different "
                    "iterations of a loop: the __syncthreads() at {} orders the lines within one "
                    "iteration, but nothing orders this iteration's later line before the next "
                    "iteration's earlier one; add a __syncthreads() at the end of the loop body",
                    hazard_name(d.hazard), memory(d), origin(d.array), sites, where(d.barrier));
            if (std::string sync = sync_text(d); !sync.empty())
                return fmt::format("simt: data race ({}) on {} ({})\n{}  {}",
                                   hazard_name(d.hazard), memory(d), origin(d.array), sites, sync);
            return fmt::format(
                "simt: data race ({}) on {} ({})\n{}  nothing orders these accesses: {}",
                hazard_name(d.hazard), memory(d), origin(d.array), sites, hint_text(d));
        case FindingKind::memory_model:
            return fmt::format("simt: memory-model ({}, an acquire without its fence) on {} ({})\n{}  {}",
                               hazard_name(d.hazard), memory(d), origin(d.array), sites,
                               sync_text(d));
        case FindingKind::uninitialized_read:
            return fmt::format("simt: uninitialized {} of {} ({})\n{}  {}", what, memory(d),
                               origin(d.array), sites, hint_text(d));
        case FindingKind::null_pointer:
            return fmt::format(
                "simt: {} through a null simt::ptr\n{}  not performed; the kernel was "
                "given no array for this parameter",
                what, sites);
        case FindingKind::host_access:
            if (d.array->symbol)  // nvcc's host code would touch its own copy, silently
                return fmt::format(
                    "simt: host {} of the device variable {} ({})\n{}  the host cannot read or "
                    "write a __device__ or __constant__ variable directly (with nvcc it would "
                    "touch a host copy that kernels never see): use cudaMemcpyToSymbol and "
                    "cudaMemcpyFromSymbol, or declare it __managed__; the program stops here",
                    what, describe(d.array), origin(d.array), by_line(first, true));
            return fmt::format(
                "simt: host {} of {} ({})\n{}  only kernels can touch device "
                "memory, and on a GPU this access would crash the program, so it stops here: {}",
                what, memory(d), origin(d.array), by_line(first, true),
                d.array->cuda ? "copy it to the host with cudaMemcpy, or allocate it with "
                                "cudaMallocManaged"
                              : "copy it with copy_to_host()");
        case FindingKind::use_after_free:
            return fmt::format(
                "simt: use after free: {} of {} ({}, already freed)\n{}  {}", what, memory(d),
                origin(d.array), sites,
                d.raw ? "keep the memory allocated until the kernels using it have finished "
                        "(cudaFree after cudaDeviceSynchronize)"
                      : "not performed; keep the DeviceArray alive until the kernels using it have "
                        "finished");
        case FindingKind::out_of_bounds: return out_of_bounds(d, what, sites);
        case FindingKind::constant_write:
            return fmt::format(
                "simt: {} of {} ({})\n{}  done, but kernels may only read __constant__ memory "
                "(nvcc warns \"Cannot store to pointer that points to constant memory space\" and "
                "on a GPU the result is undefined): set it from the host with cudaMemcpyToSymbol, "
                "or declare it __device__ if kernels must change it",
                what, memory(d), origin(d.array), sites);
        case FindingKind::misaligned_atomic:
        case FindingKind::misaligned_address: return misaligned(d, what);
        case FindingKind::leak:
            return fmt::format(
                "simt: leak: device memory {} ({}) was never freed\n  {}", describe(d.array),
                origin(d.array),
                d.array->cuda ? "free it with cudaFree once the kernels using it are done"
                              : "a DeviceArray frees its memory when it is destroyed; one made "
                                "with new and never deleted, or alive when std::exit is called, "
                                "leaks");
        case FindingKind::barrier_exit:
            return fmt::format(
                "simt: {} thread{} of block {} finished without reaching the __syncthreads() at {} "
                "that the other threads waited at\n  finished: {}\n  a barrier must be reached by "
                "every thread of the block: it must not sit in code that only some threads run "
                "(if (threadIdx.x < 16) __syncthreads()), and no thread may return before it; "
                "guard the work (if (i < n) {{ ... }}) instead",
                d.count, d.count > 1 ? "s" : "", coord(first.block), where(first.loc),
                rank_runs(d.ranks, d.shape));
        case FindingKind::barrier_divergence:
            return fmt::format("{}\n  threads of one block wait at different barriers: a barrier "
                               "must not sit in code that only part of the block runs",
                               fmt::join(deadlock_lines(d.deadlock), "\n"));
        case FindingKind::deadlock:
            return fmt::format("{}\n  the launch ends with a KernelError",
                               fmt::join(deadlock_lines(d.deadlock), "\n"));
        case FindingKind::warp_mask:
        case FindingKind::warp_divergence: return warp_misuse_text(d.misuse);
    }
    return "";
}

}  // namespace

std::string format_text(const Draft& d) {
    std::string text = report_text(d);
    text.insert(std::min(text.find('\n'), text.size()), folded_clause(d));
    return text;
}

std::string rank_runs(const std::vector<std::uint64_t>& ranks, dim3 shape) {
    auto at = [&](std::uint64_t r) {
        return coord({static_cast<unsigned>(r % shape.x),
                      static_cast<unsigned>(r / shape.x % shape.y),
                      static_cast<unsigned>(r / (std::uint64_t(shape.x) * shape.y))});
    };
    std::string s;
    int shown = 0;
    for (std::size_t i = 0; i < ranks.size();) {
        std::size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
        if (shown++ == 6) return s + ", ...";
        if (!s.empty()) s += ", ";
        s += at(ranks[i]);
        if (j > i) s += ".." + at(ranks[j]);
        i = j + 1;
    }
    return s;
}

std::string waiting_text(const DeadlockDraft::Waiting& w, dim3 shape) {
    return fmt::format("{} {} at {} at {}: {}", w.ranks.size(),
                       w.ranks.size() > 1 ? "threads wait" : "thread waits", w.what,
                       where(w.site), rank_runs(w.ranks, shape));
}

std::vector<std::string> deadlock_lines(const DeadlockDraft& d) {
    std::vector<std::string> lines;
    if (!d.set) return lines;
    if (d.grid) {
        const DeadlockDraft::Waiting& w = d.waiting.front();
        lines.push_back(fmt::format("simt: deadlock in the cooperative kernel launched at {}: {} "
                                    "at {} can never complete",
                                    where(d.launch), w.what, where(w.site)));
        lines.push_back(fmt::format("  {} {} there: {}", w.ranks.size(),
                                    w.ranks.size() == 1 ? "block waits" : "blocks wait",
                                    rank_runs(w.ranks, d.shape)));
        lines.push_back(fmt::format("  {} {} ended without reaching it: {}", d.ended.size(),
                                    d.ended.size() == 1 ? "block" : "blocks",
                                    rank_runs(d.ended, d.shape)));
        return lines;
    }
    lines.push_back(fmt::format("simt: deadlock in block {} of the kernel launched at {}: no "
                                "thread of the block can continue",
                                coord(d.block), where(d.launch)));
    for (const DeadlockDraft::Waiting& w : d.waiting) {
        lines.push_back("  " + waiting_text(w, d.shape));
        if (w.spun)
            lines.push_back(fmt::format(
                "  it reads {} memory {}[{}], which keeps the value {}: no thread that can "
                "still run changes it",
                space_name(w.spun->space), describe(w.spun), element_index(w.spun, w.element),
                w.value));
    }
    for (const DeadlockDraft::Meeting& m : d.meetings)
        lines.push_back(fmt::format("  the {} meeting at {} also waits for {}", m.kind,
                                    where(m.site), rank_runs(m.ranks, d.shape)));
    if (d.exited)
        lines.push_back(fmt::format("  {} thread{} exited", d.exited, d.exited > 1 ? "s" : ""));
    return lines;
}

std::string deadlock_message(const DeadlockDraft& d) {
    if (!d.set) return "";
    const char* advice =
        d.grid ? "  every block of the grid must call grid.sync() as many times as the others "
                 "(on a GPU the waiting blocks would hang); move it out of code that only some "
                 "blocks run"
        : d.spin()
            ? "  a thread that waits for memory to change needs another thread or block that "
              "can still run to change it: here every other block has ended or waits too (on a "
              "GPU the kernel would hang). Set the flag or free the lock on every path, or wait "
              "only for a block that runs before the waiting one can (blocks of a launch are not "
              "promised to run at once unless it is cooperative)"
            : "  every live thread of a block must reach the same __syncthreads() (or "
              "block.sync(), grid.sync()), and every lane named in a warp mask (or a tile) the "
              "same warp intrinsic; move barriers out of divergent code";
    return fmt::format("{}\n{}", fmt::join(deadlock_lines(d), "\n"), advice);
}

/// "needs more than the 65536 bytes of stack ...": what a stack overflow asks for.
static std::string stack_advice(const FaultDraft& f) {
    return fmt::format("needs more than the {} bytes of stack each CUDA thread gets (large local "
                       "arrays or deep recursion).\n  Raise it, e.g. SIMT_STACK_SIZE={}K, or make "
                       "the local arrays smaller",
                       f.bytes, f.bytes / 1024 * 4);
}

std::string fault_text(const FaultDraft& f) {
    using Problem = FaultDraft::Problem;
    const std::string who =
        fmt::format("thread {} block {} at {}", coord(f.thread), coord(f.block), where(f.site));
    const char* access = f.access == Access::read    ? "read"
                         : f.access == Access::write ? "write"
                                                     : "atomic";
    switch (f.problem) {
        case Problem::trap:
            return fmt::format("simt: __trap() in {}: the kernel stopped itself "
                               "(cudaErrorLaunchFailure: unspecified launch failure)",
                               who);
        case Problem::assertion:
            return fmt::format(
                "{}:{}: {}: block: [{},{},{}], thread: [{},{},{}] Assertion `{}` failed.\nsimt: "
                "the assert at {}:{} failed in thread {} block {}: the launch fails with "
                "cudaErrorAssert (device-side assert triggered)",
                f.file, f.line, f.function, f.block.x, f.block.y, f.block.z, f.thread.x,
                f.thread.y, f.thread.z, f.assertion, base_name(f.file), f.line, coord(f.thread),
                coord(f.block));
        case Problem::exit_called:
            return fmt::format("simt: exit({}) called in {}: a GPU has no exit(), and a kernel "
                               "cannot end the program; the launch fails "
                               "(cudaErrorLaunchFailure). Return from the kernel instead, and "
                               "let the host decide from what the kernel wrote",
                               f.status, who);
        case Problem::abort_called:
            return fmt::format("simt: abort() called in {}: a kernel cannot end the program; the "
                               "launch fails as after __trap() (cudaErrorLaunchFailure)",
                               who);
        case Problem::stack_overflow:
            return fmt::format("simt: stack overflow in thread {} of block {} at {}: the kernel {}",
                               coord(f.thread), coord(f.block), where(f.site), stack_advice(f));
        case Problem::block_stack_overflow:
            return fmt::format("simt: stack overflow in a thread of block {} of the cooperative "
                               "kernel launched at {}: it {}",
                               coord(f.block), where(f.launch_site), stack_advice(f));
        case Problem::bad_address: {
            const bool null = reinterpret_cast<std::uintptr_t>(f.address) < 65536;
            return fmt::format("simt: illegal address in {}: {} {}\n  a GPU stops the kernel "
                               "here with cudaErrorIllegalAddress (an illegal memory access was "
                               "encountered)",
                               who, f.access == Access::write ? "a write to" : "a read of",
                               null ? fmt::format("a null pointer (address {})", f.address)
                                    : fmt::format("address {}, where nothing is mapped",
                                                  f.address));
        }
        case Problem::never_allocated:
            return fmt::format("simt: the thread cannot continue: {} accessed an address where "
                               "no device memory was ever allocated",
                               where(f.site));
        case Problem::misaligned:
            return fmt::format("simt: the thread cannot continue: its misaligned {}-byte access "
                               "at {} stops it, as it stops the kernel on a GPU",
                               f.bytes, where(f.site));
        case Problem::other_device:
            return fmt::format(
                "simt: illegal address in {}: a {} of {} ({} bytes at byte {}), which was "
                "allocated on device {}, by a kernel running on device {}, which has no access "
                "to device {}'s memory (cudaErrorIllegalAddress on a GPU). Call "
                "cudaDeviceEnablePeerAccess({}, 0) with device {} current (where "
                "cudaDeviceCanAccessPeer says it can), or copy the data over with cudaMemcpyPeer",
                who, access, describe(f.array), f.bytes, f.offset, f.device, f.running, f.device,
                f.device, f.running);
        case Problem::host_memory:
            return fmt::format(
                "simt: illegal address in {}: a {} of {} bytes at {}, {} bytes into the memory "
                "passed as the kernel's argument {} at {}, which is {}. A GPU cannot reach host "
                "memory unless the system shares it (HMM or ATS, on few machines), so there the "
                "kernel fails with cudaErrorIllegalAddress; copy the data to memory from "
                "cudaMalloc with cudaMemcpy, or allocate it with cudaMallocManaged",
                who, access, f.bytes, f.address, f.offset, f.argument, where(f.launch), f.what);
    }
    return "";
}

std::string api_error_text(const ApiErrorDraft& e) {
    using Problem = ApiErrorDraft::Problem;
    const std::string at = e.site.file_name() && *e.site.file_name()
                               ? fmt::format(" at {}", where(e.site))
                               : std::string();
    switch (e.problem) {
        case Problem::no_device:
            return fmt::format("{}{}{}: there is no device {}; the simulator has {} (0..{}; "
                               "SIMT_DEVICES sets how many)",
                               e.call, at,
                               e.from_device >= 0 ? fmt::format(" from device {}", e.from_device)
                                                  : std::string(),
                               e.value, e.devices, e.devices - 1);
        case Problem::not_flags:
            return fmt::format("{}{}: {} {}", e.call, at, e.value, e.accepted);
        case Problem::flags_must_be:
            return fmt::format("{}{}: the flags must be {}, not {}", e.call, at, e.accepted,
                               e.value);
        case Problem::not_its_flags:
            return fmt::format("{}{}: flags {} are not {} flags", e.call, at, e.value, e.accepted);
        case Problem::not_an_attribute:
            return fmt::format("{}{}: {} is not a cudaDeviceAttr (cudaErrorInvalidValue)", e.call,
                               at, e.value);
        case Problem::unknown_function_attribute:
            return fmt::format("{}{}: attribute {} is not one the simulator knows", e.call, at,
                               e.value);
        case Problem::shared_past_optin:
            return fmt::format("{}{}: {} bytes of dynamic shared memory; a block of the simulated "
                               "{} may have at most {} (cudaDevAttrMaxSharedMemoryPerBlockOptin)",
                               e.call, at, e.value, e.device, e.limit);
        case Problem::no_hint_device:
            return fmt::format("{}{}: device {} does not exist ({}{}; cudaErrorInvalidDevice)",
                               e.call, at, e.value,
                               e.devices == 1 ? std::string("device 0 is the only one")
                                              : fmt::format("devices 0..{}", e.devices - 1),
                               e.host_allowed ? ", and cudaCpuDeviceId means the host" : "");
        case Problem::no_numa_node:
            return fmt::format("{}{}: host NUMA node {} does not exist (node 0 does)", e.call, at,
                               e.value);
        case Problem::not_a_location_type:
            return fmt::format("{}{}: the location's type {} is not one this call takes "
                               "(cudaMemLocationTypeDevice{})",
                               e.call, at, e.value,
                               e.host_allowed ? ", cudaMemLocationTypeHost" : "");
        case Problem::not_an_advice:
            return fmt::format("{}{}: advice {} is not a cudaMemoryAdvise (cudaErrorInvalidValue)",
                               e.call, at, e.value);
    }
    return "";
}

std::string launch_refusal_text(const LaunchRefusal& r) {
    using Problem = LaunchRefusal::Problem;
    switch (r.problem) {
        case Problem::shared_past_optin:
            return fmt::format(
                "launch refused at {}: {} bytes of dynamic shared memory per block are more than "
                "a block of the simulated {} may have even after opting in ({}, "
                "cudaDevAttrMaxSharedMemoryPerBlockOptin); the kernel did not run "
                "(cudaGetLastError() returns cudaErrorInvalidValue)",
                where(r.site), r.shared_bytes, r.device, r.shared_limit);
        case Problem::shared_needs_optin:
            return fmt::format(
                "launch refused at {}: {} bytes of dynamic shared memory per block exceed the {} "
                "bytes a kernel gets without opting in; call cudaFuncSetAttribute(kernel, "
                "cudaFuncAttributeMaxDynamicSharedMemorySize, {}) before the launch (the kernel "
                "did not run; cudaGetLastError() returns cudaErrorInvalidValue)",
                where(r.site), r.shared_bytes, r.shared_limit, r.shared_bytes);
        case Problem::configuration:
            return fmt::format("{}; the kernel did not run (cudaGetLastError() returns "
                               "cudaErrorInvalidValue)",
                               r.configuration);
        case Problem::args_missing:
            return fmt::format("{} at {}: args is null, but the kernel takes parameters; pass an "
                               "array with a pointer to each argument",
                               r.call, where(r.site));
        case Problem::cooperative_too_large:
            return fmt::format(
                "{} at {}: a cooperative grid of {} blocks cannot be resident at once; this "
                "device holds {} blocks of {} threads ({} multiprocessors x {}, as "
                "cudaOccupancyMaxActiveBlocksPerMultiprocessor reports); the kernel did not run "
                "(cudaErrorCooperativeLaunchTooLarge). Size the grid from those two numbers and "
                "let each thread loop over the data",
                r.call, where(r.site), r.blocks, r.resident, r.threads, r.multiprocessors,
                r.per_multiprocessor);
        case Problem::untyped_kernel:
            return fmt::format(
                "{} at {}: the kernel was given as a void* that was never made from the kernel in "
                "a .cu file, so the simulator cannot tell its parameter types to read args with; "
                "write (void*)kernel in the .cu file that defines the kernel",
                r.call, where(r.site));
    }
    return "";
}

std::string warp_misuse_text(const WarpMisuseDraft& d) {
    using Problem = WarpMisuseDraft::Problem;
    const std::string who =
        d.tile ? fmt::format("thread {} (rank {} of tile {}) of block {}", coord(d.thread), d.lane,
                             d.warp, coord(d.block))
               : fmt::format("thread {} (lane {} of warp {}) of block {}", coord(d.thread), d.lane,
                             d.warp, coord(d.block));
    switch (d.problem) {
        case Problem::caller_left_out:
            return fmt::format("simt: {} calls {} at {} with mask {:#010x}, which leaves out the "
                               "calling lane; the mask must name every lane that calls it, the "
                               "caller included",
                               who, d.what, where(d.site), d.mask);
        case Problem::other_intrinsic:
            if (d.tile)
                return fmt::format("simt: {} calls {} at {} while other threads of its tile wait "
                                   "in {} at {}; every thread of a tile must call the same "
                                   "collective",
                                   who, d.what, where(d.site), d.other, where(d.other_site));
            return fmt::format("simt: {} calls {} at {} while other lanes of mask {:#010x} wait in "
                               "{} at {}; all lanes of a mask must call the same intrinsic",
                               who, d.what, where(d.site), d.mask, d.other, where(d.other_site));
        case Problem::reads_outside_mask:
            return fmt::format("simt: {} reads lane {} in {} at {}, but the mask {:#010x} leaves "
                               "lane {} out: CUDA leaves the value undefined (simt gives 0). Name "
                               "every lane it reads from in the mask, or "
                               "keep the offset within the lanes it names",
                               who, d.source, d.what, where(d.site), d.mask, d.source);
        case Problem::short_tile:
            return fmt::format("simt: {} calls {} at {}, in a tile of {} threads that holds only {} "
                               "(the block has {}): a GPU's tile of several warps waits for all {} "
                               "of its warps and would hang. Launch blocks of a multiple of {} "
                               "threads",
                               who, d.what, where(d.site), d.tile_size, d.tile_threads,
                               d.block_threads, d.tile_size / 32, d.tile_size);
    }
    return "";
}

namespace {

/// "3 rows", "1 slice".
std::string count(std::size_t n, const char* what) {
    return fmt::format("{} {}{}", n, what, n == 1 ? "" : "s");
}

/// Whole MiB and GiB, rounded down: what a message compares a request with.
std::string mib(std::size_t bytes) { return fmt::format("{} MiB", bytes >> 20); }
std::string gib(std::size_t bytes) { return fmt::format("{} GiB", bytes >> 30); }

/// "512 bytes", "12 KiB", "1.5 MiB": a size a learner reads at a glance.
std::string amount(std::size_t bytes) {
    static const char* const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    if (bytes < 1024) return fmt::format("{} bytes", bytes);
    double v = static_cast<double>(bytes);
    int u = 0;
    while (v >= 1024 && u < 4) v /= 1024, ++u;
    if (v < 10 && v != static_cast<int>(v)) return fmt::format("{:.1f} {}", v, units[u]);
    return fmt::format("{:.0f} {}", v, units[u]);
}

/// "45 s", "3 min", "2 h 5 min": a wait, rounded down to what matters at its length.
std::string duration(long long secs) {
    if (secs < 120) return fmt::format("{} s", secs);
    if (secs < 7200) return fmt::format("{} min", secs / 60);
    return fmt::format("{} h {} min", secs / 3600, secs / 60 % 60);
}

/// "11 rows of 80 bytes (rows 100 bytes apart, 1080 bytes from the first to the last)", after
/// "4 slices of " where there are several: a region spanning `span` bytes.
std::string region_text(const RegionShape& r, std::size_t span) {
    std::string s = fmt::format("{} of {} bytes (rows {} bytes apart, {} bytes from the first to "
                                "the last)",
                                count(r.rows, "row"), r.width, r.pitch, span);
    return r.slices > 1 ? fmt::format("{} of {}", count(r.slices, "slice"), s) : s;
}

/// Why cudaFree cannot free the pointer.
std::string free_refusal(const MemoryRefusal& r) {
    using Problem = MemoryRefusal::Problem;
    switch (r.problem) {
        case Problem::free_host:
            return "not a pointer cudaMalloc returned: it points to host memory (malloc, new, a "
                   "variable or an array of the host program), which cudaFree cannot free";
        case Problem::free_pinned:
            return "not a pointer cudaMalloc returned: it is pinned host memory from "
                   "cudaMallocHost or cudaHostAlloc; free that with cudaFreeHost";
        case Problem::free_twice:
            return fmt::format("a double free: the memory {} ({}) was freed already; set the "
                               "pointer to nullptr after cudaFree, or free it once",
                               describe(r.array), origin(r.array));
        case Problem::free_inside:
            return fmt::format("not a pointer cudaMalloc returned: it points {} bytes into {} "
                               "({}); pass the pointer cudaMalloc gave, not one moved along the "
                               "array",
                               r.offset, describe(r.array), origin(r.array));
        case Problem::free_variable:
            return fmt::format("not a pointer cudaMalloc returned: it is the __device__ variable "
                               "{}, which lives as long as the program",
                               describe(r.array));
        case Problem::free_device_array:
            return fmt::format("not a pointer cudaMalloc returned: it is the memory of a "
                               "simt::DeviceArray {} ({}), which frees itself when it is "
                               "destroyed",
                               describe(r.array), origin(r.array));
        default: return "not a pointer cudaMalloc returned";
    }
}

}  // namespace

std::string memory_refusal_text(const MemoryRefusal& r) {
    using Problem = MemoryRefusal::Problem;
    const std::string head = fmt::format("{} at {}: ", r.call, where(r.site));
    const std::string refused = fmt::format("{} refused at {}: ", r.call, where(r.site));
    switch (r.problem) {
        case Problem::past_allocation:
            return fmt::format(
                "{}{} from byte {} of the {} run {} bytes past the end of its allocation of {} "
                "bytes made at {}",
                head,
                r.region.rows ? region_text(r.region, r.bytes) : fmt::format("{} bytes", r.bytes),
                r.offset, r.role, r.offset + r.bytes - r.array->size, r.array->size,
                where(r.array->site));
        case Problem::past_variable:
            return fmt::format("{}{} bytes from byte {} run past the end of {} ({} bytes, declared "
                               "at {})",
                               head, r.bytes, r.offset, describe(r.array), r.array->size,
                               where(r.array->site));
        case Problem::past_managed:
            return fmt::format("{}{} bytes from byte {} run past the end of {} ({} bytes, "
                               "allocated at {}) (cudaErrorInvalidValue)",
                               head, r.bytes, r.offset, describe(r.array), r.array->size,
                               where(r.array->site));
        case Problem::rows_overflow:
            return fmt::format("{}{} rows of {} bytes overflow size_t (a negative width or height "
                               "converted to size_t?); it returns cudaErrorMemoryAllocation",
                               refused, r.region.rows, r.region.width);
        case Problem::slices_overflow:
            return fmt::format("{}{} slices of {} rows overflow size_t (a negative height or depth "
                               "converted to size_t?); it returns cudaErrorMemoryAllocation",
                               refused, r.region.slices, r.region.rows);
        case Problem::pinned_too_large:
            return fmt::format("{}{} bytes of pinned host memory asked for, and this machine has "
                               "{}{}; it returns cudaErrorMemoryAllocation",
                               refused, r.bytes, mib(r.limit),
                               r.bytes > (SIZE_MAX >> 1) ? " (a negative size converted to size_t?)"
                                                         : "");
        case Problem::width_past_pitch:
            return fmt::format("{}the width is larger than a pitch: rows of {} bytes, and the {}'s "
                               "pitch (the bytes from one row to the next) is {} ({})",
                               head, r.region.width, r.role, r.region.pitch, r.error);
        case Problem::pitch_too_large:
            return fmt::format("{}the {}'s pitch of {} bytes is more than a copy takes ({}, "
                               "cudaDevAttrMaxPitch; a negative pitch converted to size_t?) "
                               "(cudaErrorInvalidPitchValue)",
                               head, r.role, r.region.pitch, r.limit);
        case Problem::past_row:
            return fmt::format("{}the {}'s rows are {} bytes (its pitch), and {} bytes from x = {} "
                               "run past a row's end (cudaErrorInvalidValue)",
                               head, r.role, r.region.pitch, r.region.width, r.x);
        case Problem::past_slice:
            return fmt::format("{}the {}'s slices are {} (its ysize), and {} from y = {} run into "
                               "the next slice (cudaErrorInvalidValue)",
                               head, r.role, count(r.ysize, "row"), count(r.region.rows, "row"),
                               r.y);
        case Problem::free_host:
        case Problem::free_pinned:
        case Problem::free_twice:
        case Problem::free_inside:
        case Problem::free_variable:
        case Problem::free_device_array:
        case Problem::free_unknown:
            return fmt::format("{}{} (cudaErrorInvalidValue)", head, free_refusal(r));
    }
    return "";
}

std::string out_of_memory_text(const OutOfMemory& o) {
    using Problem = OutOfMemory::Problem;
    const std::string asked =
        fmt::format("{}{} bytes asked for",
                    o.what ? fmt::format("simt: out of {} at {}: ", o.what, where(o.site)) : "",
                    o.bytes);
    switch (o.problem) {
        case Problem::device_total:
            return fmt::format("{}, more than the {} of memory the simulated {} has in all{}",
                               asked, gib(o.total), o.gpu,
                               o.bytes > (SIZE_MAX >> 1)
                                   ? "; a size this large is usually a negative number or an "
                                     "overflowed product (an int n * sizeof(T) computed in int) "
                                     "converted to size_t"
                                   : "");
        case Problem::host_total:
            return fmt::format("{}: the simulated {} would hold it, but this machine has {} of "
                               "memory to keep it in",
                               asked, o.gpu, mib(o.host));
        case Problem::device_full:
            return fmt::format("{}, but only {} of the {} of the simulated {}{} are free (free "
                               "arrays with cudaFree once the kernels using them are done)",
                               asked, mib(o.free), gib(o.total), o.gpu,
                               o.device != 0 ? fmt::format(" (device {})", o.device) : "");
        case Problem::addresses:
            return fmt::format("{}, {} of the simulator's {} of addresses left (addresses are "
                               "never reused, so that a dangling pointer is always recognised)",
                               asked, mib(o.free), gib(o.total));
        case Problem::system: return asked + ": the system has no memory left";
        case Problem::shared_per_block:
            return fmt::format("simt: the kernel launched at {} uses {} bytes of static and {} "
                               "bytes of dynamic shared memory per block, more than the {} bytes "
                               "allowed (the array declared at {} crossed it)",
                               where(o.launch), o.static_bytes, o.dynamic_bytes, o.total,
                               where(o.site));
        case Problem::race_shadow:
            return fmt::format("simt: out of memory for the race checker's shadow of {} elements; "
                               "run with SIMT_CHECK=sync (the race and init checkers off)",
                               o.bytes);
    }
    return "";
}

std::string leak_note_text(const LeakNote& n) {
    if (n.count == 1)
        return fmt::format("simt: note: 1 allocation ({}) was never freed, {} allocated at {}; {}, "
                           "or SIMT_CHECK=all,leak reports it",
                           amount(n.bytes), describe(n.largest), where(n.largest->site),
                           n.all_cuda ? "cudaFree it" : "free it");
    return fmt::format("simt: note: {} allocations ({}) were never freed, the largest {} allocated "
                       "at {}; {}, or SIMT_CHECK=all,leak lists each",
                       n.count, amount(n.bytes), describe(n.largest), where(n.largest->site),
                       n.all_cuda ? "cudaFree them" : "free them");
}

std::string watchdog_progress(const WatchdogDraft& w) {
    std::string line = fmt::format("simt: the kernel launched at {}: {} of {} blocks done",
                                   where(w.launch), w.done, w.total);
    if (w.done > 0) {
        const double rate = w.per_second;
        line += fmt::format(", {:.{}f} blocks/s, about {} left", rate, rate < 10 ? 1 : 0,
                            duration(static_cast<long long>((w.total - w.done) / rate) + 1));
    }
    if (w.checks) line += " (checks on: SIMT_CHECK=none runs faster)";
    if (w.predicted)
        line += fmt::format("; on {} the whole launch would take {} ({}-bound)", w.predicted->gpu->key,
                            duration_text(w.predicted->us), bound_name(w.predicted->bound));
    return line;
}

std::string watchdog_estimate(const WatchdogEstimate& e) {
    auto about = [](double s) {
        if (s < 1) return duration_text(s * 1e6);
        if (s < 10) return fmt::format("{:.1f} s", s);
        return duration(static_cast<long long>(s + 0.5));
    };
    std::string line = fmt::format("simt: the kernel launched at {} ({} blocks) takes about {} here "
                                   "checked at its rate so far, ",
                                   where(e.launch), e.blocks, about(e.checked_s));
    using Unchecked = WatchdogEstimate::Unchecked;
    switch (e.unchecked) {
        case Unchecked::measured:
            line += fmt::format("about {} with SIMT_CHECK=none ({} of its blocks measured: {} each "
                                "on one core, {} worker{})",
                                about(e.unchecked_s), e.sampled, duration_text(e.block_s * 1e6),
                                e.workers, e.workers == 1 ? "" : "s");
            break;
        case Unchecked::slow:
            line += fmt::format("SIMT_CHECK=none not measured (no block of it ended within {:.1f} s "
                                "with the checks off: its blocks may wait on each other)",
                                e.waited_s);
            break;
        case Unchecked::failed:
            line += "SIMT_CHECK=none not measured (no copy of the process could be made to run "
                    "its blocks in)";
            break;
    }
    if (e.predicted)
        line += fmt::format(", {} on {} (predicted from {} of its blocks: {}-bound)",
                            duration_text(e.predicted->us), e.predicted->gpu->key, e.counted,
                            bound_name(e.predicted->bound));
    else
        line += fmt::format(", on {} not predicted (no block of it was counted in time)", e.gpu);
    return line;
}

std::string no_findings_text(const CheckedKinds& c) {
    if (c.unchecked_build)
        return "simt: nothing checked: this program was built UNCHECKED, for speed (build it "
               "without UNCHECKED, or with simt-nvcc without --unchecked, to check it)";
    std::vector<std::string> on, off;
    (c.race ? on : off).push_back("race");
    on.push_back("bounds");
    (c.init ? on : off).push_back("init");
    (c.sync ? on : off).push_back("sync");
    if (off.empty()) return fmt::format("simt: no findings ({} checked)", fmt::join(on, ", "));
    return fmt::format("simt: no findings ({} checked; {} not, as SIMT_CHECK asked)",
                       fmt::join(on, ", "), fmt::join(off, ", "));
}

std::string watchdog_header(const WatchdogDraft& w) {
    if (w.interrupt)
        return fmt::format("simt: interrupted (Ctrl-C) while the kernel launched at {} was running",
                           where(w.launch));
    return fmt::format("simt: the kernel launched at {} made no progress for {} s and was stopped "
                       "(SIMT_TIMEOUT={} seconds without progress; 0 turns the watchdog off)",
                       where(w.launch), w.timeout, w.timeout);
}

std::string watchdog_gave_up(const WatchdogDraft& w) {
    std::string at;
    for (const WatchdogDraft::Sampled& s : w.sampled)
        at += fmt::format("\n  block {}: a thread was at {}", coord(s.block), where(s.site));
    if (w.interrupt)
        return watchdog_header(w) +
               (at.empty() ? "\n  no thread of it made a memory access that simt sees since, so "
                             "where its threads were is not known\n"
                           : at + "\n");
    return fmt::format("{}{}\n  no thread of it made a memory access that simt sees in the {} s "
                       "after that: it loops on something other than device or shared memory, or "
                       "computes that long without touching memory (then raise SIMT_TIMEOUT)\n",
                       watchdog_header(w), at, w.waited);
}

std::string stopped_thread_text(const StoppedThread& t) {
    using Advice = StoppedThread::Advice;
    std::string lines =
        fmt::format("\n  block {}: thread {}{}{}", coord(t.block), coord(t.thread),
                    t.spins ? " spins at " : " was running at ", where(t.site));
    if (t.array) {
        const std::string what = fmt::format(
            "{} {} memory {}[{}]", t.access == Access::write ? "writing" : "reading",
            space_name(t.array->space), describe(t.array), t.element);
        lines += t.spins ? " " + what : " (" + what + ")";
    }
    auto threads = [](unsigned n) { return fmt::format("{} thread{}", n, n == 1 ? "" : "s"); };
    for (const DeadlockDraft::Waiting& w : t.waiting) lines += "\n    " + waiting_text(w, t.shape);
    if (t.unstarted) lines += "\n    " + threads(t.unstarted) + " had not started yet";
    if (t.finished) lines += "\n    " + threads(t.finished) + " had finished";
    switch (t.advice) {
        case Advice::grid_sync:
            return lines + "\n  a block that waits for a value another block writes waits forever "
                           "here: the blocks of a cooperative launch take turns between "
                           "grid.sync() calls in the simulator, so order the write and the read "
                           "with grid.sync() instead of a flag";
        case Advice::other_block:
            return lines + fmt::format(
                               "\n  a block that waits for a value another block of the same "
                               "launch writes may wait forever: blocks are not guaranteed to run "
                               "at the same time (here {} blocks share the cores), so one must "
                               "never wait for another; split the work into two launches",
                               t.blocks);
        case Advice::barrier:
            return lines + "\n  a thread that loops until another thread of its block acts waits "
                           "forever if that thread waits at a barrier for it: order them with "
                           "__syncthreads() instead";
        case Advice::take_turns:
            return lines + "\n  if it waits for another thread of its block: in the simulator a "
                           "block's threads take turns (each runs until it ends or reaches a "
                           "barrier), so order them with __syncthreads()";
        case Advice::none: break;
    }
    return lines;
}

Finding to_finding(const Draft& d) {
    Finding f;
    f.kind = d.kind;
    f.hazard = hazard_code(d.hazard);
    if (d.array) {
        f.space = space_name(d.array->space);
        f.array = array_name(d.array);
        f.extent = !d.view_extent.empty() ? view_tuple(d.view_extent)
                   : counted_by_access(d) ? std::to_string(elements(d))
                                          : array_extent(d.array);
        if (d.kind != FindingKind::leak) f.index = index_text(d);
        if (counted_by_access(d)) f.byte_offset = d.element;
    } else {
        f.index = view_tuple(d.view_index);  // a view without an array
    }
    for (const DraftSite& s : d.sites) {
        Site& out = f.sites.emplace_back();
        const Loc* call = library_call(s);
        const Loc& at = call ? *call : s.loc;
        out.file = at.file_name() ? at.file_name() : "";
        out.line = at.line();
        out.column = d.kind == FindingKind::leak ? 0 : at.column();
        if (call) out.call = call->function_name();
        out.thread = s.thread;
        out.block = s.block;
        out.access = s.access;
    }
    f.threads = d.threads;
    f.accesses = d.accesses;
    f.text = format_text(d);
    return f;
}

std::string format_json(const Finding& f) {
    using Json = nlohmann::ordered_json;  // keys in the order written: kind first, text last
    auto triple = [](uint3 c) { return Json::array({c.x, c.y, c.z}); };
    Json threads = Json::array(), blocks = Json::array(), sites = Json::array();
    for (const Site& s : f.sites) {
        threads.push_back(triple(s.thread));
        blocks.push_back(triple(s.block));
        Json site = {{"file", s.file},
                     {"line", s.line},
                     {"access", s.access},
                     {"thread", triple(s.thread)},
                     {"block", triple(s.block)}};
        if (!s.call.empty()) site["call"] = s.call;
        sites.push_back(std::move(site));
    }
    const Site first = f.sites.empty() ? Site{} : f.sites.front();
    Json j;
    j["kind"] = to_string(f.kind);
    if (!f.hazard.empty()) j["hazard"] = f.hazard;
    j["space"] = f.space;
    j["array"] = f.array;
    j["index"] = f.index;
    if (f.byte_offset) j["byte_offset"] = *f.byte_offset;
    if (!f.extent.empty()) j["extent"] = f.extent;
    j["threads"] = std::move(threads);
    j["blocks"] = std::move(blocks);
    j["file"] = first.file;
    j["line"] = first.line;
    j["sites"] = std::move(sites);
    j["threads_folded"] = f.threads;
    j["accesses_folded"] = f.accesses;
    j["text"] = f.text;
    // ASCII out, every other character escaped; bytes that are not UTF-8 (a file name in another
    // encoding) become U+FFFD instead of making the line unreadable.
    return j.dump(-1, ' ', /*ensure_ascii=*/true, Json::error_handler_t::replace);
}

}  // namespace simt::sim::detail

namespace simt::sim {

std::string_view to_string(FindingKind k) {
    switch (k) {
        case FindingKind::data_race: return "data-race";
        case FindingKind::uninitialized_read: return "uninitialized-read";
        case FindingKind::out_of_bounds: return "out-of-bounds";
        case FindingKind::use_after_free: return "use-after-free";
        case FindingKind::null_pointer: return "null-pointer";
        case FindingKind::misaligned_atomic: return "misaligned-atomic";
        case FindingKind::misaligned_address: return "misaligned-address";
        case FindingKind::constant_write: return "constant-write";
        case FindingKind::leak: return "leak";
        case FindingKind::barrier_exit: return "barrier-exit";
        case FindingKind::barrier_divergence: return "barrier-divergence";
        case FindingKind::warp_mask: return "warp-mask";
        case FindingKind::warp_divergence: return "warp-divergence";
        case FindingKind::deadlock: return "deadlock";
        case FindingKind::memory_model: return "memory-model";
        case FindingKind::host_access: return "host-access";
    }
    return "unknown";
}

}  // namespace simt::sim
