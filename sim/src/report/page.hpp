// The report page (SIMT_REPORT=html:PATH): one HTML file a run leaves, in which every finding,
// counter and launch is drawn (docs/report-page.md).
//
// The page is the template web/report builds (its scripts and styles inlined) with the run's
// data in place of a placeholder, as JSON of web/report/report.schema.json's shape. Every
// number on the page is the simulator's: the profiler hands each launch's counts, samples and
// predictions (page_launch), the report pipeline each finding with its picture (page_finding),
// the process its end and the GPU clock's operations (write_report_page). The page only draws.
//
// What is kept is bounded (kPageBounds): two sampled warps per counted line, the first block's
// first warps for divergence, a window of each array around the element a finding names, the
// first findings. Nothing is collected unless a page was asked for.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

#include "draft.hpp"

namespace simt::sim::detail {

using PageJson = nlohmann::ordered_json;

/// What the page keeps, said on it.
struct PageBounds {
    unsigned samples_per_line = 2;      ///< the first warp's request and the costliest
    unsigned divergence_warps = 32;     ///< the first block's first warps
    unsigned masks_per_warp = 64;       ///< ... and each one's first requests at a line
    unsigned elements_per_array = 4096; ///< cells a finding's picture draws around its element
    unsigned findings = 200;            ///< findings drawn; later ones are counted
    unsigned source_lines = 4000;       ///< lines of each source file shown
};
inline constexpr PageBounds kPageBounds{};

/// SIMT_REPORT's html:PATH. Tries the path at once: one that cannot be written is said now, and
/// the program runs without a page. Returns whether the page will be written.
bool report_page_to(const std::string& path);
bool report_page_on();
const std::string& report_page_path();

/// A source file the page shows, by the path it was compiled as (a Loc's file name).
void page_source(const char* path);
/// A published finding, with the draft it was made from (for its picture).
void page_finding(const Finding& f, const Draft& d);
/// One launch's entry (the profiler's: counts, samples, prediction, occupancy).
void page_launch(PageJson launch);
/// How the program ended, for the page's summary, when it did not end normally: "fault",
/// "deadlock", "interrupted", "watchdog" or "error", its exit status (-1: not known yet), and what
/// was said. The first way out is the one the page names.
void page_ended(const char* how, int status, std::string text);

/// The GPU clock's operations as the page's timeline (launch/gpu_clock.cpp registers it: the
/// clock lives in a layer above this one).
void page_timeline_from(PageJson (*timeline)());

/// A launch ended on an error (a fault, a deadlock): on a GPU such an error is sticky, so the
/// page says the run stopped there, with the first one's text.
void page_launch_failed(const std::string& what);

/// Writes the page, once: the run's data so far and the timeline. Called at the end of the
/// process, and on the way out of a fault, a Ctrl-C or the watchdog.
void write_report_page();

/// The page's HTML for `data`: the built template with the JSON in its slot ("</" escaped), or
/// a plain page holding the JSON where the template was not built.
std::string page_html(const PageJson& data);

}  // namespace simt::sim::detail
