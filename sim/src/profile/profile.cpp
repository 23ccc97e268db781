// SIMT_PROFILE: warp-level requests rebuilt from the threads' accesses, counted as Nsight Compute
// counts them (docs/profiling.md).
//
// Threads run one after another, so no warp ever issues a request here: the profiler rebuilds
// them. Per warp it keeps the segment since the warp's lanes were last together (a barrier, a
// warp intrinsic): for each access site, each lane's count of executions so far. The k-th
// execution of a site by each lane is one request, its active mask the lanes that got there. A
// segment is counted and dropped when it is complete: at a barrier's release, when a warp
// intrinsic completes, at the block's end, or as soon as the block moves on to another warp while
// no lane of this one can run. Memory is one segment per warp, never a trace of the launch.
//
// Counting happens on the worker that runs the block, into the block's own tally; a launch's tally
// gathers its blocks under a lock, once per block. Reports are made on the launch's thread when
// it ends: JSON then, text at exit (one table per kernel and launch site, over its launches).
#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "counters.hpp"
#include "../check/checker.hpp"
#include "../memory/arena.hpp"
#include "../report/symbolize.hpp"
#include "../report/text.hpp"
#include "../report/finding.hpp"
#include "../report/page.hpp"
#include "../report/timing_text.hpp"
#include "../device/model.hpp"
#include "../device/timing.hpp"
#include "../launch/gpu_clock.hpp"

#if __has_include("../device/occupancy.hpp")
#include "../device/occupancy.hpp"
#define SIMT_PROFILE_OCCUPANCY 1
#else
#define SIMT_PROFILE_OCCUPANCY 0
#endif

namespace simt::sim::detail {

namespace {
/// Set by the first file built UNCHECKED to start (simt/sim/check/access.hpp).
std::atomic<bool> unchecked_files{false};
}  // namespace

void profile_unchecked_build() { unchecked_files.store(true, std::memory_order_relaxed); }
bool profile_counts_every_access() { return !unchecked_files.load(std::memory_order_relaxed); }
bool profiler_counts(const Config& c) {
    // The GPU's clock times launches from their counts.
    return c.profile_text || !c.profile_json.empty() || gpu_clock_on() || report_page_on();
}

namespace profile {

namespace {

constexpr unsigned kSpaces = 3, kKinds = 4;  // Space (global, shared, constant) x Op

/// What a request does, as Nsight Compute splits it: a load, a store, an atomic whose result the
/// program uses, or one whose result it drops (nvcc issues that as a reduction, RED: `_op_red`).
enum class Op : std::uint8_t { ld, st, atom, red };
constexpr Op kOps[] = {Op::ld, Op::st, Op::atom, Op::red};

/// One access site: the instruction (a raw access's return address) or the view access's
/// source location, and what it does.
struct SiteKey {
    const void* where = nullptr;
    Access kind = Access::read;
    Space space = Space::global;
    bool raw = false;
    bool operator==(const SiteKey&) const = default;
};
struct SiteHash {
    std::size_t operator()(const SiteKey& k) const {
        return std::hash<const void*>{}(k.where) ^ (static_cast<std::size_t>(k.kind) << 1) ^
               (static_cast<std::size_t>(k.space) << 3);
    }
};

struct Counts {
    std::uint64_t requests = 0, lanes = 0, partial = 0;
    std::uint64_t actual = 0, ideal = 0;  ///< sectors (global) or wavefronts (shared)
    void add(const Counts& o) {
        requests += o.requests, lanes += o.lanes, partial += o.partial;
        actual += o.actual, ideal += o.ideal;
    }
};

/// How a site's lanes spread over memory, from its costliest request of two lanes or more (the
/// one furthest above its ideal): what the report explains.
enum class Pattern : std::uint8_t { unknown, strided, scattered };

/// One warp's request as the report page draws it (report/page.hpp): its lanes' addresses, what
/// it cost, and where it ran. `order` (block, warp, request) makes the choice among requests
/// the same whichever worker ran which block.
struct SampledRequest {
    std::uint64_t block_linear = ~std::uint64_t(0);
    std::uint32_t warp = 0, k = 0;
    uint3 block{};
    Request r{};
    Cost cost;
    const Allocation* array = nullptr;  ///< records are never deleted: safe to name later
    auto order() const { return std::tuple(block_linear, warp, k); }
    bool set() const { return block_linear != ~std::uint64_t(0); }
};
/// What a site keeps for the page, only when one was asked for: its first request (lowest
/// block, warp, request), its costliest (most above its ideal; ties: the first), and the active
/// lanes of each request of the first block's first warps (kPageBounds).
struct SitePictures {
    SampledRequest first, costliest;
    std::map<std::uint32_t, std::vector<std::uint32_t>> masks;  ///< by warp of the first block
    void offer(const SampledRequest& s) {
        if (!first.set() || s.order() < first.order()) first = s;
        const auto excess = [](const SampledRequest& x) { return x.cost.actual - x.cost.ideal; };
        if (!costliest.set() || excess(s) > excess(costliest) ||
            (excess(s) == excess(costliest) && s.order() < costliest.order()))
            costliest = s;
    }
    void add(const SitePictures& o) {
        if (o.first.set()) offer(o.first);
        if (o.costliest.set()) offer(o.costliest);
        for (const auto& [warp, m] : o.masks) {
            auto& mine = masks[warp];
            if (mine.empty()) mine = m;  // only one block (the first) fills these
        }
    }
};

struct SiteStats {
    Counts c;
    Pattern pattern = Pattern::unknown;
    std::int64_t stride = 0;  ///< bytes between neighbouring lanes, when strided
    std::uint32_t size = 0;
    std::uint64_t excess = 0;  ///< that request's sectors or wavefronts above its ideal
    std::optional<SitePictures> pictures;
    void add(const SiteStats& o) {
        c.add(o.c);
        if (o.pattern != Pattern::unknown && (pattern == Pattern::unknown || o.excess > excess))
            pattern = o.pattern, stride = o.stride, size = o.size, excess = o.excess;
        if (o.pictures) {
            if (pictures) pictures->add(*o.pictures);
            else pictures = o.pictures;
        }
    }
};
using SiteMap = std::unordered_map<SiteKey, SiteStats, SiteHash>;

/// What barriers and warp intrinsics add to the divergence ratio.
struct SyncCounts {
    std::uint64_t instructions = 0, lanes = 0;
};

/// One site's requests in the current segment of one warp.
struct SiteSegment {
    SiteKey key;
    const Allocation* array = nullptr;  ///< the array its last access reached
    std::array<std::uint32_t, 32> count{};  ///< per lane: executions in this segment
    std::vector<Request> requests;          ///< the first `used` are this segment's
    std::uint32_t used = 0;
};
struct WarpSegment {
    std::vector<SiteSegment> sites;  ///< the first `used` are this segment's
    unsigned used = 0, last = 0;     ///< `last`: the site found last, tried first
};

}  // namespace

/// The running block's profile, on its worker.
struct BlockProfile {
    BlockState* block = nullptr;
    bool pictures = false;  ///< a report page was asked for: keep samples of each site
    std::vector<WarpSegment> warps;
    unsigned current_warp = ~0u;
    SiteMap sites;
    SyncCounts sync;
    /// Global sectors read and written (an atomic's both), for the time model's DRAM term.
    SectorSet read, written;
    /// Global sectors plain loads asked for, and which: a block's second load of a sector is
    /// taken as an L1 hit (the time model's L1 rule).
    std::uint64_t load_sectors = 0;
    SectorSet loaded;
    /// How often this block's threads ran each basic block of instrumented code, by the return
    /// address of the block's coverage call (ran_code): the time model's count of the lines that
    /// do arithmetic without touching memory. A loop runs the same few blocks over and over, so
    /// the counts go through a small direct-mapped table first.
    struct CodeRuns {
        const void* pc = nullptr;
        std::uint64_t runs = 0;
    };
    std::array<CodeRuns, 64> recent_code{};
    std::unordered_map<const void*, std::uint64_t> code_runs;

