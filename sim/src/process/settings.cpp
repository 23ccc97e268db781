// The settings table: one row per SIMT_* variable (name, default, parser, what it accepts, help),
// as TSan's tsan_flags.inc keeps one line per flag.
//
// Every value is parsed strictly: a number is digits only and within its range, a list item
// must be known, and the message of a refusal names the variable, the value and the row's
// `accepted` text, so that what the help promises and what the parser takes cannot drift apart.
// Config's member initialisers are the defaults in force; settings_test checks that each row's
// default parses to them.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <array>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string_view>
#include <type_traits>
#include <vector>

#include "process.hpp"
#include "../device/model.hpp"
#include "../launch/gpu_clock.hpp"
#include "../report/page.hpp"

namespace simt::sim {

namespace {

struct Row;
using Parser = void (*)(Config&, std::string_view value, const Row&);

struct Row {
    const char* name;
    const char* default_value;
    Parser parse;
    const char* accepted;
    const char* help;
};

[[noreturn]] void refuse(const Row& r, std::string_view value, std::string_view why) {
    throw std::invalid_argument(std::string(r.name) + "=" + std::string(value) + ": " +
                                std::string(why));
}

[[noreturn]] void refuse(const Row& r, std::string_view value) {
    refuse(r, value, "expected " + std::string(r.accepted));
}

/// Digits only (no sign, no space), from `lo` to `hi`; anything else is refused.
std::uint64_t parse_number(const Row& r, std::string_view whole, std::string_view digits,
                           std::uint64_t lo, std::uint64_t hi) {
    std::uint64_t n = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || n < lo ||
        n > hi)
        refuse(r, whole);
    return n;
}

/// The parser of a plain number setting: digits from `lo` to `hi` stored in `field`.
template <auto field, std::uint64_t lo, std::uint64_t hi>
void number(Config& c, std::string_view v, const Row& r) {
    c.*field =
        static_cast<std::remove_reference_t<decltype(c.*field)>>(parse_number(r, v, v, lo, hi));
}

void check_list(Config& c, std::string_view v, const Row& r) {
    bool race = false, leak = false, init = false, sync = false;
    for (std::size_t start = 0;;) {
        std::size_t end = v.find(',', start);
        std::string_view item = v.substr(start, end == v.npos ? v.npos : end - start);
        if (item == "all") race = init = sync = true;
        else if (item == "none") race = leak = init = sync = false;
        else if (item == "race") race = true;
        else if (item == "leak" || item == "mem") leak = true;
        else if (item == "init") init = true;
        else if (item == "sync") sync = true;
        else refuse(r, v, "'" + std::string(item) + "' is not one of " + r.accepted);
        if (end == v.npos) break;
        start = end + 1;
    }
    c.check_race = race, c.check_leak = leak, c.check_init = init, c.check_sync = sync;
}

void schedule(Config& c, std::string_view v, const Row& r) {
    auto seeded = [&](Schedule s, std::string_view prefix) {
        c.seed = parse_number(r, v, v.substr(prefix.size()), 0, UINT64_MAX);
        c.schedule = s;
    };
    if (v == "in-order") c.schedule = Schedule::in_order;
    else if (v == "reverse") c.schedule = Schedule::reverse;
    else if (v.starts_with("random:")) seeded(Schedule::random, "random:");
    else if (v.starts_with("interleave:")) seeded(Schedule::interleave, "interleave:");
    else refuse(r, v);
}

void report(Config& c, std::string_view v, const Row& r) {
    std::string json, html;
    for (std::size_t start = 0;;) {
        std::size_t end = v.find(',', start);
        std::string_view item = v.substr(start, end == v.npos ? v.npos : end - start);
        if (item == "text") {
        } else if (item.starts_with("json:") && item.size() > 5) {
            json = item.substr(5);
        } else if (item.starts_with("html:") && item.size() > 5) {
            html = item.substr(5);
        } else {
            refuse(r, v);
        }
        if (end == v.npos) break;
        start = end + 1;
    }
    c.report_json = json;
    // The page, like the timeline, is the process's and not the Config's: its collection is on
    // from the first launch, and it needs the GPU's clock for its timeline. A path that cannot
    // be written is said, and the program runs without the page.
    if (!html.empty() && detail::report_page_to(html)) {
        detail::page_timeline_from(&detail::gpu_clock_page);
        detail::want_gpu_clock();
    }
}

void stack_size(Config& c, std::string_view v, const Row& r) {
    std::string_view digits = v;
    unsigned shift = 0;
    if (!v.empty() && (v.back() == 'K' || v.back() == 'k')) shift = 10;
    if (!v.empty() && (v.back() == 'M' || v.back() == 'm')) shift = 20;
    if (shift) digits.remove_suffix(1);
    const std::uint64_t lo = 16 << 10, hi = 64 << 20;
    std::uint64_t n = parse_number(r, v, digits, 0, hi >> shift) << shift;
    if (n < lo) refuse(r, v, "at least 16K is needed");
    c.stack_size = n;
}

void device(Config& c, std::string_view v, const Row& r) {
    if (!v.empty() && v.find_first_not_of("0123456789") == v.npos)
        refuse(r, v, "expected " + std::string(r.accepted) + " (a GPU; SIMT_DEVICES=" +
                         std::string(v) + " sets how many devices there are)");
    if (!detail::find_gpu_model(v)) refuse(r, v);
    c.device = v;
}

void profile(Config& c, std::string_view v, const Row& r) {
    bool text = false;
    std::string json;
    for (std::size_t start = 0;;) {
        std::size_t end = v.find(',', start);
        std::string_view item = v.substr(start, end == v.npos ? v.npos : end - start);
        if (item == "off" && v == "off") text = false;
        else if (item == "text") text = true;
        else if (item.starts_with("json:") && item.size() > 5) json = item.substr(5);
        else refuse(r, v);
        if (end == v.npos) break;
        start = end + 1;
    }
    c.profile_text = text;
    c.profile_json = json;
}

void timeline(Config&, std::string_view v, const Row& r) {
    // Not the Config's: the clock it turns on is the process's (launch/gpu_clock.hpp).
    if (v == "off") return;
    if (!v.starts_with("trace:") || v.size() == 6) refuse(r, v);
    // Opened now, so that a path that cannot be written is said before anything runs.
    const std::string path(v.substr(6));
    std::FILE* f = std::fopen(path.c_str(), "w");
    if (!f) refuse(r, v, "cannot open " + path + " for writing (" + std::strerror(errno) + ")");
    std::fclose(f);
    detail::trace_gpu_clock_to(path);
}

// One row per setting, in the order `./lab help settings` prints them:
// {name, default, parser, what it accepts, help}.
constexpr Row table[] = {
    {"SIMT_CHECK", "all", check_list,
     "all, none, or a comma-separated list of race, init, sync, leak (all,leak adds leaks to all; "
     "mem is leak's old name)",
     "which checkers run: race (data races), init (uninitialized reads), sync (barriers and warp "
     "masks), leak (each allocation never freed is a finding, not one note at exit). all is "
     "race,init,sync, as compute-sanitizer leaves leaks out unless asked; none also leaves out "
     "the note on leaks. Bounds, use after free, null and misaligned accesses are checked "
     "whatever this says, except in a program built UNCHECKED, which checks nothing and runs its "
     "blocks on every core"},
    {"SIMT_SCHEDULE", "in-order", schedule,
     "in-order, reverse, random:SEED or interleave:SEED (SEED a number)",
     "the order a block's threads run in; interleave may also switch threads inside a "
     "read-modify-write, as a GPU would"},
    {"SIMT_REPORT", "text", report,
     "text, json:PATH, html:PATH, or json:PATH,html:PATH (files that can be written)",
     "text prints findings on stderr; json:PATH also appends each one to PATH as a JSON line; "
     "html:PATH also writes, at the end (or when the program stops on an error, Ctrl-C or the "
     "watchdog), one page that draws every finding, counter and launch (docs/report-page.md), "
     "which opens from disk in a browser"},
    {"SIMT_STACK_SIZE", "64K", stack_size,
     "a size from 16K to 64M, in bytes or with K or M (65536, 64K, 1M)",
     "stack per CUDA thread; raise it for large local arrays or deep recursion"},
    {"SIMT_WORKERS", "0", number<&Config::workers, 0, 1024>, "a number from 0 (all cores) to 1024",
     "OS threads that run blocks; 0 uses every core"},
    {"SIMT_TIMEOUT", "30", number<&Config::timeout_s, 0, 86400>,
     "a number of seconds from 0 (never) to 86400",
     "seconds without progress: a launch in which no block finishes, no thread starts, ends or "
     "meets another and none reads new memory for this long is stopped with a report of where "
     "each thread spins; a launch that progresses is never stopped. 0 turns the watchdog off"},
    {"SIMT_DEVICES", "4", number<&Config::devices, 1, 16>, "a number of devices from 1 to 16",
     "how many devices cudaGetDeviceCount finds, each the simulated GPU with memory and a default "
     "stream of its own (4, a typical course node)"},
    {"SIMT_DEVICE", "A100", device, detail::gpu_model_names,
     "the GPU the simulator is: its properties, limits and occupancy are that GPU's published "
     "values (A100-SXM4-80GB cc 8.0, T4 cc 7.5, RTX 4090 cc 8.9, H100 SXM cc 9.0; docs/device.md), "
     "whatever cores run the blocks"},
    {"SIMT_PROFILE", "off", profile, "off, text, json:PATH or text,json:PATH",
     "Nsight Compute's memory and divergence counters, rebuilt warp by warp (docs/profiling.md): "
     "text prints a table per kernel and its worst lines at exit, json:PATH writes one JSON "
     "object per launch to PATH"},
    {"SIMT_TIMELINE", "off", timeline, "off or trace:PATH",
     "the run on the GPU's clock (docs/profiling.md, \"The GPU's clock\"): trace:PATH writes, at "
     "the end, every copy and kernel as the named GPU's engines would take them and as the "
     "simulator ran them, a row per stream, in the Trace Event format that chrome://tracing and "
     "Perfetto open"},
    {"SIMT_EXITCODE", "0", number<&Config::exit_code, 0, 255>,
     "an exit status from 0 (unchanged) to 255",
     "the exit status of a program in which anything was found, as compute-sanitizer's "
     "--error-exitcode"},
};

const Row& row(std::string_view name) {
    for (const Row& r : table)
        if (r.name == name) return r;
    throw std::invalid_argument(std::string(name) + " is not a simt setting");
}

}  // namespace

