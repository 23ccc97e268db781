// The report page's data and its writing (page.hpp). The numbers come from elsewhere; this file
// keeps them, bounded, and writes them into the template web/report builds.
#include "page.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>

#include "finding.hpp"
#include "symbolize.hpp"
#include "text.hpp"
#include "../device/model.hpp"
#include "../device/timing.hpp"

extern char* program_invocation_short_name;  // glibc's: the program's name, for the summary

namespace simt::sim::detail {

namespace {

/// Everything the page will show, kept as it is handed over. Never destroyed: the page is
/// written on the way out of the process, after static destructors may have run.
struct PageState {
    std::mutex m;
    std::string path;
    bool written = false;
    std::map<std::string, std::string> sources;  ///< base name -> the path to read it from
    PageJson findings = PageJson::array();
    unsigned findings_dropped = 0;
    PageJson launches = PageJson::array();
    unsigned launches_dropped = 0;
    PageJson ended = {{"how", "normally"}};
    PageJson (*timeline)() = nullptr;
};
PageState& state() {
    static PageState* s = new PageState;
    return *s;
}

constexpr unsigned kLaunchesKept = 400;

PageJson triple(uint3 c) { return PageJson::array({c.x, c.y, c.z}); }

/// The advice a finding's text ends with: what would have ordered a race, what guards an index.
std::string last_line(const std::string& text) {
    std::size_t end = text.find_last_not_of(" \n");
    if (end == std::string::npos) return "";
    std::size_t start = text.rfind('\n', end);
    start = start == std::string::npos ? 0 : start + 1;
    while (start < end && text[start] == ' ') ++start;
    return text.substr(start, end - start + 1);
}

/// The array a finding names, as cells: its element count in the unit the finding indexes it
/// by, its shape where it is declared (or viewed) in two dimensions, and the window of cells
/// the page draws around the element (kPageBounds.elements_per_array).
void array_cells(PageJson& p, const Draft& d, long long past_end_cells) {
    const Allocation* a = d.array;
    const std::size_t unit =
        untyped(a) ? std::max<std::size_t>(d.access_size, 1) : std::max<std::size_t>(a->elem_size, 1);
    const long long elements = static_cast<long long>(a->size / unit);
    p["elements"] = elements;
    p["element"] = d.element;
    p["element_size"] = unit;
    if (a->rank >= 2) p["shape"] = {a->extents[a->rank - 2], a->extents[a->rank - 1]};
    else if (d.view_extent.size() == 2) p["shape"] = d.view_extent;
    const long long span = kPageBounds.elements_per_array, cells = elements + past_end_cells;
    long long lo = std::max(0LL, std::min(d.element - span / 2, cells - span));
    p["window"] = {lo, std::min(cells, lo + span)};
}

PageJson site_json(const DraftSite& s) {
    PageJson j = {{"block", triple(s.block)},
                  {"thread", triple(s.thread)},
                  {"file", base_name(s.loc.file_name())},
                  {"line", s.loc.line()},
                  {"access", s.access}};
    if (s.host) j["host"] = true;
    return j;
}

PageJson ranks_json(const std::vector<std::uint64_t>& ranks) {
    const std::size_t kept = std::min<std::size_t>(ranks.size(), 4096);
    return PageJson(std::vector<std::uint64_t>(ranks.begin(), ranks.begin() + kept));
}

/// What the page draws for a finding, from its draft (web/report/report.schema.json, and
/// docs/report-page.md's table of pictures).
PageJson picture(const Draft& d, const Finding& f) {
    PageJson p = PageJson::object();
    switch (d.kind) {
        case FindingKind::data_race: {
            if (d.array) array_cells(p, d, 0);
            PageJson threads = PageJson::array();
            for (std::size_t i = 0; i < d.sites.size() && i < 2; ++i)
                threads.push_back(site_json(d.sites[i]));
            p["threads"] = std::move(threads);
            p["ordered_by"] = last_line(f.text);
            break;
        }
        case FindingKind::out_of_bounds:
        case FindingKind::use_after_free: {
            if (!d.array) break;
            // Past the end lies the rest of the array's last page, then a red page (memory/
            // arena.hpp): where an access just outside the array lands, harmlessly.
            const std::size_t unit = std::max<std::size_t>(
                untyped(d.array) ? d.access_size : d.array->elem_size, 1);
            const std::size_t page = 4096,
                              red = (d.array->size + page - 1) / page * page + page - d.array->size;
            const long long red_cells = static_cast<long long>(red / unit);
            array_cells(p, d, d.array->space == Space::global ? red_cells : 0);
            if (d.array->space == Space::global) p["red_zone_elements"] = red_cells;
            p["index"] = d.element;
            PageJson threads = PageJson::array();
            for (const DraftSite& s : d.sites)
                if (!s.host) threads.push_back(site_json(s));
            p["threads"] = std::move(threads);
            p["threads_total"] = f.threads;
            break;
        }
        case FindingKind::uninitialized_read:
            if (d.array) array_cells(p, d, 0);
            p["index"] = d.element;
            // The checker knows, at the read, that this element was never written; the page
            // marks that element (the others' state is not kept once the launch ends).
            p["never_written"] = PageJson::array({PageJson::array({d.element, d.element})});
            break;
        case FindingKind::deadlock:
        case FindingKind::barrier_divergence: {
            const DeadlockDraft& dd = d.deadlock;
            if (!dd.set) break;
            p["grid"] = dd.grid;
            p["block_dim"] = {dd.shape.x, dd.shape.y, dd.shape.z};
            p["block"] = triple(dd.block);
            PageJson waiting = PageJson::array();
            for (const DeadlockDraft::Waiting& w : dd.waiting)
                waiting.push_back({{"what", w.what},
                                   {"file", base_name(w.site.file_name())},
                                   {"line", w.site.line()},
                                   {"threads", ranks_json(w.ranks)},
                                   {"count", w.ranks.size()},
                                   {"spins", w.spins}});
            p["waiting"] = std::move(waiting);
            p["exited"] = dd.exited;
            p["ended"] = ranks_json(dd.ended);
            break;
        }
        case FindingKind::barrier_exit:
            p["block_dim"] = {d.shape.x, d.shape.y, d.shape.z};
            p["exited_threads"] = ranks_json(d.ranks);
            break;
        case FindingKind::warp_mask:
        case FindingKind::warp_divergence: {
            const WarpMisuseDraft& m = d.misuse;
            p["mask"] = m.mask;
            p["lane"] = m.lane;
            p["warp"] = m.warp;
            p["tile"] = m.tile;
            if (m.problem == WarpMisuseDraft::Problem::reads_outside_mask) p["source"] = m.source;
            p["problem"] = last_line(f.text);
            break;
        }
        default: break;
    }
    return p;
}

/// The lines of a source file, at most kPageBounds.source_lines of them.
PageJson source_json(const std::string& base, const std::string& path) {
    PageJson s = {{"file", base}, {"path", path}};
    std::ifstream in(path);
    PageJson lines = PageJson::array();
    std::string line;
    bool truncated = false;
    while (std::getline(in, line)) {
        if (lines.size() == kPageBounds.source_lines) {
            truncated = true;
            break;
        }
        lines.push_back(line);
    }
    s["lines"] = std::move(lines);
    if (truncated) s["truncated"] = true;
    return s;
}

PageJson device_json() {
    const GpuModel& gpu = gpu_model();
    // The roofs are the time model's rates (device/timing.hpp), as any launch's prediction has them.
    const TimePrediction rates = predict_time(gpu, LaunchWork{});
    PageJson roofs = {{"ops_per_s", rates.ops_per_s},
                      {"dram_bytes_per_s", rates.dram_bytes_per_s},
                      {"l2_bytes_per_s", rates.l2_bytes_per_s},
                      {"ridge", rates.dram_bytes_per_s > 0
                                    ? rates.ops_per_s / rates.dram_bytes_per_s
                                    : 0.0}};
    return {{"key", gpu.key},
            {"name", gpu.name},
            {"multiprocessors", gpu.multiprocessors},
            {"max_warps_per_multiprocessor", gpu.max_threads_per_multiprocessor / 32},
            {"roofs", std::move(roofs)}};
}

#ifndef SIMT_REPORT_PAGE_BUILT
#define SIMT_REPORT_PAGE_BUILT ""
#endif
#ifndef SIMT_REPORT_PAGE_INSTALLED
#define SIMT_REPORT_PAGE_INSTALLED ""
#endif

/// The template web/report built: in the build tree, or where `cmake --install` put it.
std::string page_template() {
    for (const char* path : {SIMT_REPORT_PAGE_BUILT, SIMT_REPORT_PAGE_INSTALLED}) {
        if (!*path) continue;
        std::ifstream in(path, std::ios::binary);
        if (!in) continue;
        std::ostringstream text;
        text << in.rdbuf();
        return text.str();
    }
    return "";
}

constexpr std::string_view kSlot = "__SIMT_REPORT_DATA__";

}  // namespace

bool report_page_to(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "w");
    if (!f) {
        std::fprintf(stderr,
                     "simt: SIMT_REPORT=html:%s: cannot open %s for writing (%s); the program "
                     "runs without a report page\n",
                     path.c_str(), path.c_str(), std::strerror(errno));
        return false;
    }
    std::fclose(f);
    std::lock_guard lock(state().m);
    state().path = path;
    return true;
}

