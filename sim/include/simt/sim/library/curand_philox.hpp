// Philox4x32-10, the counter-based generator of Salmon, Moraes, Dror and Shaw, "Parallel random
// numbers: as easy as 1, 2, 3" (SC'11): ten rounds of two 32x32->64-bit multiplies over a 128-bit
// counter and a 64-bit key, the key bumped by the Weyl constants between rounds. In cuRAND the
// key is the seed, the upper 64 counter bits are the subsequence and the lower 64 count blocks of
// four outputs, so curand_init sets the counter directly and a skip costs one block.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp> and <curand_kernel.h>, not the simulator's headers"
#endif
#include <cstdint>

/// Philox's state: the counter, its block of four outputs, which of them curand returns next
/// (STATE), the key, and the second Box-Muller value curand_normal keeps. The fields are cuRAND's.
struct curandStatePhilox4_32_10 {
    uint4 ctr;
    uint4 output;
    uint2 key;
    unsigned int STATE;
    int boxmuller_flag;
    int boxmuller_flag_double;
    float boxmuller_extra;
    double boxmuller_extra_double;
};
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;

namespace simt::sim::detail::rng {

// The paper's constants: the round multipliers and the key schedule's Weyl increments.
inline constexpr unsigned philox_m0 = 0xD2511F53u, philox_m1 = 0xCD9E8D57u;
inline constexpr unsigned philox_w0 = 0x9E3779B9u, philox_w1 = 0xBB67AE85u;

inline uint4 philox_round(uint4 c, uint2 k) {
    std::uint64_t p0 = std::uint64_t{philox_m0} * c.x, p1 = std::uint64_t{philox_m1} * c.z;
    auto hi = [](std::uint64_t p) { return static_cast<unsigned>(p >> 32); };
    auto lo = [](std::uint64_t p) { return static_cast<unsigned>(p); };
    return {hi(p1) ^ c.y ^ k.x, lo(p1), hi(p0) ^ c.w ^ k.y, lo(p0)};
}

inline std::uint64_t counter_low(const uint4& c) { return std::uint64_t{c.y} << 32 | c.x; }
inline std::uint64_t counter_high(const uint4& c) { return std::uint64_t{c.w} << 32 | c.z; }
inline void set_counter(uint4& c, std::uint64_t low, std::uint64_t high) {
    c = {static_cast<unsigned>(low), static_cast<unsigned>(low >> 32), static_cast<unsigned>(high),
         static_cast<unsigned>(high >> 32)};
}

/// The counter moved `n` blocks on, carrying into its upper half.
inline void advance_counter(uint4& c, unsigned long long n) {
    std::uint64_t low = counter_low(c) + n;
    set_counter(c, low, counter_high(c) + (low < n ? 1 : 0));
}

}  // namespace simt::sim::detail::rng

/// The Philox4x32-10 bijection itself: four 32-bit outputs for counter `c` under key `k`.
/// cuRAND's header has it under this name; Random123's known-answer vectors test it.
inline uint4 curand_Philox4x32_10(uint4 c, uint2 k) {
    namespace cr = simt::sim::detail::rng;
    for (int round = 0; round < 9; ++round) {
        c = cr::philox_round(c, k);
        k.x += cr::philox_w0;
        k.y += cr::philox_w1;
    }
    return cr::philox_round(c, k);
}

/// Moves `state` n values ahead, as n calls of curand(state) would.
inline void skipahead(unsigned long long n, curandStatePhilox4_32_10_t* state) {
    curandStatePhilox4_32_10_t s = *state;
    s.STATE += static_cast<unsigned>(n & 3);
    n /= 4;
    if (s.STATE > 3) {
        n += 1;
        s.STATE -= 4;
    }
    simt::sim::detail::rng::advance_counter(s.ctr, n);
    s.output = curand_Philox4x32_10(s.ctr, s.key);
    *state = s;
}

/// Moves `state` n subsequences (2^66 values each) ahead: the counter's upper half.
inline void skipahead_sequence(unsigned long long n, curandStatePhilox4_32_10_t* state) {
    namespace cr = simt::sim::detail::rng;
    curandStatePhilox4_32_10_t s = *state;
    cr::set_counter(s.ctr, cr::counter_low(s.ctr), cr::counter_high(s.ctr) + n);
    s.output = curand_Philox4x32_10(s.ctr, s.key);
    *state = s;
}

/// Seeds `state` with key `seed`, at value `offset` of subsequence `subsequence`.
/// In the simulator: as cheap as on a GPU (a counter is set, one block computed).
inline void curand_init(unsigned long long seed, unsigned long long subsequence,
                        unsigned long long offset, curandStatePhilox4_32_10_t* state) {
    curandStatePhilox4_32_10_t s{};
    s.key = {static_cast<unsigned>(seed), static_cast<unsigned>(seed >> 32)};
    *state = s;
    skipahead_sequence(subsequence, state);
    skipahead(offset, state);
}

/// The next 32 random bits of `state`.
inline unsigned int curand(curandStatePhilox4_32_10_t* state) {
    unsigned i = state->STATE;
    uint4 out = state->output;
    unsigned r = i == 0 ? out.x : i == 1 ? out.y : i == 2 ? out.z : out.w;
    if (i + 1 == 4) {
        simt::sim::detail::rng::advance_counter(state->ctr, 1);
        state->output = curand_Philox4x32_10(state->ctr, state->key);
        state->STATE = 0;
    } else {
        state->STATE = i + 1;
    }
    return r;
}

/// The next four values of `state` at once, as four curand(state) calls would give them.
inline uint4 curand4(curandStatePhilox4_32_10_t* state) {
    uint4 now = state->output;
    simt::sim::detail::rng::advance_counter(state->ctr, 1);
    uint4 next = curand_Philox4x32_10(state->ctr, state->key);
    state->output = next;
    switch (state->STATE) {
        case 1: return {now.y, now.z, now.w, next.x};
        case 2: return {now.z, now.w, next.x, next.y};
        case 3: return {now.w, next.x, next.y, next.z};
        default: return now;
    }
}
