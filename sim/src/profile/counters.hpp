// The rules that turn one warp-level request into Nsight Compute's counts: 32-byte sectors for
// global memory, bank wavefronts for shared memory. Pure functions of the lanes' addresses, so
// that docs/profiling.md and tests/profile/ can state them and pin them.
#pragma once
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>

namespace simt::sim::detail::profile {

/// One warp-level request as rebuilt from its lanes: which lanes made it, and where each went.
struct Request {
    std::uint32_t mask = 0;
    std::array<std::uint64_t, 32> address;
    std::array<std::uint32_t, 32> size;
};

struct Cost {
    std::uint64_t actual = 0;  ///< sectors, or wavefronts
    std::uint64_t ideal = 0;
};

/// Global memory: the distinct 32-byte sectors the active lanes' bytes fall in (an access over
/// a sector boundary counts both); ideal: the distinct bytes they touch / 32, rounded up, which
/// is what the same bytes would cost laid out contiguously from a sector boundary.
inline Cost global_cost(const Request& r) {
    struct Span {
        std::uint64_t lo, hi;  // [lo, hi)
    };
    std::array<Span, 32> s;
    unsigned n = 0;
    bool sorted = true;
    for (std::uint32_t m = r.mask; m; m &= m - 1) {
        unsigned l = static_cast<unsigned>(std::countr_zero(m));
        s[n] = {r.address[l], r.address[l] + r.size[l]};
        if (n && s[n].lo < s[n - 1].lo) sorted = false;
        ++n;
    }
    // Lanes usually go up through memory with their lane number: sorting is the rare case.
    if (!sorted) std::sort(s.begin(), s.begin() + n, [](Span a, Span b) { return a.lo < b.lo; });
    Cost c;
    std::uint64_t bytes = 0, run_lo = 0, run_hi = 0, last_sector = 0;
    bool any = false;
    for (unsigned i = 0; i < n; ++i) {
        if (s[i].hi <= s[i].lo) continue;
        if (!any || s[i].lo > run_hi) {
            bytes += run_hi - run_lo;
            run_lo = s[i].lo;
            run_hi = s[i].hi;
        } else {
            run_hi = std::max(run_hi, s[i].hi);
        }
        // Spans come in order of their start, so a sector already counted is at most the last.
        std::uint64_t first = s[i].lo / 32, last = (s[i].hi - 1) / 32;
        if (any && first <= last_sector) first = last_sector + 1;
        if (first <= last) c.actual += last - first + 1;
        last_sector = any ? std::max(last_sector, last) : last;
        any = true;
    }
    bytes += run_hi - run_lo;
    c.ideal = (bytes + 31) / 32;
    return c;
}

/// How many lanes share one 128-byte phase: the whole warp for accesses of up to 4 bytes,
/// half-warps for 8, quarter-warps for 16 (and more).
inline unsigned phase_lanes(std::uint32_t size) { return size <= 4 ? 32 : size <= 8 ? 16 : 8; }

/// Shared memory: 32 banks of 4 bytes, bank = (address / 4) mod 32. Each phase costs as many
/// wavefronts as the most distinct 4-byte words any one bank holds in it (lanes reading one
/// word share it: a broadcast); ideal: one wavefront per phase with an active lane.
inline Cost shared_cost(const Request& r) {
    std::uint32_t widest = 0;
    for (std::uint32_t m = r.mask; m; m &= m - 1)
        widest = std::max(widest, r.size[static_cast<unsigned>(std::countr_zero(m))]);
    const unsigned width = phase_lanes(widest);
    Cost c;
    for (unsigned first = 0; first < 32; first += width) {
        const std::uint32_t lanes = width == 32 ? ~0u : ((1u << width) - 1) << first;
        std::uint32_t active = r.mask & lanes;
        if (!active) continue;
        ++c.ideal;
        // At most 8 lanes of 16 bytes, 16 of 8, 32 of 4: 32 words, one more per lane when an
        // access straddles a word; a wider access (a struct copy) is cut at 64 words.
        std::array<std::uint64_t, 64> words;
        unsigned n = 0;
        for (; active; active &= active - 1) {
            unsigned l = static_cast<unsigned>(std::countr_zero(active));
            std::uint64_t w0 = r.address[l] / 4,
                          w1 = (r.address[l] + std::max(r.size[l], 1u) - 1) / 4;
            for (std::uint64_t w = w0; w <= w1 && n < words.size(); ++w) words[n++] = w;
        }
        std::sort(words.begin(), words.begin() + n);
        n = static_cast<unsigned>(std::unique(words.begin(), words.begin() + n) - words.begin());
        std::array<std::uint8_t, 32> per_bank{};
        std::uint8_t most = 0;
        for (unsigned i = 0; i < n; ++i) most = std::max(most, ++per_bank[words[i] % 32]);
        c.actual += most;
    }
    return c;
}

}  // namespace simt::sim::detail::profile