bool report_page_on() {
    // Read on every block's start: the path is set once, before anything runs.
    return !state().path.empty();
}

const std::string& report_page_path() { return state().path; }

void page_source(const char* path) {
    if (!path || !*path || !report_page_on()) return;
    PageState& s = state();
    std::lock_guard lock(s.m);
    auto [it, added] = s.sources.try_emplace(base_name(path), path);
    if (!added && path[0] == '/' && it->second[0] != '/') it->second = path;
}

void page_finding(const Finding& f, const Draft& d) {
    if (!report_page_on()) return;
    for (const DraftSite& site : d.sites) page_source(site.loc.file_name());
    if (d.deadlock.set)
        for (const DeadlockDraft::Waiting& w : d.deadlock.waiting) page_source(w.site.file_name());
    PageJson j = PageJson::parse(format_json(f));
    j["picture"] = picture(d, f);
    PageState& s = state();
    std::lock_guard lock(s.m);
    if (s.findings.size() < kPageBounds.findings) s.findings.push_back(std::move(j));
    else ++s.findings_dropped;
}

void page_launch(PageJson launch) {
    PageState& s = state();
    std::lock_guard lock(s.m);
    if (s.launches.size() < kLaunchesKept) s.launches.push_back(std::move(launch));
    else ++s.launches_dropped;
}

