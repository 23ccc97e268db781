// Reads SIMT_* settings from the environment once; tests change them through config().
#include <cstdlib>
#include <stdexcept>

#include "runtime.hpp"

namespace simt::sim {

namespace {

std::size_t parse_size(const std::string& name, const std::string& v) {
    std::size_t pos = 0;
    unsigned long long n = 0;
    try {
        n = std::stoull(v, &pos);
    } catch (const std::exception&) {
        pos = 0;
    }
    std::string unit = v.substr(pos);
    if (pos == 0 || !(unit.empty() || unit == "K" || unit == "k" || unit == "M" || unit == "m"))
        throw std::invalid_argument(name + "=" + v + ": expected bytes such as 65536, 64K or 1M");
    if (unit == "K" || unit == "k") n <<= 10;
    if (unit == "M" || unit == "m") n <<= 20;
    return n;
}

Config from_environment() {
    Config c;
    for (const char* name : {"SIMT_CHECK", "SIMT_SCHEDULE", "SIMT_REPORT", "SIMT_STACK_SIZE",
                             "SIMT_WORKERS"}) {
        if (const char* v = std::getenv(name)) {
            try {
                apply_setting(c, name, v);
            } catch (const std::invalid_argument& e) {
                std::fprintf(stderr, "simt: %s\n", e.what());
                std::exit(2);
            }
        }
    }
    return c;
}

}  // namespace

void apply_setting(Config& c, const std::string& name, const std::string& value) {
    if (name == "SIMT_CHECK") {
        c.check_race = c.check_mem = c.check_init = c.check_sync = false;
        if (value == "all") {
            c.check_race = c.check_mem = c.check_init = c.check_sync = true;
        } else if (value != "none") {
            std::size_t start = 0;
            while (start <= value.size()) {
                std::size_t end = value.find(',', start);
                std::string item = value.substr(start, end == std::string::npos ? end : end - start);
                if (item == "race") c.check_race = true;
                else if (item == "mem") c.check_mem = true;
                else if (item == "init") c.check_init = true;
                else if (item == "sync") c.check_sync = true;
                else
                    throw std::invalid_argument("SIMT_CHECK=" + value + ": '" + item +
                                                "' is not one of all, none, race, mem, init, sync");
                if (end == std::string::npos) break;
                start = end + 1;
            }
        }
    } else if (name == "SIMT_SCHEDULE") {
        auto seeded = [&](const std::string& prefix) {
            std::string rest = value.substr(prefix.size());
            try {
                std::size_t pos = 0;
                c.seed = std::stoull(rest, &pos);
                if (pos != rest.size()) throw std::invalid_argument("");
            } catch (const std::exception&) {
                throw std::invalid_argument("SIMT_SCHEDULE=" + value + ": expected " + prefix +
                                            "SEED with a number SEED");
            }
        };
        if (value == "in-order") c.schedule = Schedule::in_order;
        else if (value == "reverse") c.schedule = Schedule::reverse;
        else if (value.rfind("random:", 0) == 0) c.schedule = Schedule::random, seeded("random:");
        else if (value.rfind("interleave:", 0) == 0)
            c.schedule = Schedule::interleave, seeded("interleave:");
        else
            throw std::invalid_argument("SIMT_SCHEDULE=" + value +
                                        ": expected in-order, reverse, random:SEED or interleave:SEED");
    } else if (name == "SIMT_REPORT") {
        if (value == "text") c.report_json.clear();
        else if (value.rfind("json:", 0) == 0 && value.size() > 5) c.report_json = value.substr(5);
        else throw std::invalid_argument("SIMT_REPORT=" + value + ": expected text or json:PATH");
    } else if (name == "SIMT_STACK_SIZE") {
        std::size_t n = parse_size(name, value);
        if (n < 16 * 1024)
            throw std::invalid_argument("SIMT_STACK_SIZE=" + value + ": at least 16K is needed");
        c.stack_size = n;
    } else if (name == "SIMT_WORKERS") {
        c.workers = static_cast<int>(parse_size(name, value));
    } else {
        throw std::invalid_argument(name + " is not a simt setting");
    }
}

Config& config() {
    // Never destroyed: work still queued at exit reads it from a static destructor.
    static Config* c = new Config(from_environment());
    return *c;
}

}  // namespace simt::sim
