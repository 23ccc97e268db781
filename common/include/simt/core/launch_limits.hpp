// CUDA's launch limits, checked the same way by both backends; the shared memory a block may opt
// into is the device's own (DeviceProperties::shared_mem_per_block_optin).
#pragma once
#include <cstddef>
#include <string>

#include "simt/core/errors.hpp"

namespace simt {

/// What simt::launch accepts: the limits every compute capability from 7.5 to 9.0 shares.
struct LaunchLimits {
    static constexpr unsigned max_threads_per_block = 1024;
    static constexpr unsigned max_block_x = 1024, max_block_y = 1024, max_block_z = 64;
    static constexpr unsigned long long max_grid_x = 2147483647ull;  // 2^31 - 1
    static constexpr unsigned max_grid_y = 65535, max_grid_z = 65535;
    static constexpr std::size_t max_shared_bytes = 48 * 1024;         // without opting in
    /// The most any supported device lets a block opt into (9.0; 8.0 allows 166912 bytes, 8.9
    /// 101376, 7.5 65536): a bound for storage, not a device's limit.
    static constexpr std::size_t max_shared_bytes_optin = 227 * 1024;
};

namespace detail {

/// Throws LaunchError naming the first limit the configuration breaks and the launch's line.
/// `shared_optin` mirrors cudaFuncAttributeMaxDynamicSharedMemorySize having been raised;
/// `optin_limit` is the device's maximum then, and `device` its name (nullptr: not known here).
inline void validate_launch(unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                            unsigned bz, std::size_t shared_bytes, bool shared_optin,
                            const char* file = nullptr, unsigned line = 0,
                            std::size_t optin_limit = LaunchLimits::max_shared_bytes_optin,
                            const char* device = nullptr) {
    auto fail = [&](const std::string& what) {
        std::string at;
        if (file && *file) {
            std::string f = file;
            at = " (the launch at " + f.substr(f.find_last_of('/') + 1) + ":" +
                 std::to_string(line) + ")";
        }
        throw LaunchError("simt::launch: " + what + at);
    };
    auto dims = [](unsigned x, unsigned y, unsigned z) {
        return "(" + std::to_string(x) + ", " + std::to_string(y) + ", " + std::to_string(z) + ")";
    };
    if (gx == 0 || gy == 0 || gz == 0)
        fail("grid " + dims(gx, gy, gz) + " has a zero dimension; every dimension must be >= 1");
    if (bx == 0 || by == 0 || bz == 0)
        fail("block " + dims(bx, by, bz) + " has a zero dimension; every dimension must be >= 1");
    unsigned long long threads = 1ull * bx * by * bz;
    if (threads > LaunchLimits::max_threads_per_block)
        fail("block " + dims(bx, by, bz) + " has " + std::to_string(threads) +
             " threads; at most 1024 threads per block are allowed");
    if (bx > LaunchLimits::max_block_x || by > LaunchLimits::max_block_y ||
        bz > LaunchLimits::max_block_z)
        fail("block " + dims(bx, by, bz) + " exceeds the per-dimension limit (1024, 1024, 64)");
    if (gx > LaunchLimits::max_grid_x)
        fail("grid.x = " + std::to_string(gx) + " exceeds the limit 2147483647 (2^31 - 1)");
    if (gy > LaunchLimits::max_grid_y || gz > LaunchLimits::max_grid_z)
        fail("grid " + dims(gx, gy, gz) + " exceeds the limit 65535 for grid.y and grid.z");
    const std::string on = device ? std::string(" of the ") + device : std::string();
    std::size_t limit = shared_optin ? optin_limit : LaunchLimits::max_shared_bytes;
    if (shared_bytes > limit)
        fail("shared memory of " + std::to_string(shared_bytes) + " bytes per block exceeds " +
             std::to_string(limit) + " bytes" +
             (shared_optin ? " (the opt-in maximum" + on + ")"
                           : "; set LaunchOptions::shared_optin to allow up to the opt-in "
                             "maximum" + on + " (" + std::to_string(optin_limit) +
                             " bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin)"));
}

}  // namespace detail
}  // namespace simt
