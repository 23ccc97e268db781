// The settings table: every SIMT_* variable is one row, parsed strictly, with its default.
#include <catch2/catch.hpp>
#include <simt/simt.hpp>

#include <string>

using Catch::Matchers::Contains;

TEST_CASE("Every setting's default parses to the default configuration", "[config]") {
    const simt::sim::Config fresh;
    REQUIRE(simt::sim::settings().size() >= 8);
    for (const simt::sim::Setting& s : simt::sim::settings()) {
        INFO(s.name << "=" << s.default_value);
        CHECK(std::string(s.help).size() > 20);
        CHECK(std::string(s.accepted).size() > 5);
        simt::sim::Config c;
        simt::sim::apply_setting(c, s.name, s.default_value);
        CHECK(c == fresh);
    }
}

TEST_CASE("Applying every row's default undoes any earlier setting", "[config]") {
    simt::sim::Config c;
    c.check_leak = true, c.stack_size = 1, c.workers = 99, c.timeout_s = 99, c.exit_code = 9;
    c.devices = 16;
    c.report_json = "x";
    c.schedule = simt::sim::Schedule::reverse;
    for (const simt::sim::Setting& s : simt::sim::settings())
        simt::sim::apply_setting(c, s.name, s.default_value);
    CHECK(c == simt::sim::Config{});
}

TEST_CASE("Numbers out of range, signs and garbage are refused with what is accepted", "[config]") {
    simt::sim::Config c;
    auto refused = [&](const char* name, const char* value, const char* says) {
        INFO(name << "=" << value);
        CHECK_THROWS_WITH(simt::sim::apply_setting(c, name, value),
                          Contains(std::string(name) + "=" + value) && Contains(says));
    };
    refused("SIMT_WORKERS", "abc", "from 0 (all cores) to 1024");
    refused("SIMT_WORKERS", "-1", "from 0 (all cores) to 1024");
    refused("SIMT_WORKERS", "100000", "to 1024");
    refused("SIMT_WORKERS", "4294967297", "to 1024");
    refused("SIMT_STACK_SIZE", "-1", "from 16K to 64M");
    refused("SIMT_STACK_SIZE", "1G", "from 16K to 64M");
    refused("SIMT_STACK_SIZE", "100000000000M", "from 16K to 64M");
    refused("SIMT_SCHEDULE", "random:-5", "random:SEED");
    refused("SIMT_SCHEDULE", "interleave", "interleave:SEED");
    refused("SIMT_REPORT", "xml", "json:PATH");
    refused("SIMT_TIMEOUT", "1.5", "seconds");
    refused("SIMT_EXITCODE", "256", "0 (unchanged) to 255");
    CHECK_THROWS_WITH(simt::sim::apply_setting(c, "SIMT_COLOUR", "on"), Contains("not a simt setting"));
}

TEST_CASE("The largest accepted values are accepted", "[config]") {
    simt::sim::Config c;
    simt::sim::apply_setting(c, "SIMT_WORKERS", "1024");
    simt::sim::apply_setting(c, "SIMT_STACK_SIZE", "64M");
    simt::sim::apply_setting(c, "SIMT_SCHEDULE", "random:18446744073709551615");
    simt::sim::apply_setting(c, "SIMT_TIMEOUT", "0");
    simt::sim::apply_setting(c, "SIMT_EXITCODE", "255");
    CHECK(c.workers == 1024);
    CHECK(c.stack_size == 64u << 20);
    CHECK(c.seed == 18446744073709551615ull);
    CHECK(c.timeout_s == 0);
    CHECK(c.exit_code == 255);
}
