// One launch being executed, as data: its blocks' results, errors and findings, and the checkers on
// for it. launch/grid.hpp runs it.
#pragma once
#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "block.hpp"

namespace simt::sim::detail {

/// One launch being executed.
struct GridRun {
    GridRun(const KernelLaunch& launch, const Config& c)
        : k(launch), cfg(c), nblocks(std::uint64_t(k.grid.x) * k.grid.y * k.grid.z) {}
    const KernelLaunch& k;
    Config cfg;
    std::uint64_t nblocks;
    std::atomic<std::uint64_t> first_failed{~std::uint64_t(0)};
    std::mutex m;
    struct BlockError {
        std::uint64_t block;
        std::string message;
        cudaError_t code;
        std::optional<FindingKey> finding;
    };
    std::vector<BlockError> errors;
    std::atomic<std::uint64_t> blocks_done{0};  ///< the watchdog's measure of progress
    std::vector<PendingFinding> findings;
    // The checkers on for this launch (check/checker.cpp), and those that see every access. Room
    // for more than there are, so that a new checker needs no line here (checker.cpp asserts it).
    static constexpr std::size_t max_checkers = 8;
    Checker* checkers[max_checkers] = {};
    Checker* accessors[max_checkers] = {};
    unsigned checkers_on = 0, accessors_on = 0;
    bool shadow = false;           ///< a checker sees accesses: blocks run one at a time, in order
    CoopGrid* coop = nullptr;      ///< a cooperative launch's blocks (launch/cooperative.hpp)
    /// A checked launch's blocks, which take turns when one spins (launch/turns.hpp's
    /// BlockTurns); each block reaches them as BlockState::others.
    OtherBlocks* turns = nullptr;
    /// A block waited for others (BlockTurns): blocks no longer run whole, one after another.
    bool blocks_waited = false;
    /// A parallel attempt (check/attempt.hpp) ran this launch: a second one is the same try.
    bool attempted = false;
    /// Arrays an owning attempt of this launch splits into one-element granules (attempt.cpp).
    std::vector<const Allocation*> fine_granules;
};

}  // namespace simt::sim::detail
