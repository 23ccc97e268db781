// The settings table: one row per SIMT_* variable, with its default, what it accepts and its parser.
//
// Every value is parsed strictly: a number is digits only and within its range, a list item
// must be known, and the message of a refusal names the variable, the value and the row's
// `accepted` text, so that what the help promises and what the parser takes cannot drift apart.
#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "process.hpp"

namespace simt::sim {

namespace {

[[noreturn]] void refuse(std::string_view name, std::string_view value, std::string_view why) {
    throw std::invalid_argument(std::string(name) + "=" + std::string(value) + ": " +
                                std::string(why));
}

/// Digits only (no sign, no space), at most `hi`; nullopt-free: refuses with `accepted`.
std::uint64_t parse_number(std::string_view name, std::string_view whole, std::string_view digits,
                           std::uint64_t lo, std::uint64_t hi, std::string_view accepted) {
    std::uint64_t n = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || n < lo ||
        n > hi)
        refuse(name, whole, "expected " + std::string(accepted));
    return n;
}

void parse_check(Config& c, std::string_view v);
void parse_schedule(Config& c, std::string_view v);
void parse_report(Config& c, std::string_view v);
void parse_stack_size(Config& c, std::string_view v);
void parse_workers(Config& c, std::string_view v);
void parse_timeout(Config& c, std::string_view v);
void parse_exit_code(Config& c, std::string_view v);
void parse_devices(Config& c, std::string_view v);

struct Row {
    Setting doc;
    void (*parse)(Config&, std::string_view);
};

constexpr Row table[] = {
    {{"SIMT_CHECK", "all", "all, none, or a comma-separated list of race, init, sync, leak (all,leak "
      "adds leaks to all; mem is leak's old name)",
      "which checkers run: race (data races), init (uninitialized reads), sync (barriers and warp "
      "masks), leak (each allocation never freed is a finding, not one note at exit). all is "
      "race,init,sync, as compute-sanitizer leaves leaks out unless asked. Bounds, use after "
      "free, null and misaligned accesses are checked whatever this says"},
     parse_check},
    {{"SIMT_SCHEDULE", "in-order", "in-order, reverse, random:SEED or interleave:SEED (SEED a number)",
      "the order a block's threads run in; interleave may also switch threads inside a "
      "read-modify-write, as a GPU would"},
     parse_schedule},
    {{"SIMT_REPORT", "text", "text or json:PATH (a file that can be written)",
      "text prints findings on stderr; json:PATH also appends each one to PATH as a JSON line"},
     parse_report},
    {{"SIMT_STACK_SIZE", "64K", "a size from 16K to 64M, in bytes or with K or M (65536, 64K, 1M)",
      "stack per CUDA thread; raise it for large local arrays or deep recursion"},
     parse_stack_size},
    {{"SIMT_WORKERS", "0", "a number from 0 (all cores) to 1024",
      "OS threads that run blocks; 0 uses every core"},
     parse_workers},
    {{"SIMT_TIMEOUT", "30", "a number of seconds from 0 (never) to 86400",
      "seconds without progress: a launch in which no block finishes, no thread starts, ends or "
      "meets another and none reads new memory for this long is stopped with a report of where "
      "each thread spins; a launch that progresses is never stopped. 0 turns the watchdog off"},
     parse_timeout},
    {{"SIMT_DEVICES", "4", "a number of devices from 1 to 16",
      "how many devices cudaGetDeviceCount finds, each the simulated GPU with memory and a "
      "default stream of its own (4, a typical course node)"},
     parse_devices},
    {{"SIMT_EXITCODE", "0", "an exit status from 0 (unchanged) to 255",
      "the exit status of a program in which anything was found, as compute-sanitizer's "
      "--error-exitcode"},
     parse_exit_code},
};

const Row& row(std::string_view name) {
    for (const Row& r : table)
        if (r.doc.name == name) return r;
    throw std::invalid_argument(std::string(name) + " is not a simt setting");
}

std::string_view accepted(std::string_view name) { return row(name).doc.accepted; }

void parse_check(Config& c, std::string_view v) {
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
        else
            refuse("SIMT_CHECK", v, "'" + std::string(item) + "' is not one of " +
                                        std::string(accepted("SIMT_CHECK")));
        if (end == v.npos) break;
        start = end + 1;
    }
    c.check_race = race, c.check_mem = leak, c.check_init = init, c.check_sync = sync;
}

