// A test case's SIMT_WORKERS, put back when it ends.
#pragma once
#include <simt/simt.hpp>

namespace test {

/// The settings a case runs under, with SIMT_WORKERS=n, restored when it ends.
struct Workers {
    explicit Workers(const char* n) : saved(simt::sim::config()) {
        simt::sim::apply_setting(simt::sim::config(), "SIMT_WORKERS", n);
    }
    ~Workers() { simt::sim::config() = saved; }
    Workers(const Workers&) = delete;
    Workers& operator=(const Workers&) = delete;
    simt::sim::Config saved;
};

}  // namespace test