void page_ended(const char* how, int status, std::string text) {
    if (!report_page_on()) return;
    PageState& s = state();
    std::lock_guard lock(s.m);
    if (s.ended["how"] != "normally") return;  // the first way out is the one that counts
    s.ended = {{"how", how}};
    if (status >= 0) s.ended["status"] = status;  // known only where the process ends
    s.ended["text"] = std::move(text);
}

void page_launch_failed(const std::string& what) {
    if (!report_page_on()) return;
    const bool deadlock = what.starts_with("deadlock") || what.find(": deadlock") != what.npos;
    page_ended(deadlock ? "deadlock" : "fault", -1, what);
}

std::string page_html(const PageJson& data) {
    // Any byte sequence goes in as ASCII JSON. A '<' appears only inside its strings, where
    // \u003c reads back the same: no "</script>" or "<!--" in a source line can end the
    // script element early.
    std::string json = data.dump(-1, ' ', true, PageJson::error_handler_t::replace);
    for (std::size_t at = 0; (at = json.find('<', at)) != std::string::npos; at += 6)
        json.replace(at, 1, "\\u003c");
    std::string page = page_template();
    const std::size_t slot = page.find(kSlot);
    if (slot != std::string::npos) return page.replace(slot, kSlot.size(), json);
    return "<!doctype html>\n<meta charset=\"utf-8\">\n<title>simt report</title>\n"
           "<p>simt: this page's scripts were not built with the simulator (Node.js and npm "
           "were not found when it was built; `./lab test` builds them where they are). The "
           "run's data is below, as JSON.</p>\n"
           "<script id=\"simt-data\" type=\"application/json\">" +
           json + "</script>\n<pre id=\"raw\"></pre>\n<script>document.getElementById('raw')"
                  ".textContent=document.getElementById('simt-data').textContent</script>\n";
}

void page_timeline_from(PageJson (*timeline)()) {
    std::lock_guard lock(state().m);
    state().timeline = timeline;
}

void write_report_page() {
    PageState& s = state();
    // On the way out of a fault the lock may be held by the thread that faulted: no page then,
    // rather than no exit.
    std::unique_lock lock(s.m, std::try_to_lock);
    if (!lock || s.written || s.path.empty()) return;
    s.written = true;
    PageJson data;
    data["simt_report"] = 1;
    data["program"] = program_invocation_short_name ? program_invocation_short_name : "";
    data["ended"] = s.ended;
    data["device"] = device_json();
    data["bounds"] = {{"samples_per_line", kPageBounds.samples_per_line},
                      {"divergence_warps", kPageBounds.divergence_warps},
                      {"masks_per_warp", kPageBounds.masks_per_warp},
                      {"source_lines", kPageBounds.source_lines},
                      {"elements_per_array", kPageBounds.elements_per_array},
                      {"findings", kPageBounds.findings},
                      {"findings_dropped", s.findings_dropped},
                      {"launches_kept", kLaunchesKept},
                      {"launches_dropped", s.launches_dropped}};
    data["findings"] = s.findings;
    data["launches"] = s.launches;
    data["timeline"] = s.timeline ? s.timeline() : PageJson{{"gpu", ""}, {"ops", PageJson::array()}};
    PageJson sources = PageJson::array();
    for (const auto& [base, path] : s.sources) sources.push_back(source_json(base, path));
    data["sources"] = std::move(sources);
    std::ofstream out(s.path, std::ios::trunc | std::ios::binary);
    out << page_html(data);
    if (!out) std::fprintf(stderr, "simt: SIMT_REPORT: cannot write %s\n", s.path.c_str());
    else std::fprintf(stderr, "simt: report page written to %s\n", s.path.c_str());
}

}  // namespace simt::sim::detail
