// The one text formatter and the one JSON formatter of findings, and their de-duplication key.
// They format and output; what was found is decided by the checkers (check/).
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "finding.hpp"

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

std::string site_where(const Site& s) {
    if (s.file.empty()) return where(Loc{});
    const char* slash = std::strrchr(s.file.c_str(), '/');
    return std::string(slash ? slash + 1 : s.file.c_str()) + ":" + std::to_string(s.line);
}

/// "  read by thread (1,0,0) block (0,0,0) at a.cu:5" (or "  by thread ..." without the access).
std::string by_line(const DraftSite& d, bool with_access) {
    const Site& s = d.site;
    return "  " + (with_access ? s.access + " " : std::string()) + "by thread " + coord(s.thread) +
           " block " + coord(s.block) + " at " + site_where(s) + d.note + "\n";
}

/// "shared memory 'tile'[3]".
std::string memory(const Draft& d) {
    return std::string(space_name(d.array->space)) + " memory " + describe(d.array) + "[" +
           d.index + "]";
}

const char* hint_text(const Draft& d) {
    switch (d.hint) {
        case Hint::atomic_orders_nothing:
            return "read the result after a __syncthreads() (or in a later kernel), or make every "
                   "access atomic; an atomic orders nothing by itself";
        case Hint::read_modify_write:
            return "use atomicAdd (or another atomic), or separate them with __syncthreads() "
                   "within a block";
        case Hint::syncthreads: return "separate them with __syncthreads()";
        case Hint::syncthreads_or_syncwarp:
            return "separate them with __syncthreads(), or with __syncwarp() when only lanes of "
                   "one warp share the data";
        case Hint::next_iteration: return "";  // format_text names the barrier
        case Hint::other_block:
            return "blocks of one launch are never ordered: use atomics, or do the first part in "
                   "its own kernel launch";
        case Hint::other_block_grid_sync:
            return "blocks of a cooperative launch are ordered only by grid.sync(): put one "
                   "between these accesses, or use atomics";
        case Hint::other_stream:
            return "these launches are on streams that nothing orders: synchronize, or make one "
                   "stream wait for an event recorded on the other";
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

std::string joined(const std::vector<std::string>& lines) {
    std::string s;
    for (const std::string& l : lines) s += (s.empty() ? "" : "\n") + l;
    return s;
}

std::string json_string(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\', out += c;
        else if (c == '\n') out += "\\n";
        else if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
        } else out += c;
    }
    return out + "\"";
}

std::string json_coord(uint3 c) {
    std::string s = "[";
    s += std::to_string(c.x);
    s += ',';
    s += std::to_string(c.y);
    s += ',';
    s += std::to_string(c.z);
    return s + "]";
}

}  // namespace

DraftSite draft_site(const Loc& loc, const char* access) {
    DraftSite d;
    d.site.file = loc.file_name() ? loc.file_name() : "";
    d.site.line = loc.line();
    d.site.column = loc.column();
    d.site.access = access;
    if (tls_thread) {
        d.site.thread = tls_thread->idx;
        d.site.block = tls_worker->block.idx;
    }
    return d;
}

std::string dedup_key(const Draft& d) {
    std::string key(to_string(d.kind));
    key += '@';
    if (d.kind == FindingKind::leak) return key + std::to_string(d.array->id);
    // Races and uninitialised reads: once per line (a line is usually hit by every thread, and
    // a race once per pair of lines, in either order). memcheck and synccheck: per column too.
    bool by_line = d.kind == FindingKind::data_race || d.kind == FindingKind::uninitialized_read ||
                   d.kind == FindingKind::misaligned_atomic ||
                   d.kind == FindingKind::misaligned_address;
    std::vector<std::string> sites;
    for (const DraftSite& s : d.sites)
        sites.push_back(s.site.file + ":" + std::to_string(s.site.line) +
                        (by_line ? "" : ":" + std::to_string(s.site.column)));
    std::sort(sites.begin(), sites.end());
    for (std::size_t i = 0; i < sites.size(); ++i) key += (i ? "|" : "") + sites[i];
    return key;
}