    void begin(BlockState& b) {
        block = &b;
        pictures = report_page_on();
        warps.resize((b.nthreads + 31) / 32);
        current_warp = ~0u;
        sites.clear();
        sync = {};
        read.clear();
        written.clear();
        load_sectors = 0;
        loaded.clear();
        recent_code = {};
        code_runs.clear();
    }

    void ran_code(const void* pc) {
        const auto at = (reinterpret_cast<std::uintptr_t>(pc) * 0x9E3779B97F4A7C15u) >> 58;
        CodeRuns& r = recent_code[at];
        if (r.pc == pc) {
            ++r.runs;
            return;
        }
        if (r.pc) code_runs[r.pc] += r.runs;
        r = {pc, 1};
    }
    void settle_code() {
        for (CodeRuns& r : recent_code)
            if (r.pc) code_runs[r.pc] += r.runs, r = {};
    }
    /// This block's loads that find their sector in L1: all but its first of each.
    std::uint64_t l1_hits() const { return load_sectors - std::min(load_sectors, loaded.count()); }
    unsigned lanes_of(unsigned warp) const { return std::min(32u, block->nthreads - warp * 32); }

    void record(const AccessEvent& e) {
        const unsigned warp = e.thread.linear / 32, lane = e.thread.linear % 32;
        if (warp != current_warp) {
            if (current_warp < warps.size() && warps[current_warp].used && !runnable(current_warp))
                flush(current_warp);
            current_warp = warp;
        }
        const SiteKey key{e.pc ? e.pc : std::bit_cast<const void*>(e.where), e.kind,
                          e.array->space, e.pc != nullptr};
        SiteSegment& s = site(warps[warp], key);
        s.array = e.array;
        const std::uint32_t k = s.count[lane]++;
        if (k == s.used) {
            if (s.used == s.requests.size()) s.requests.emplace_back();
            s.requests[s.used++].mask = 0;
        }
        Request& r = s.requests[k];
        r.mask |= 1u << lane;
        r.address[lane] = reinterpret_cast<std::uintptr_t>(e.address);
        r.size[lane] = static_cast<std::uint32_t>(e.size);
    }

    /// Whether a lane of `warp` may still add to its segment: one that has not started or runs.
    /// Waiting lanes resume only after a barrier or a warp intrinsic, which ends the segment.
    bool runnable(unsigned warp) const {
        for (unsigned l = 0, n = lanes_of(warp); l < n; ++l)
            if (block->threads[warp * 32 + l].status == Status::live) return true;
        return false;
    }

    static SiteSegment& site(WarpSegment& w, const SiteKey& key) {
        // A warp's lanes run the same code one after another: the site after the last one found
        // is usually the next.
        for (unsigned i = 0; i < w.used; ++i) {
            unsigned j = w.last + i < w.used ? w.last + i : w.last + i - w.used;
            if (w.sites[j].key == key) {
                w.last = j;
                return w.sites[j];
            }
        }
        if (w.used == w.sites.size()) w.sites.emplace_back();
        SiteSegment& s = w.sites[w.used];
        s.key = key;
        w.last = w.used++;
        return s;
    }

    void flush(unsigned warp) {
        WarpSegment& w = warps[warp];
        const unsigned full = lanes_of(warp);
        for (unsigned i = 0; i < w.used; ++i) {
            SiteSegment& s = w.sites[i];
            SiteStats& st = sites[s.key];
            for (std::uint32_t k = 0; k < s.used; ++k) {
                const Cost cost = count(s.key.space, s.requests[k], full, st);
                if (s.key.space == Space::global) touch(s.key.kind, s.requests[k], cost.actual);
                if (pictures) picture(st, s, warp, k, cost);
            }
            s.used = 0;
            s.count.fill(0);
        }
        w.used = w.last = 0;
    }
    /// Offers request `k` of `s` to its site's pictures (report/page.hpp).
    void picture(SiteStats& st, const SiteSegment& s, unsigned warp, std::uint32_t k, Cost cost) {
        if (!st.pictures) st.pictures.emplace();
        SitePictures& p = *st.pictures;
        SampledRequest candidate;
        candidate.block_linear = block->linear, candidate.warp = warp, candidate.k = k;
        // Copying the 32 lanes is the cost: only a request that will be kept pays it.
        const bool first = !p.first.set() || candidate.order() < p.first.order();
        const std::uint64_t excess = cost.actual - cost.ideal,
                            most = p.costliest.cost.actual - p.costliest.cost.ideal;
        if (first || !p.costliest.set() || excess > most ||
            (excess == most && candidate.order() < p.costliest.order())) {
            candidate.block = block->idx, candidate.r = s.requests[k], candidate.cost = cost;
            candidate.array = s.array;
            p.offer(candidate);
        }
        if (block->linear == 0 && warp < kPageBounds.divergence_warps) {
            auto& masks = p.masks[warp];
            if (masks.size() < kPageBounds.masks_per_warp) masks.push_back(s.requests[k].mask);
        }
    }
    void flush_all() {
        for (unsigned w = 0; w < warps.size(); ++w)
            if (warps[w].used) flush(w);
    }

