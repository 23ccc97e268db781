// The rules that turn one warp-level request into Nsight Compute's counts: 32-byte sectors for
// global memory, bank wavefronts for shared memory. Pure functions of the lanes' addresses, so
// that docs/profiling.md and tests/profile/ can state them and pin them.
#pragma once
#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>
#include <bitset>

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

/// Global-memory sectors a block or a launch touched, as bits in chunks of 4,096 sectors
/// (128 KiB of memory): the time model's distinct sectors (device/timing.hpp).
class SectorSet {
public:
    void add(std::uint64_t sector) {
        const std::uint64_t key = sector >> 12;
        if (key != last_key_) {
            last_ = &chunks_[key];  // a node of an unordered_map keeps its address
            last_key_ = key;
        }
        last_->set(sector & 4095);
    }
    /// Marks the sectors that bytes [address, address + size) fall in.
    void add_bytes(std::uint64_t address, std::uint32_t size) {
        for (std::uint64_t s = address / 32, e = (address + std::max(size, 1u) - 1) / 32; s <= e; ++s)
            add(s);
    }
    void merge(const SectorSet& o) {
        for (const auto& [key, bits] : o.chunks_) chunks_[key] |= bits;
    }
    std::uint64_t count() const {
        std::uint64_t n = 0;
        for (const auto& [key, bits] : chunks_) n += bits.count();
        return n;
    }
    /// Sectors in this set or in `o`.
    std::uint64_t count_with(const SectorSet& o) const {
        std::uint64_t n = count();
        for (const auto& [key, bits] : o.chunks_) {
            auto it = chunks_.find(key);
            n += it == chunks_.end() ? bits.count() : (bits & ~it->second).count();
        }
        return n;
    }
    void clear() {
        chunks_.clear();
        last_ = nullptr;
        last_key_ = ~std::uint64_t(0);
    }
    /// Calls `f(first, bits)` for each chunk: bit i of `bits` is sector first + i.
    template <class F>
    void each_chunk(F&& f) const {
        for (const auto& [key, bits] : chunks_) f(key << 12, bits);
    }

private:
    std::unordered_map<std::uint64_t, std::bitset<4096>> chunks_;
    std::bitset<4096>* last_ = nullptr;
    std::uint64_t last_key_ = ~std::uint64_t(0);
};