std::string format_text(const Draft& d) {
    const DraftSite& first = d.sites.front();
    std::string what = first.site.access;
    std::string sites;
    for (const DraftSite& s : d.sites) sites += by_line(s, true);
    switch (d.kind) {
        case FindingKind::data_race:
            if (d.hint == Hint::next_iteration)
                return std::string("simt: data race (") + hazard_name(d.hazard) + ") on " +
                       memory(d) + " (" + origin(d.array) + ")\n" + sites + "  the two accesses are "
                       "in different iterations of a loop: the __syncthreads() at " + d.barrier +
                       " orders the lines within one iteration, but nothing orders this "
                       "iteration's later line before the next iteration's earlier one; add a "
                       "__syncthreads() at the end of the loop body";
            return std::string("simt: data race (") + hazard_name(d.hazard) + ") on " + memory(d) +
                   " (" + origin(d.array) + ")\n" + sites + "  nothing orders these accesses: " +
                   hint_text(d);
        case FindingKind::uninitialized_read:
            return "simt: uninitialized " + what + " of " + memory(d) + " (" + origin(d.array) +
                   ")\n" + sites + "  " + hint_text(d);
        case FindingKind::null_pointer:
            return "simt: " + what + " through a null simt::ptr\n" + sites +
                   "  not performed; the kernel was given no array for this parameter";
        case FindingKind::use_after_free:
            return "simt: use after free: " + what + " of " + memory(d) + " (" + origin(d.array) +
                   ", already freed)\n" + sites +
                   (d.raw ? "  keep the memory allocated until the kernels using it have finished "
                            "(cudaFree after cudaDeviceSynchronize)"
                          : "  not performed; keep the DeviceArray alive until the kernels using it "
                            "have finished");
        case FindingKind::out_of_bounds:
            if (!d.extent.empty())  // left a view's extents
                return "simt: out-of-bounds access of " +
                       (d.array ? std::string(space_name(d.array->space)) + " memory " +
                                      describe(d.array)
                                : std::string("a view")) +
                       "[" + d.index + "]: " + d.bad + " (view extents " + d.extent +
                       (d.array ? "; " + origin(d.array) : std::string()) + ")\n" +
                       by_line(first, false) +
                       "  not performed (a read gives a poisoned value); guard the index with "
                       "the view's extent";
            return "simt: out-of-bounds " + what + " of " + memory(d) + " (" + origin(d.array) +
                   ")\n" + sites +
                   (d.raw ? "  done in the red zone around the array (a read gives a poisoned value); "
                          : "  not performed (a read gives a poisoned value); ") +
                   (d.array->size < d.array->elem_size
                        ? std::string("the array has no elements: allocate it with a size, or "
                                      "skip the kernel when there is nothing to do")
                        : "valid indices are 0.." +
                              std::to_string(d.array->size / d.array->elem_size - 1) +
                              ": guard the access with the array's size or fix the index");
        case FindingKind::constant_write:
            return "simt: " + what + " of " + memory(d) + " (" + origin(d.array) +
                   ")\n" + sites + "  done, but kernels may only read __constant__ memory (nvcc "
                   "warns \"Cannot store to pointer that points to constant memory space\" and on "
                   "a GPU the result is undefined): set it from the host with cudaMemcpyToSymbol, "
                   "or declare it __device__ if kernels must change it";
        case FindingKind::misaligned_atomic:
        case FindingKind::misaligned_address: {
            // Where the access starts: in the array's elements and bytes, and in units of the
            // access's own size, which its address must be a multiple of.
            std::string at = "address " + std::to_string(reinterpret_cast<std::uintptr_t>(d.address));
            std::string units;
            if (d.array) {
                auto off = static_cast<std::size_t>(static_cast<const std::byte*>(d.address) -
                                                    d.array->base);
                std::size_t into = off - std::stoull(d.index) * d.array->elem_size;
                at = memory(d) + (into ? " + " + std::to_string(into) + " byte" + (into > 1 ? "s" : "")
                                       : std::string()) +
                     " (" + origin(d.array) + ")";
                char u[32];
                std::snprintf(u, sizeof u, "%g", static_cast<double>(off) / static_cast<double>(d.count));
                units = "byte offset " + std::to_string(off) + ", " + u + " in " +
                        std::to_string(d.count) + "-byte units, is not a multiple of " +
                        std::to_string(d.count) + ": ";
            }
            return "simt: misaligned address: " + std::to_string(d.count) + "-byte " + what +
                   " of " + at + "\n" + by_line(first, true) + "  " + units +
                   (d.raw ? "a GPU stops the kernel here with cudaErrorMisalignedAddress (done "
                            "here, as a CPU allows it). "
                          : "not performed. ") +
                   "An access of n bytes needs an address that is a multiple of n: do not cast a "
                   "pointer into the middle of an element to a wider type; copy the bytes with "
                   "memcpy, or keep the offset a multiple of the type's size";
        }
        case FindingKind::leak:
            return "simt: leak: device memory " + describe(d.array) + " (" + origin(d.array) +
                   ") was never freed\n  " +
                   (d.array->cuda ? "free it with cudaFree once the kernels using it are done"
                                  : "a DeviceArray frees its memory when it is destroyed; one "
                                    "made with new and never deleted, or alive when std::exit "
                                    "is called, leaks");
        case FindingKind::barrier_exit:
            return "simt: " + std::to_string(d.count) + " thread" + (d.count > 1 ? "s" : "") +
                   " of block " + coord(first.site.block) + " finished without reaching the "
                   "__syncthreads() at " + site_where(first.site) +
                   " that the other threads waited at\n  finished: " + joined(d.lines) +
                   "\n  a barrier must be reached by every thread of the block: it must not sit in "
                   "code that only some threads run (if (threadIdx.x < 16) __syncthreads()), and "
                   "no thread may return before it; guard the work (if (i < n) { ... }) instead";
        case FindingKind::barrier_divergence:
            return joined(d.lines) +
                   "\n  threads of one block wait at different barriers: a barrier must not sit "
                   "in code that only part of the block runs";
        case FindingKind::deadlock:
            return joined(d.lines) + "\n  the launch ends with a KernelError";
        case FindingKind::warp_mask:
        case FindingKind::warp_divergence:
            return joined(d.lines);
    }
    return "";
}

