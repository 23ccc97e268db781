// The settings table: one row per SIMT_* variable, with its default, what it accepts and its parser.
//
// Every value is parsed strictly: a number is digits only and within its range, a list item
// must be known, and the message of a refusal names the variable, the value and the row's
// `accepted` text, so that what the help promises and what the parser takes cannot drift apart.
#include <array>
#include <charconv>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

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

struct Row {
    Setting doc;
    void (*parse)(Config&, std::string_view);
};

constexpr Row table[] = {
    {{"SIMT_CHECK", "all", "all, none, or a comma-separated list of race, mem, init, sync",
      "which checkers run: race (data races), mem (bounds, use after free, leaks), init "
      "(uninitialized reads), sync (barriers and warp masks)"},
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
      "a launch running longer is stopped with a report of where each thread is; 0 turns the "
      "watchdog off"},
     parse_timeout},
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
    bool race = false, mem = false, init = false, sync = false;
    if (v == "all") {
        race = mem = init = sync = true;
    } else if (v != "none") {
        for (std::size_t start = 0;;) {
            std::size_t end = v.find(',', start);
            std::string_view item = v.substr(start, end == v.npos ? v.npos : end - start);
            if (item == "race") race = true;
            else if (item == "mem") mem = true;
            else if (item == "init") init = true;
            else if (item == "sync") sync = true;
            else
                refuse("SIMT_CHECK", v, "'" + std::string(item) + "' is not one of " +
                                            std::string(accepted("SIMT_CHECK")));
            if (end == v.npos) break;
            start = end + 1;
        }
    }
    c.check_race = race, c.check_mem = mem, c.check_init = init, c.check_sync = sync;
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

namespace detail {

Config settings_from_environment() {
    Config c;
    for (const Row& r : table)
        if (const char* v = std::getenv(r.doc.name)) r.parse(c, v);
    return c;
}

}  // namespace detail

}  // namespace simt::sim