void parse_schedule(Config& c, std::string_view v) {
    auto seeded = [&](Schedule s, std::string_view prefix) {
        c.seed = parse_number("SIMT_SCHEDULE", v, v.substr(prefix.size()), 0, UINT64_MAX,
                              accepted("SIMT_SCHEDULE"));
        c.schedule = s;
    };
    if (v == "in-order") c.schedule = Schedule::in_order;
    else if (v == "reverse") c.schedule = Schedule::reverse;
    else if (v.starts_with("random:")) seeded(Schedule::random, "random:");
    else if (v.starts_with("interleave:")) seeded(Schedule::interleave, "interleave:");
    else refuse("SIMT_SCHEDULE", v, "expected " + std::string(accepted("SIMT_SCHEDULE")));
}

void parse_report(Config& c, std::string_view v) {
    if (v == "text") c.report_json.clear();
    else if (v.starts_with("json:") && v.size() > 5) c.report_json = v.substr(5);
    else refuse("SIMT_REPORT", v, "expected " + std::string(accepted("SIMT_REPORT")));
}

void parse_stack_size(Config& c, std::string_view v) {
    std::string_view digits = v;
    unsigned shift = 0;
    if (!v.empty() && (v.back() == 'K' || v.back() == 'k')) shift = 10;
    if (!v.empty() && (v.back() == 'M' || v.back() == 'm')) shift = 20;
    if (shift) digits.remove_suffix(1);
    const std::uint64_t lo = 16 << 10, hi = 64 << 20;
    std::uint64_t n = parse_number("SIMT_STACK_SIZE", v, digits, 0, hi >> shift,
                                   accepted("SIMT_STACK_SIZE"))
                      << shift;
    if (n < lo) refuse("SIMT_STACK_SIZE", v, "at least 16K is needed");
    c.stack_size = n;
}

void parse_workers(Config& c, std::string_view v) {
    c.workers = static_cast<int>(parse_number("SIMT_WORKERS", v, v, 0, 1024, accepted("SIMT_WORKERS")));
}

void parse_devices(Config& c, std::string_view v) {
    c.devices = static_cast<int>(parse_number("SIMT_DEVICES", v, v, 1, 16, accepted("SIMT_DEVICES")));
}

void parse_timeout(Config& c, std::string_view v) {
    c.timeout_s = static_cast<unsigned>(
        parse_number("SIMT_TIMEOUT", v, v, 0, 86400, accepted("SIMT_TIMEOUT")));
}

void parse_exit_code(Config& c, std::string_view v) {
    c.exit_code = static_cast<int>(parse_number("SIMT_EXITCODE", v, v, 0, 255, accepted("SIMT_EXITCODE")));
}

std::span<const Setting> setting_docs() {
    static const auto docs = [] {
        std::array<Setting, std::size(table)> d{};
        for (std::size_t i = 0; i < std::size(table); ++i) d[i] = table[i].doc;
        return d;
    }();
    return docs;
}

}  // namespace

std::span<const Setting> settings() { return setting_docs(); }

void apply_setting(Config& c, const std::string& name, const std::string& value) {
    row(name).parse(c, value);
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
            std::size_t d = distance(name, r.doc.name);
            if (d < best) best = d, closest = &r;
        }
        if (best == 0) continue;
        std::fprintf(stderr, "simt: warning: %.*s is not a simt setting and is ignored; did you mean "
                             "%s? (`./lab help settings` lists them)\n",
                     static_cast<int>(name.size()), name.data(), closest->doc.name);
    }
}

}  // namespace

namespace detail {

Config settings_from_environment() {
    Config c;
    for (const Row& r : table)
        if (const char* v = std::getenv(r.doc.name)) r.parse(c, v);
    warn_unknown_settings();
    return c;
}

}  // namespace detail

}  // namespace simt::sim