std::span<const Setting> settings() {
    static const auto docs = [] {
        std::array<Setting, std::size(table)> d{};
        for (std::size_t i = 0; i < std::size(table); ++i)
            d[i] = {table[i].name, table[i].default_value, table[i].accepted, table[i].help};
        return d;
    }();
    return docs;
}

void apply_setting(Config& c, const std::string& name, const std::string& value) {
    const Row& r = row(name);
    r.parse(c, value, r);
    // A program built UNCHECKED checks nothing, whatever it asks.
    detail::checks_off_if_unchecked(c);
}

namespace {

/// Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`.
std::size_t distance(std::string_view a, std::string_view b) {
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i)
        for (std::size_t j = 1; j <= b.size(); ++j) {
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1,
                                d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

/// A SIMT_* variable that no row reads is most likely a misspelt one, whose setting the
/// program then runs without: say so, naming the closest.
void warn_unknown_settings() {
    for (char** e = environ; e && *e; ++e) {
        std::string_view entry(*e);
        std::string_view name = entry.substr(0, entry.find('='));
        if (!name.starts_with("SIMT_")) continue;
        const Row* closest = nullptr;
        std::size_t best = SIZE_MAX;
        for (const Row& r : table) {
            std::size_t d = distance(name, r.name);
            if (d < best) best = d, closest = &r;
        }
        if (best == 0) continue;
        std::fprintf(stderr,
                     "simt: warning: %.*s is not a simt setting and is ignored; did you mean "
                     "%s? (`./lab help settings` lists them)\n",
                     static_cast<int>(name.size()), name.data(), closest->name);
    }
}

}  // namespace

namespace detail {

Config settings_from_environment() {
    Config c;
    for (const Row& r : table)
        if (const char* v = std::getenv(r.name)) r.parse(c, v, r);
    warn_unknown_settings();
    return c;
}

}  // namespace detail

}  // namespace simt::sim