/// The arithmetic one execution of a source line does, counted from its text for the time
/// model's compute term (docs/profiling.md, "Predicted time"): each binary + - * / % & | ^ << >>,
/// comparison, && and ||, each compound assignment and ++ or --, and each call of a math
/// function (sqrtf, expf, fmaf, ...; any name ending in f( from the CUDA math library counts the
/// same as its double form). Comments and literals are skipped. It counts operators as nvcc
/// leaves them: a product that is an operand of a sum is one fused multiply-add (a * b + c,
/// s += a * b, (a * b) + c: one FMA or IMAD, as nvcc contracts by default; not (a + b) * c, nor
/// across a comparison, an argument or a statement); a for statement's own parentheses (its
/// start, test and step) count nothing, as nvcc unrolls a loop and folds its control; nor does
/// an index's arithmetic inside [ ], which nvcc folds into the load's address or strength-reduces
/// out of the loop; nor does a kernel's or device function's signature.
inline unsigned arithmetic_ops(std::string_view line) {
    static constexpr std::string_view math[] = {
        "sqrt", "rsqrt", "cbrt", "exp", "exp2", "exp10", "expm1", "log", "log2", "log10",
        "log1p", "pow", "sin", "cos", "tan", "sincos", "asin", "acos", "atan", "atan2", "sinh",
        "cosh", "tanh", "fma", "fmax", "fmin", "fabs", "floor", "ceil", "round", "trunc",
        "erf", "erfc", "hypot", "__expf", "__logf", "__sinf", "__cosf", "__powf", "__fdividef",
        "__fmul_rn", "__fadd_rn", "__fmaf_rn", "max", "min"};
    // A signature's parameter list is no arithmetic: start at its body, if it is on this line.
    for (std::string_view qualifier : {"__global__", "__device__"})
        if (line.find(qualifier) != std::string_view::npos) {
            const std::size_t body = line.find('{');
            line = body == std::string_view::npos ? std::string_view() : line.substr(body);
            break;
        }
    // Where products may fuse with sums. A scope is the line, or a call's (or a condition's)
    // parentheses, whose contents meet nothing outside them; in it, products and sums by their
    // depth of grouping parentheses: a product fuses with a sum at its own depth or outside it.
    // A comparison, a comma or a semicolon ends what may fuse so far.
    constexpr unsigned depths = 8;
    struct Scope {
        std::array<unsigned, depths> multiplies{}, adds{};
        unsigned depth = 0;
    };
    std::vector<Scope> scopes(1);
    unsigned ops = 0, fused = 0, index_depth = 0;
    auto settle = [&](Scope& sc) {
        for (unsigned m = depths; m-- > 0;)
            for (unsigned a = m + 1; a-- > 0 && sc.multiplies[m];) {
                const unsigned n = std::min(sc.multiplies[m], sc.adds[a]);
                sc.multiplies[m] -= n, sc.adds[a] -= n, fused += n;
            }
        sc.multiplies = {}, sc.adds = {};
    };
    enum class Kind { multiply, add, other };
    auto count = [&](Kind kind) {
        if (index_depth != 0) return;
        ++ops;
        Scope& sc = scopes.back();
        const unsigned d = std::min(sc.depth, depths - 1);
        if (kind == Kind::multiply) ++sc.multiplies[d];
        if (kind == Kind::add) ++sc.adds[d];
    };
    char prev = 0;      // the last character that was not a space: what an operator follows
    bool name = false;  // the last token was a name: a ( after it opens a call
    auto operand_end = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ')' || c == ']' ||
               c == '.';
    };
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i], next = i + 1 < line.size() ? line[i + 1] : 0;
        if (c == '/' && next == '/') break;
        if (std::isspace(static_cast<unsigned char>(c))) continue;
        const bool after_name = name;
        name = false;
        if (c == '"' || c == '\'') {  // a literal: skip to its closing quote
            for (++i; i < line.size() && line[i] != c; ++i)
                if (line[i] == '\\') ++i;
            prev = 'x';
            continue;
        }
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            std::size_t end = i;
            while (end < line.size() &&
                   (std::isalnum(static_cast<unsigned char>(line[end])) || line[end] == '_'))
                ++end;
            std::string_view word = line.substr(i, end - i);
            std::size_t after = end;
            while (after < line.size() && line[after] == ' ') ++after;
            if (word == "for" && after < line.size() && line[after] == '(') {
                // The loop's control: skip to the parenthesis that closes it.
                unsigned depth = 0;
                for (i = after; i < line.size(); ++i)
                    if (line[i] == '(')
                        ++depth;
                    else if (line[i] == ')' && --depth == 0)
                        break;
                prev = ')';
                continue;
            }
            if (after < line.size() && line[after] == '(') {
                std::string_view base = word;
                if (base.size() > 1 && base.back() == 'f') base.remove_suffix(1);
                for (std::string_view m : math)
                    if (word == m || base == m) {
                        count(Kind::other);
                        break;
                    }
            }
            i = end - 1;
            prev = 'x';
            name = word != "return";
            continue;
        }
        if (c == '[') ++index_depth;
        if (c == ']' && index_depth) --index_depth;
        if (c == '(') {
            if (after_name)
                scopes.emplace_back();
            else
                ++scopes.back().depth;
        }
        if (c == ')') {
            if (scopes.back().depth) {
                --scopes.back().depth;
            } else if (scopes.size() > 1) {
                settle(scopes.back());
                scopes.pop_back();
            }
        }
        if (c == ',' || c == ';' || c == '?' || c == ':') settle(scopes.back());
        if ((c == '+' || c == '-') && next == c) {  // ++ and --
            count(Kind::other);
            ++i;
            prev = ')';
            continue;
        }
        if (c == '-' && next == '>') {
            ++i;
            prev = 0;
            continue;
        }
        if ((c == '&' || c == '|') && next == c) {
            settle(scopes.back());
            count(Kind::other);
            ++i;
            prev = 0;
            continue;
        }
        if ((c == '<' || c == '>') && next == c) {  // a shift, or its compound form
            count(Kind::other);
            i += 1 + (i + 2 < line.size() && line[i + 2] == '=');
            prev = 0;
            continue;
        }
        if (c == '<' || c == '>' || ((c == '=' || c == '!') && next == '=')) {
            settle(scopes.back());
            count(Kind::other);
            if (next == '=') ++i;
            prev = 0;
            continue;
        }
        if (std::string_view("+-*/%&|^").find(c) != std::string_view::npos) {
            if (next == '=') {  // a compound assignment: s += a * b fuses, s *= a + b does not
                count(c == '+' || c == '-' ? Kind::add : Kind::other);
                ++i;
            } else if (operand_end(prev)) {
                // Binary: it follows an operand (a unary - or a *p does not).
                count(c == '*' ? Kind::multiply : c == '+' || c == '-' ? Kind::add : Kind::other);
            }
            prev = 0;
            continue;
        }
        prev = c;
    }
    for (Scope& sc : scopes) settle(sc);
    return ops - fused;
}

}  // namespace simt::sim::detail::profile