Finding to_finding(const Draft& d) {
    Finding f;
    f.kind = d.kind;
    f.hazard = hazard_code(d.hazard);
    if (d.array) {
        f.space = space_name(d.array->space);
        f.array = array_name(d.array);
        f.extent = d.extent.empty() ? array_extent(d.array) : d.extent;
    }
    f.index = d.index;
    for (const DraftSite& s : d.sites) f.sites.push_back(s.site);
    f.text = format_text(d);
    return f;
}

std::string format_json(const Finding& f) {
    std::string threads, blocks, sites;
    for (const Site& s : f.sites) {
        if (!threads.empty()) threads += ',', blocks += ',';
        threads += json_coord(s.thread);
        blocks += json_coord(s.block);
        sites += std::string(sites.empty() ? "" : ",") + "{\"file\":" + json_string(s.file) +
                 ",\"line\":" + std::to_string(s.line) + ",\"access\":" + json_string(s.access) +
                 ",\"thread\":" + json_coord(s.thread) + ",\"block\":" + json_coord(s.block) + "}";
    }
    const Site first = f.sites.empty() ? Site{} : f.sites.front();
    return "{\"kind\":" + json_string(std::string(to_string(f.kind))) +
           (f.hazard.empty() ? "" : ",\"hazard\":" + json_string(f.hazard)) +
           ",\"space\":" + json_string(f.space) +
           ",\"array\":" + json_string(f.array) + ",\"index\":" + json_string(f.index) +
           (f.extent.empty() ? "" : ",\"extent\":" + json_string(f.extent)) +
           ",\"threads\":[" + threads + "],\"blocks\":[" + blocks + "],\"file\":" +
           json_string(first.file) + ",\"line\":" + std::to_string(first.line) + ",\"sites\":[" +
           sites + "],\"text\":" + json_string(f.text) + "}";
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
    }
    return "unknown";
}

}  // namespace simt::sim