    /// Marks the sectors global request `r` (of `sectors` sectors) touched. Neighbouring lanes
    /// mostly share a sector: each sector is marked once per run of lanes in it.
    void touch(Access kind, const Request& r, std::uint64_t sectors) {
        if (kind == Access::read) load_sectors += sectors;
        std::uint64_t last = ~std::uint64_t(0);
        for (std::uint32_t m = r.mask; m; m &= m - 1) {
            const unsigned l = static_cast<unsigned>(std::countr_zero(m));
            const std::uint64_t first = r.address[l] / 32,
                                end = (r.address[l] + std::max(r.size[l], 1u) - 1) / 32;
            for (std::uint64_t sector = first; sector <= end; ++sector) {
                if (sector == last) continue;
                last = sector;
                if (kind == Access::read) loaded.add(sector);
                if (kind != Access::write) read.add(sector);
                if (kind != Access::read) written.add(sector);
            }
        }
    }

    static Cost count(Space space, const Request& r, unsigned full, SiteStats& st) {
        const unsigned lanes = static_cast<unsigned>(std::popcount(r.mask));
        ++st.c.requests;
        st.c.lanes += lanes;
        if (lanes < full) ++st.c.partial;
        Cost cost;
        if (space == Space::global) cost = global_cost(r);
        else if (space == Space::shared) cost = shared_cost(r);
        st.c.actual += cost.actual;
        st.c.ideal += cost.ideal;
        const std::uint64_t excess = cost.actual - cost.ideal;
        if (lanes >= 2 && (st.pattern == Pattern::unknown || excess > st.excess)) {
            classify(r, st);
            st.excess = excess;
        }
        return cost;
    }

    static void classify(const Request& r, SiteStats& st) {
        const unsigned first = static_cast<unsigned>(std::countr_zero(r.mask));
        const unsigned second = static_cast<unsigned>(std::countr_zero(r.mask & (r.mask - 1)));
        const std::int64_t base = static_cast<std::int64_t>(r.address[first]);
        const std::int64_t step = (static_cast<std::int64_t>(r.address[second]) - base) /
                                  static_cast<std::int64_t>(second - first);
        st.pattern = Pattern::strided;
        st.stride = step;
        st.size = r.size[first];
        for (std::uint32_t m = r.mask; m; m &= m - 1) {
            unsigned l = static_cast<unsigned>(std::countr_zero(m));
            if (static_cast<std::int64_t>(r.address[l]) !=
                base + step * static_cast<std::int64_t>(l - first))
                st.pattern = Pattern::scattered;
        }
    }

    /// A block barrier (or grid.sync) released: one instruction per warp with a live lane.
    void barrier() {
        for (unsigned w = 0; w < warps.size(); ++w) {
            unsigned lanes = 0;
            for (unsigned l = 0, n = lanes_of(w); l < n; ++l)
                lanes += block->threads[w * 32 + l].status != Status::done;
            if (lanes) ++sync.instructions, sync.lanes += lanes;
        }
        flush_all();
    }
};

namespace {

thread_local BlockProfile tls_block_profile;

class Profiler;
/// The one profiler (checkers() makes it once), for the hook the watchdog calls.
Profiler* the_profiler = nullptr;

// --- A launch's tally, and its report -------------------------------------------------------

struct LaunchTally {
    SiteMap sites;
    SyncCounts sync;
    SectorSet read, written;
    std::uint64_t l1_hits = 0;
    std::size_t static_shared = 0;  ///< the most static shared memory one block declared
    std::uint64_t blocks = 0;       ///< blocks counted so far
    std::unordered_map<const void*, std::uint64_t> code_runs;  ///< BlockProfile's, summed
};


/// A place in the source, and what is done there.
struct LineKey {
    std::string file;
    unsigned line = 0;
    Space space = Space::global;
    Op kind = Op::ld;
    auto operator<=>(const LineKey&) const = default;
};
using LineMap = std::map<LineKey, SiteStats>;

std::string read_line(const char* file, unsigned line) {
    std::vector<std::string> lines = source_lines(file, line, line);
    return lines.empty() ? std::string() : std::move(lines.front());
}

bool ident_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':';
}

/// The kernel a launch line names: `name<<<`, `name<T><<<`, or the first argument of
/// simt::launch / cudaLaunchKernel (past a cast and an `&`). Empty if the line says neither.
std::string kernel_name(const Loc& site) {
    const std::string text = read_line(site.file_name(), site.line());
    std::size_t end = text.find("<<<");
    if (end != std::string::npos) {
        while (end > 0 && text[end - 1] == ' ') --end;
        if (end > 0 && text[end - 1] == '>') {  // template arguments
            int depth = 0;
            while (end > 0) {
                char c = text[--end];
                if (c == '>') ++depth;
                else if (c == '<' && --depth == 0) break;
            }
        }
        std::size_t begin = end;
        while (begin > 0 && ident_char(text[begin - 1])) --begin;
        return text.substr(begin, end - begin);
    }
    for (const char* call : {"LaunchCooperativeKernel(", "LaunchKernel(", "launch("}) {
        std::size_t at = text.find(call);
        if (at == std::string::npos) continue;
        std::size_t i = at + std::strlen(call);
        for (;;) {  // (void*), (const void*), &, spaces
            while (i < text.size() && (text[i] == ' ' || text[i] == '&')) ++i;
            if (i < text.size() && text[i] == '(') {
                std::size_t close = text.find(')', i);
                if (close == std::string::npos) break;
                i = close + 1;
                continue;
            }
            break;
        }
        std::size_t begin = i;
        while (i < text.size() && ident_char(text[i])) ++i;
        if (i > begin) return text.substr(begin, i - begin);
    }
    return "";
}

const char* op_name(Op k) {
    constexpr const char* names[] = {"ld", "st", "atom", "red"};
    return names[static_cast<unsigned>(k)];
}
const char* kind_word(Op k) {
    constexpr const char* words[] = {"load", "store", "atomic", "red"};
    return words[static_cast<unsigned>(k)];
}

/// A launch's, or one line's, counts by space and kind.
struct Tally {
    Counts mem[kSpaces][kKinds];
    SyncCounts sync;
    void add(Space s, Op k, const Counts& c) {
        mem[static_cast<unsigned>(s)][static_cast<unsigned>(k)].add(c);
    }
    void add(const Tally& o) {
        for (unsigned s = 0; s < kSpaces; ++s)
            for (unsigned k = 0; k < kKinds; ++k) mem[s][k].add(o.mem[s][k]);
        sync.instructions += o.sync.instructions;
        sync.lanes += o.sync.lanes;
    }
};

using Metrics = std::vector<std::pair<std::string, double>>;

/// Nsight Compute's names for what `t` counts; `all`: every memory metric, zero or not (a
/// launch's), else only those of the spaces and kinds present (a line's). Names that ncu has
/// no counterpart for start with simt__.
Metrics metrics_of(const Tally& t, bool all) {
    Metrics m;
    const unsigned G = static_cast<unsigned>(Space::global),
                   S = static_cast<unsigned>(Space::shared);
    for (Op k : kOps) {
        const Counts& c = t.mem[G][static_cast<unsigned>(k)];
        if (!all && !c.requests) continue;
        const std::string op = op_name(k);
        m.emplace_back("l1tex__t_requests_pipe_lsu_mem_global_op_" + op + ".sum", c.requests);
        m.emplace_back("l1tex__t_sectors_pipe_lsu_mem_global_op_" + op + ".sum", c.actual);
        m.emplace_back("simt__sectors_ideal_global_op_" + op, c.ideal);
    }
    for (Op k : kOps) {
        const Counts& c = t.mem[S][static_cast<unsigned>(k)];
        if (k == Op::red || (!all && !c.requests)) continue;  // shared atomics are all _op_atom
        const std::string op = op_name(k);
        m.emplace_back("smsp__inst_executed_op_shared_" + op + ".sum", c.requests);
        m.emplace_back("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_" + op + ".sum", c.actual);
        m.emplace_back("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_" + op + ".sum",
                       c.actual - c.ideal);
        m.emplace_back("simt__wavefronts_ideal_shared_op_" + op, c.ideal);
    }
    std::uint64_t instructions = t.sync.instructions, lanes = t.sync.lanes, partial = 0;
    for (const auto& space : t.mem)
        for (const Counts& c : space)
            instructions += c.requests, lanes += c.lanes, partial += c.partial;
    m.emplace_back("smsp__thread_inst_executed_per_inst_executed.ratio",
                   instructions ? double(lanes) / double(instructions) : 0.0);
    m.emplace_back("simt__warp_instructions", instructions);
    m.emplace_back("simt__thread_instructions", lanes);
    m.emplace_back("simt__requests_partial_mask", partial);
    return m;
}

using Json = nlohmann::ordered_json;  // as report/format.cpp writes findings: keys in order

/// A count as an integer, a ratio as the shortest decimal that reads back the same.
Json json_number(double v) {
    if (v == std::floor(v) && std::fabs(v) < 9.0e15) return static_cast<std::int64_t>(v);
    return v;
}

Json json_metrics(const Metrics& m) {
    Json o = Json::object();
    for (const auto& [name, value] : m) o[name] = json_number(value);
    return o;
}

/// What a kernel's launches from one site add up to, for the text report at exit.
struct KernelTotals {
    std::string name, site;
    dim3 grid{}, block{};
    bool shapes_differ = false;
    unsigned launches = 0;
    Tally tally;
    LineMap lines;
    Metrics occupancy;
    std::string occupancy_text;
    TimePrediction first_prediction;  ///< the first launch's, with the terms behind it
    double predicted_us = 0;          ///< every launch's together
};

std::string fixed(double v) {
    char buf[32];
    if (v == static_cast<double>(static_cast<std::int64_t>(v)) && v < 1e15)
        std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
    else std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

/// Why a line costs more than its ideal, from how its lanes spread.
std::string why(const LineKey& k, const SiteStats& s) {
    const std::int64_t stride = s.stride < 0 ? -s.stride : s.stride;
    if (s.pattern == Pattern::scattered)
        return k.space == Space::shared ? "the lanes' addresses meet in a bank"
                                        : "the lanes' addresses are scattered";
    if (s.pattern != Pattern::strided) return "";
    const std::string apart = "lanes are " + std::to_string(stride) + " bytes apart";
    if (k.space == Space::shared) {
        if (stride == 0) return "";
        return apart + (stride % 128 == 0
                            ? ": all in one bank; padding each row by one element spreads them"
                            : ": lanes that far apart fall in one bank");
    }
    if (stride == 0) return "";
    if (stride >= 32)
        return "each lane in its own sector: " + apart +
               (stride >= 128 ? ", as when the warp goes down a column" : "");
    if (stride == static_cast<std::int64_t>(s.size))
        return "contiguous, but not aligned to 32-byte sectors";
    return apart + ": of each sector only " + std::to_string(s.size) + " of every " +
           std::to_string(stride) + " bytes are used";
}

/// How often a source line's threads ran it: the most of any of its accesses, or of any basic
/// block that holds its code (BlockProfile::code_runs); and a path to read its text from.
struct LineRun {
    std::string path;
    std::uint64_t runs = 0;
};
/// By (file name without its folder, line): a view's site names its file as the compiler was
/// given it (often relative), the debug information that names a raw access's or a block's
/// file joins it with the build's folder, and the same line must not count twice.
using LineRuns = std::map<std::pair<std::string, unsigned>, LineRun>;

/// Adds to `arrays` the arrays that the sectors of `s` lie in.
void arrays_of(const SectorSet& s, std::unordered_set<const Allocation*>& arrays) {
    s.each_chunk([&](std::uint64_t first, const std::bitset<4096>& bits) {
        const std::uintptr_t chunk_end = (first + bits.size()) * 32;
        const Allocation* a = nullptr;
        for (std::size_t i = 0; i < bits.size(); ++i) {
            if (!bits[i]) continue;
            const std::uintptr_t at = (first + i) * 32;
            if (a && at >= reinterpret_cast<std::uintptr_t>(a->base) &&
                at < reinterpret_cast<std::uintptr_t>(a->base) + a->size)
                continue;
            const void* p = reinterpret_cast<const void*>(at);
            a = arena::contains(p) ? arena::owner_in_range(p) : nullptr;
            if (!a) continue;
            arrays.insert(a);
            // An array that holds the rest of the chunk: no other array can be in it.
            if (reinterpret_cast<std::uintptr_t>(a->base) + a->size >= chunk_end) break;
        }
    });
}

/// The 32-byte sectors of `arrays`, in all.
std::uint64_t sectors_of(const std::unordered_set<const Allocation*>& arrays) {
    std::uint64_t n = 0;
    for (const Allocation* a : arrays) n += (a->size + 31) / 32;
    return n;
}

/// A launch's counts by line and in all, from its sites: a raw access's return address becomes
/// its line here, once per site.
struct Summary {
    LineMap lines;
    Tally total;
    LineRuns line_runs;
    bool every_line = false;  ///< line_runs has every line that ran (LaunchWork::every_line)
};

class Profiler final : public Checker {
public:
    Profiler() : Checker(/*wants_accesses=*/true, /*serial_blocks=*/false) {
        the_profiler = this;
        predict_running = [](const GridRun& g, TimePrediction& out) {
            return the_profiler->predict_partial(g, out);
        };
    }

    bool enabled(const Config& c) const override { return profiler_counts(c); }

    static bool asked(const Config& c) { return c.profile_text || !c.profile_json.empty(); }

    void launch_begin(GridRun& g) override {
        std::lock_guard lock(m_);
        running_[&g] = {};
        if (unchecked_files.load(std::memory_order_relaxed) && asked(g.cfg) && !unchecked_said_) {
            unchecked_said_ = true;
            std::fprintf(
                stderr,
                "simt: SIMT_PROFILE: part of this program was built UNCHECKED (--unchecked "
                "or the UNCHECKED option): its raw and view accesses reach no hook and are "
                "not counted; build it checked to profile it\n");
        }
    }

    void block_begin(BlockState& b) override {
        tls_block_profile.begin(b);
        tls_profile = &tls_block_profile;
    }

    void access(const AccessEvent& e) override {
        // An atomic call's compare-and-swap after its load: the call was counted at its load.
        if (tls_profile_uncounted && tls_atomic_note == tls_profile_uncounted) [[unlikely]]
            return;
        if (tls_profile) tls_profile->record(e);
    }

    void barrier_release(BlockState&, const Loc&) override {
        if (tls_profile) tls_profile->barrier();
    }

    void block_end(BlockState& b) override {
        BlockProfile* p = tls_profile;
        if (!p) return;
        p->flush_all();
        p->settle_code();
        tls_profile = nullptr;
        std::lock_guard lock(m_);
        LaunchTally& t = running_[b.grid];
        for (const auto& [pc, runs] : p->code_runs) t.code_runs[pc] += runs;
        for (const auto& [key, stats] : p->sites) t.sites[key].add(stats);
        t.sync.instructions += p->sync.instructions;
        t.sync.lanes += p->sync.lanes;
        t.read.merge(p->read);
        t.l1_hits += p->l1_hits();
        t.written.merge(p->written);
        t.static_shared = std::max(t.static_shared, b.shared_bytes);
        ++t.blocks;
    }

    void launch_end(GridRun& g) override {
        LaunchTally t;
        {
            std::lock_guard lock(m_);
            auto it = running_.find(&g);
            if (it == running_.end()) return;
            t = std::move(it->second);
            running_.erase(it);
        }
        report(g, t);
    }

    void exit() override {
        std::lock_guard lock(m_);
        if (!config().profile_text) return;
        bool memory_lines_only = false;
        for (const KernelTotals& k : kernels_) {
            print(k);
            memory_lines_only |= !k.first_prediction.every_line;
        }
        if (memory_lines_only)
            std::fputs(
                "simt: SIMT_PROFILE: the compute term counts the arithmetic of lines that "
                "access memory only; build with -lineinfo (simt-nvcc, ./lab run --profile) "
                "or LINEINFO (simt_add_executable) to count every line\n",
                stderr);
    }

private:
    void report(GridRun& g, const LaunchTally& t) {
        const KernelLaunch& k = g.k;
        const Summary summary = summarize(t, k.site);
        const LineMap& lines = summary.lines;
        const Tally& total = summary.total;
        Metrics occupancy;
        std::string occupancy_text;
        occupancy_of(k, t.static_shared, g.nblocks, occupancy, occupancy_text);

        std::lock_guard lock(m_);
        const TimePrediction predicted =
            predict_time(gpu_model(), work(g, t, total, occupancy, summary));
        const std::string site = file_line(k.site.file_name(), k.site.line());
        auto kt = std::find_if(kernels_.begin(), kernels_.end(),
                               [&](const KernelTotals& x) { return x.site == site; });
        if (kt == kernels_.end()) {
            kt = kernels_.emplace(kernels_.end());
            kt->name = kernel_name(k.site);
            kt->site = site;
            kt->grid = k.grid;
            kt->block = k.block;
        }
        if (kt->launches &&
            (kt->grid.x != k.grid.x || kt->grid.y != k.grid.y || kt->grid.z != k.grid.z ||
             kt->block.x != k.block.x || kt->block.y != k.block.y || kt->block.z != k.block.z))
            kt->shapes_differ = true;
        ++kt->launches;
        kt->tally.add(total);
        for (const auto& [lk, stats] : lines) kt->lines[lk].add(stats);
        kt->occupancy = occupancy;
        kt->occupancy_text = occupancy_text;
        if (kt->launches == 1) kt->first_prediction = predicted;
        kt->predicted_us += predicted.us;
        // Accesses of files built UNCHECKED were not counted: no time for the GPU's clock.
        if (!unchecked_files.load(std::memory_order_relaxed))
            clock_launch_predicted(k.serial, predicted.us, kt->name);

        if (report_page_on()) page_launch(page_entry(g, t, summary, predicted, kt->name));
        const std::string& path = g.cfg.profile_json;
        if (path.empty()) return;
        Metrics all = metrics_of(total, true);
        all.insert(all.end(), occupancy.begin(), occupancy.end());
        Json launch;
        launch["kernel"] = kt->name.empty() ? "?" : kt->name;
        launch["launch"] = {{"file", base_name(k.site.file_name())}, {"line", k.site.line()}};
        launch["grid"] = {k.grid.x, k.grid.y, k.grid.z};
        launch["block"] = {k.block.x, k.block.y, k.block.z};
        launch["metrics"] = json_metrics(all);
        launch["predicted_us"] = predicted.us;
        launch["bound"] = bound_name(predicted.bound);
        launch["prediction"] = prediction_json(predicted);
        // One entry per source line, its accesses' metrics together.
        std::map<std::pair<std::string, unsigned>, Tally> by_line;
        for (const auto& [lk, stats] : lines)
            by_line[{lk.file, lk.line}].add(lk.space, lk.kind, stats.c);
        launch["lines"] = Json::array();
        for (const auto& [fl, tally] : by_line)
            launch["lines"].push_back({{"file", fl.first},
                                       {"line", fl.second},
                                       {"metrics", json_metrics(metrics_of(tally, false))}});
        const std::string json = launch.dump() + "\n";
        if (!json_.is_open()) {
            // Each run writes the file afresh: one object per launch of this run.
            json_.open(path, std::ios::trunc);
            if (!json_) {
                std::fprintf(stderr, "simt: SIMT_PROFILE: cannot open %s for writing\n",
                             path.c_str());
                return;
            }
        }
        json_ << json << std::flush;
    }

    /// The launch as the report page draws it (web/report/report.schema.json's "launch"):
    /// the profile's counts per line with their sampled requests and divergence, the roofline's
    /// point and the occupancy curve, each worked out here. Caller holds m_.
    static Json page_entry(const GridRun& g, const LaunchTally& t, const Summary& summary,
                           const TimePrediction& predicted, const std::string& kernel) {
        const KernelLaunch& k = g.k;
        page_source(k.site.file_name());
        Json launch;
        launch["kernel"] = kernel.empty() ? "?" : kernel;
        launch["launch"] = {{"file", base_name(k.site.file_name())}, {"line", k.site.line()}};
        launch["grid"] = {k.grid.x, k.grid.y, k.grid.z};
        launch["block"] = {k.block.x, k.block.y, k.block.z};
        launch["predicted_us"] = predicted.us;
        launch["bound"] = bound_name(predicted.bound);
        launch["metrics"] = json_metrics(metrics_of(summary.total, true));
        // The roofline's axes are the time model's own terms: thread arithmetic over the bytes
        // DRAM delivers, and that arithmetic over the predicted time.
        const double us = std::max(predicted.us, 1e-9);
        launch["roofline"] = {{"ops", predicted.thread_ops},
                              {"dram_bytes", predicted.dram_bytes},
                              {"intensity", predicted.dram_bytes > 0
                                                ? Json(predicted.thread_ops / predicted.dram_bytes)
                                                : Json(nullptr)},
                              {"ops_per_s", predicted.thread_ops / (us * 1e-6)},
                              {"every_line", predicted.every_line}};
        launch["occupancy"] = page_occupancy(k, t.static_shared, g.nblocks);
        Json lines = Json::array();
        for (const auto& [lk, stats] : summary.lines) {
            const bool shared = lk.space == Space::shared, global = lk.space == Space::global;
            Json line = {{"file", lk.file},
                         {"line", lk.line},
                         {"space", shared ? "shared" : global ? "global" : "constant"},
                         {"op", lk.kind == Op::ld   ? "load"
                                : lk.kind == Op::st ? "store"
                                : lk.kind == Op::atom ? "atomic"
                                                      : "reduction"},
                         {"requests", stats.c.requests},
                         {"lanes", stats.c.lanes},
                         {"partial", stats.c.partial},
                         {"actual", stats.c.actual},
                         {"ideal", stats.c.ideal},
                         {"unit", shared ? "wavefronts" : global ? "sectors" : "requests"}};
            if (stats.pictures) page_pictures(line, *stats.pictures, lk.space);
            lines.push_back(std::move(line));
        }
        launch["lines"] = std::move(lines);
        return launch;
    }

    /// A line's two sampled requests, each lane placed in its sector and line (global) or bank
    /// (shared) by the same rules the counters use (counters.hpp), and its divergence.
    static void page_pictures(Json& line, const SitePictures& p, Space space) {
        const Allocation* array = p.first.array ? p.first.array : p.costliest.array;
        if (array) {
            line["array"] = array_name(array);
            if (!untyped(array)) line["element_size"] = array->elem_size;
        }
        Json samples = Json::array();
        for (const SampledRequest* s : {&p.first, &p.costliest}) {
            if (!s->set()) continue;
            const char* which = s == &p.first ? "first" : "costliest";
            const auto base = s->array ? reinterpret_cast<std::uint64_t>(s->array->base) : 0;
            Json lanes = Json::array();
            std::map<std::uint64_t, std::set<std::uint64_t>> bank_words;
            for (std::uint32_t m = s->r.mask; m; m &= m - 1) {
                const unsigned l = static_cast<unsigned>(std::countr_zero(m));
                const std::uint64_t a = s->r.address[l];
                Json lane = {{"lane", l},
                             {"offset", static_cast<std::int64_t>(a - base)},
                             {"size", s->r.size[l]}};
                if (s->array && !untyped(s->array) && s->array->elem_size)
                    lane["index"] = static_cast<std::int64_t>(a - base) /
                                    static_cast<std::int64_t>(s->array->elem_size);
                if (space == Space::global) {
                    lane["sector"] = static_cast<std::int64_t>(a / 32) -
                                     static_cast<std::int64_t>(base / 32);
                    lane["line"] = static_cast<std::int64_t>(a / 128) -
                                   static_cast<std::int64_t>(base / 128);
                } else if (space == Space::shared) {
                    lane["bank"] = (a / 4) % 32;
                    bank_words[(a / 4) % 32].insert(a / 4);
                }
                lanes.push_back(std::move(lane));
            }
            Json sample = {{"which", which},
                           {"block", {s->block.x, s->block.y, s->block.z}},
                           {"warp", s->warp},
                           {"mask", s->r.mask},
                           {"actual", s->cost.actual},
                           {"ideal", s->cost.ideal}};
            if (space == Space::shared) {
                std::size_t ways = 0;
                for (const auto& [bank, words] : bank_words) ways = std::max(ways, words.size());
                sample["conflict_ways"] = ways;
            }
            sample["lanes"] = std::move(lanes);
            samples.push_back(std::move(sample));
        }
        line["samples"] = std::move(samples);
        Json divergence = Json::array();
        for (const auto& [warp, masks] : p.masks)
            divergence.push_back({{"warp", warp}, {"masks", masks}});
        line["divergence"] = std::move(divergence);
    }

    /// The launch's occupancy and the curve Nsight Compute draws beside it: warps per
    /// multiprocessor for every block size a warp apart, at the launch's shared memory.
    static Json page_occupancy(const KernelLaunch& k, std::size_t static_shared,
                               std::uint64_t blocks) {
        const int threads = static_cast<int>(k.block.x * k.block.y * k.block.z);
        const std::size_t shared = k.shared_bytes + static_shared;
        Json o = {{"threads", threads}, {"shared_bytes", shared}};
#if SIMT_PROFILE_OCCUPANCY
        const DeviceProperties& device = simt::device_properties();
        const Occupancy at =
            occupancy(device, threads, shared, 0, static_cast<long long>(blocks));
        o["registers"] = at.registers_per_thread;
        o["registers_assumed"] = at.registers_assumed;
        o["warps"] = at.active_warps;
        o["theoretical_pct"] = at.theoretical_pct;
        o["limits"] = {{"warps", at.limit_warps},
                       {"registers", at.limit_registers},
                       {"shared_mem", at.limit_shared_mem},
                       {"blocks", at.limit_blocks}};
        Json curve = Json::array();
        for (int n = 32; n <= device.max_threads_per_block; n += 32)
            curve.push_back({{"threads", n}, {"warps", occupancy(device, n, shared, 0, 0).active_warps}});
        o["curve"] = std::move(curve);
#else
        (void)blocks;
        o["registers"] = 0, o["warps"] = 0, o["theoretical_pct"] = 0;
        o["limits"] = Json::object(), o["curve"] = Json::array();
#endif
        return o;
    }

    Summary summarize(const LaunchTally& t, const Loc& launch_site) {
        Summary s;
        s.total.sync = t.sync;
        for (const auto& [key, stats] : t.sites) {
            Loc loc = key.raw ? loc_of(key.where) : std::bit_cast<Loc>(key.where);
            if (key.where && loc.file_name()) {
                ran(s.line_runs, loc.file_name(), loc.line(), stats.c.lanes);
                if (stats.pictures) page_source(loc.file_name());
            }
            const Op op = key.kind == Access::read    ? Op::ld
                          : key.kind == Access::write ? Op::st
                          : key.space == Space::global && key.where && result_unused(loc)
                              ? Op::red
                              : Op::atom;
            LineKey lk{base_name(key.where ? loc.file_name() : nullptr), key.where ? loc.line() : 0,
                       key.space, op};
            s.lines[lk].add(stats);
            s.total.add(key.space, op, stats.c);
        }
        // A program built with simt::lineinfo: each line runs as often as the most-run basic
        // block that holds its code, lines that compute on registers alone included.
        // The launch statement's line holds the code that starts each thread (simt's, inlined
        // there), not the kernel's.
        for (const auto& [pc, runs] : t.code_runs)
            for (const auto& [file, line] : code_lines(pc)) {
                if (line == launch_site.line() &&
                    std::strcmp(base_name(file), base_name(launch_site.file_name())) == 0)
                    continue;
                ran(s.line_runs, file, line, runs);
                s.every_line = true;
            }
        return s;
    }

    static void ran(LineRuns& lines, const char* file, unsigned line, std::uint64_t runs) {
        LineRun& r = lines[{base_name(file), line}];
        if (r.path.empty() || (file[0] == '/' && r.path[0] != '/')) r.path = file;
        r.runs = std::max(r.runs, runs);
    }

    /// The whole launch's time from the blocks counted so far, for the progress line of a long
    /// launch (check/checker.hpp's `predict_running`): each count scaled by the blocks still to
    /// come. False before a block has been counted.
    bool predict_partial(const GridRun& g, TimePrediction& out) {
        LaunchTally t;
        {
            std::lock_guard lock(m_);
            auto it = running_.find(&g);
            if (it == running_.end() || it->second.blocks == 0) return false;
            const LaunchTally& r = it->second;
            t.sites = r.sites;
            t.sync = r.sync;
            t.l1_hits = r.l1_hits;
            t.static_shared = r.static_shared;
            t.blocks = r.blocks;
            t.code_runs = r.code_runs;
            t.read.merge(r.read);
            t.written.merge(r.written);
        }
        const Summary summary = summarize(t, g.k.site);
        Metrics occupancy;
        std::string occupancy_text;
        occupancy_of(g.k, t.static_shared, g.nblocks, occupancy, occupancy_text);
        std::lock_guard lock(m_);
        LaunchWork w = work(g, t, summary.total, occupancy, summary);
        const double scale = double(g.nblocks) / double(t.blocks);
        for (std::uint64_t* count :
             {&w.sectors, &w.l1_hit_sectors, &w.distinct_read_sectors, &w.distinct_written_sectors,
              &w.distinct_sectors, &w.shared_wavefronts, &w.global_waits, &w.warp_instructions,
              &w.thread_ops})
            *count = static_cast<std::uint64_t>(double(*count) * scale);
        // Blocks that share what they read (a matrix multiply's inputs) touch no more distinct
        // sectors together than the arrays hold: scaled, the footprint stops there.
        std::unordered_set<const Allocation*> read, written;
        arrays_of(t.read, read);
        arrays_of(t.written, written);
        w.distinct_read_sectors = std::min(w.distinct_read_sectors, sectors_of(read));
        w.distinct_written_sectors = std::min(w.distinct_written_sectors, sectors_of(written));
        read.insert(written.begin(), written.end());
        w.distinct_sectors = std::min(w.distinct_sectors, sectors_of(read));
        out = predict_time(gpu_model(), w);
        return true;
    }

    /// The time model's inputs for one launch (device/timing.hpp), from its counts. Caller holds m_.
    LaunchWork work(const GridRun& g, const LaunchTally& t, const Tally& total,
                    const Metrics& occupancy, const Summary& summary) {
        LaunchWork w;
        const unsigned G = static_cast<unsigned>(Space::global),
                       S = static_cast<unsigned>(Space::shared);
        w.warp_instructions = total.sync.instructions;
        for (const auto& space : total.mem)
            for (const Counts& c : space) w.warp_instructions += c.requests;
        for (const Counts& c : total.mem[G]) w.sectors += c.actual;
        for (Op waited : {Op::ld, Op::atom})
            w.global_waits += total.mem[G][static_cast<unsigned>(waited)].requests;
        w.l1_hit_sectors = t.l1_hits;
        for (const Counts& c : total.mem[S]) w.shared_wavefronts += c.actual;
        w.distinct_read_sectors = t.read.count();
        w.distinct_written_sectors = t.written.count();
        w.distinct_sectors = t.read.count_with(t.written);
        for (const auto& [line, run] : summary.line_runs) {
            auto [it, fresh] = line_ops_.try_emplace({run.path, line.second}, 0);
            if (fresh) {
                std::vector<std::string> text =
                    source_lines(run.path.c_str(), line.second, line.second);
                it->second = text.empty() ? 0 : profile::arithmetic_ops(text.front());
            }
            w.thread_ops += it->second * run.runs;
        }
        w.every_line = summary.every_line;
        const dim3 b = g.k.block;
        w.warps = g.nblocks * ((std::uint64_t(b.x) * b.y * b.z + 31) / 32);
        for (const auto& [name, value] : occupancy)
            if (name == "launch__waves_per_multiprocessor") w.waves = value;
        return w;
    }

    static void occupancy_of(const KernelLaunch& k, std::size_t static_shared, std::uint64_t blocks,
                             Metrics& m, std::string& text) {
#if SIMT_PROFILE_OCCUPANCY
        const int threads = static_cast<int>(k.block.x * k.block.y * k.block.z);
        Occupancy o = occupancy(simt::device_properties(), threads, k.shared_bytes + static_shared,
                                0, static_cast<long long>(blocks));
        m = {{"sm__maximum_warps_per_active_cycle_pct", o.theoretical_pct},
             {"launch__occupancy_limit_blocks", o.limit_blocks},
             {"launch__occupancy_limit_registers", o.limit_registers},
             {"launch__occupancy_limit_shared_mem", o.limit_shared_mem},
             {"launch__occupancy_limit_warps", o.limit_warps},
             {"launch__waves_per_multiprocessor", o.waves_per_multiprocessor},
             {"launch__registers_per_thread", o.registers_per_thread},
             {"simt__registers_assumed", o.registers_assumed ? 1 : 0}};
        char buf[320];
        std::snprintf(
            buf, sizeof buf,
            "%s%% theoretical, %d warps per multiprocessor (limits in blocks: warps %d, "
            "registers %d, shared memory %d, blocks %d), %.3g waves; %d registers per "
            "thread%s",
            fixed(o.theoretical_pct).c_str(), o.active_warps, o.limit_warps, o.limit_registers,
            o.limit_shared_mem, o.limit_blocks, o.waves_per_multiprocessor, o.registers_per_thread,
            o.registers_assumed ? " assumed (the simulator cannot know nvcc's count)" : "");
        text = buf;
#else
        (void)k, (void)static_shared, (void)blocks, (void)m, (void)text;
#endif
    }

    static void print(const KernelTotals& k) {
        std::string out = "simt profile: kernel " + (k.name.empty() ? std::string("?") : k.name) +
                          " launched at " + k.site + ": " + std::to_string(k.launches) +
                          (k.launches == 1 ? " launch" : " launches") + ", grid " +
                          coord({k.grid.x, k.grid.y, k.grid.z}) + " x block " +
                          coord({k.block.x, k.block.y, k.block.z}) +
                          (k.shapes_differ ? " (the first; others differ)" : "") + "\n";
        const unsigned G = static_cast<unsigned>(Space::global),
                       S = static_cast<unsigned>(Space::shared);
        char buf[256];
        bool header = false;
        for (Op a : kOps) {
            const Counts& c = k.tally.mem[G][static_cast<unsigned>(a)];
            if (!c.requests) continue;
            if (!header) {
                out += "                    requests     sectors       ideal   per request\n";
                header = true;
            }
            std::snprintf(buf, sizeof buf, "  global %-8s %11llu %11llu %11llu   %s (ideal %s)\n",
                          kind_word(a), (unsigned long long)c.requests,
                          (unsigned long long)c.actual, (unsigned long long)c.ideal,
                          fixed(double(c.actual) / c.requests).c_str(),
                          fixed(double(c.ideal) / c.requests).c_str());
            out += buf;
        }
        header = false;
        for (Op a : kOps) {
            const Counts& c = k.tally.mem[S][static_cast<unsigned>(a)];
            if (!c.requests) continue;
            if (!header) {
                out += "                    requests  wavefronts       ideal   bank conflicts\n";
                header = true;
            }
            std::snprintf(buf, sizeof buf, "  shared %-8s %11llu %11llu %11llu   %llu\n",
                          kind_word(a), (unsigned long long)c.requests,
                          (unsigned long long)c.actual, (unsigned long long)c.ideal,
                          (unsigned long long)(c.actual - c.ideal));
            out += buf;
        }
        Metrics m = metrics_of(k.tally, false);
        auto value = [&](const char* name) {
            for (const auto& [n, v] : m)
                if (n == name) return v;
            return 0.0;
        };
        if (value("simt__warp_instructions") == 0) {
            out += "  divergence: nothing counted (no memory access, barrier or warp intrinsic)\n";
        } else {
            std::snprintf(buf, sizeof buf,
                          "  divergence: %.1f active lanes per warp-level instruction (32: none), "
                          "over %llu memory requests, barriers and warp intrinsics\n",
                          value("smsp__thread_inst_executed_per_inst_executed.ratio"),
                          (unsigned long long)value("simt__warp_instructions"));
            out += buf;
        }
        if (!k.occupancy_text.empty()) out += "  occupancy: " + k.occupancy_text + "\n";
        out += "  time: " + prediction_text(k.first_prediction, k.predicted_us, k.launches) + "\n";

        // The worst lines: most excess sectors or wavefronts first, then most partial masks.
        std::vector<std::pair<LineKey, SiteStats>> worst;
        for (const auto& [lk, s] : k.lines)
            if ((lk.space != Space::constant && s.c.actual > s.c.ideal) || s.c.partial)
                worst.emplace_back(lk, s);
        std::stable_sort(worst.begin(), worst.end(), [](const auto& a, const auto& b) {
            std::uint64_t xa = a.second.c.actual - a.second.c.ideal,
                          xb = b.second.c.actual - b.second.c.ideal;
            return xa != xb ? xa > xb : a.second.c.partial > b.second.c.partial;
        });
        if (worst.size() > 5) worst.resize(5);
        if (!worst.empty()) out += "  worst lines:\n";
        for (const auto& [lk, s] : worst) {
            const double n = double(s.c.requests);
            std::string line = "    " + file_line(lk.file.c_str(), lk.line) + " " +
                               (lk.space == Space::shared     ? "shared "
                                : lk.space == Space::constant ? "constant "
                                                              : "") +
                               kind_word(lk.kind) + ":";
            if (s.c.actual > s.c.ideal) {
                const bool shared = lk.space == Space::shared;
                line += " " + fixed(s.c.actual / n) + (shared ? " wavefronts" : " sectors") +
                        " per request, ideal " + fixed(s.c.ideal / n);
                std::string w = why(lk, s);
                if (!w.empty()) line += " (" + w + ")";
            }
            if (s.c.partial) {
                if (s.c.actual > s.c.ideal) line += ";";
                line += " " + std::to_string(s.c.partial) + " of " + std::to_string(s.c.requests) +
                        " requests with a partial mask, " + fixed(double(s.c.lanes) / n) +
                        (s.c.lanes == s.c.requests ? " lane" : " lanes") + " on average";
            }
            out += line + "\n";
        }
        std::fputs(out.c_str(), stderr);
    }

    /// Whether the atomic call at `loc` drops its result, read from its source line once.
    bool result_unused(const Loc& loc) {
        const char* file = loc.file_name();
        if (!file || !*file) return false;
        std::lock_guard lock(unused_m_);
        auto [it, added] = unused_.try_emplace({file, loc.line()}, false);
        if (added) it->second = atomic_result_unused(file, loc.line());
        return it->second;
    }

    std::mutex unused_m_;
    std::map<std::pair<std::string, unsigned>, bool> unused_;
    std::mutex m_;
    std::map<const GridRun*, LaunchTally> running_;
    /// Arithmetic operators per source line (profile::arithmetic_ops), read once per line.
    std::map<std::pair<std::string, unsigned>, unsigned> line_ops_;
    std::vector<KernelTotals> kernels_;  ///< in the order of their first launch
    std::ofstream json_;
    bool unchecked_said_ = false;
};

}  // namespace

}  // namespace profile

void profile_warp_meeting(BlockState& b, unsigned warp, unsigned mask) {
    profile::BlockProfile* p = tls_profile;
    if (!p || p->block != &b || warp >= p->warps.size()) return;
    ++p->sync.instructions;
    p->sync.lanes += static_cast<unsigned>(std::popcount(mask));
    if (p->warps[warp].used) p->flush(warp);
}

std::unique_ptr<Checker> make_profiler() { return std::make_unique<profile::Profiler>(); }

}  // namespace simt::sim::detail

// The compiler's coverage instrumentation (-fsanitize-coverage=trace-pc, cmake/simt.cmake) calls
// this at the start of every basic block of a checked program. The access hooks see only the
// lines that touch memory; this is how the profiler counts the others, a loop of multiply-adds
// on registers included. Outside a profiled block it is a thread-local load and a branch.
extern "C" void __sanitizer_cov_trace_pc() {
    if (simt::sim::detail::profile::BlockProfile* p = simt::sim::detail::tls_profile) [[unlikely]]
        p->ran_code(__builtin_return_address(0));
}
