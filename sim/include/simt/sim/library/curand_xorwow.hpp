// cuRAND's default device generator, XORWOW, as cuRAND documents it: Marsaglia's xorshift over five
// 32-bit words (J. Stat. Soft. 8(14), 2003, p. 5) plus a Weyl sequence d += 362437, seeded by
// cuRAND's scrambling of the 64-bit seed. Subsequence i starts 2^67 * i steps into the one stream.
//
// The xorshift part is linear over GF(2): one step is a 160x160 bit matrix M acting on v[0..4]
// (the Weyl counter d is added only to the output). cuRAND ships powers of M as tables
// (curand_precalc.h); here M^(2^j) are computed once, at the first curand_init, by squaring M
// repeatedly (tens of milliseconds), and kept for the program's life, each also as tables of 4-bit
// chunks so that applying one costs 40 lookups. Skipping n steps applies M^(2^j) for each set bit j
// of n; a subsequence jump applies M^(2^(67+j)). The powers commute, so the order does not matter.
//
// The values equal NVIDIA's bit for bit: tests/libraries/curand_first_values.cu holds the first
// values cuRAND's own header gives (run on the host, where nvcc is found, and on a GPU by its
// _cuda build) for subsequences and offsets up to 2^64 - 1, and the simulator must give them.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp> and <curand_kernel.h>, not the simulator's headers"
#endif
#include <array>
#include <cstdint>
#include <memory>

/// XORWOW's state: five xorshift words, the Weyl counter and the second Box-Muller value that
/// curand_normal keeps for its next call. The fields are cuRAND's; a program only passes a pointer.
struct curandStateXORWOW {
    unsigned int d, v[5];
    int boxmuller_flag;
    int boxmuller_flag_double;
    float boxmuller_extra;
    double boxmuller_extra_double;
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;

namespace simt::sim::detail::rng {

/// What curand_normal and curand_log_normal keep in boxmuller_flag: which of the two made the
/// cached value (cuRAND's EXTRA_FLAG_NORMAL and EXTRA_FLAG_LOG_NORMAL).
inline constexpr int cached_normal = 1;
inline constexpr int cached_log_normal = 2;

inline constexpr unsigned weyl_step = 362437;

/// One xorshift step of v; the caller adds the Weyl step to d.
inline unsigned xorshift_step(unsigned (&v)[5]) {
    unsigned t = v[0] ^ (v[0] >> 2);
    v[0] = v[1];
    v[1] = v[2];
    v[2] = v[3];
    v[3] = v[4];
    v[4] = (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1));
    return v[4];
}

/// A 160x160 matrix over GF(2): row i is the image of the state whose only set bit is bit i
/// (bit i % 32 of word i / 32), so applying it XORs together the rows of the set bits.
using BitMatrix = std::array<unsigned, 160 * 5>;

/// The same matrix as 40 tables, one per 4 bits of the state: table c, entry x is the XOR of the
/// rows of the bits of x, so that a product costs 40 lookups instead of 160 tests.
using NibbleTables = std::array<unsigned, 40 * 16 * 5>;

/// M^(2^j) for j = 0..130: j < 64 serve offsets (up to 2^64 - 1 steps), j >= 67 subsequences.
struct XorwowJumps {
    static constexpr int count = 131;
    static constexpr int subsequence_shift = 67;
    BitMatrix power[count];
    NibbleTables table[count];
};

// The precomputation and the matrix-vector product touch host memory only; they are left out of
// the instrumentation, which would otherwise cost a call per table read.
[[gnu::no_sanitize("thread"), gnu::noinline]] inline std::unique_ptr<XorwowJumps>
make_xorwow_jumps() {
    auto jumps = std::make_unique<XorwowJumps>();
    BitMatrix& step = jumps->power[0];
    for (int i = 0; i < 160; ++i) {
        unsigned v[5] = {0, 0, 0, 0, 0};
        v[i / 32] = 1u << (i % 32);
        xorshift_step(v);
        for (int w = 0; w < 5; ++w) step[i * 5 + w] = v[w];
    }
    for (int j = 1; j < XorwowJumps::count; ++j) {
        const BitMatrix& a = jumps->power[j - 1];
        BitMatrix& sq = jumps->power[j];
        for (int i = 0; i < 160; ++i) {  // row i of A*A: row i of A, then A applied to it
            unsigned out[5] = {0, 0, 0, 0, 0};
            for (int k = 0; k < 160; ++k)
                if (a[i * 5 + k / 32] >> (k % 32) & 1u)
                    for (int w = 0; w < 5; ++w) out[w] ^= a[k * 5 + w];
            for (int w = 0; w < 5; ++w) sq[i * 5 + w] = out[w];
        }
    }
    for (int j = 0; j < XorwowJumps::count; ++j) {
        const BitMatrix& m = jumps->power[j];
        NibbleTables& t = jumps->table[j];
        for (int c = 0; c < 40; ++c) {
            unsigned* entry = &t[c * 16 * 5];
            for (int w = 0; w < 5; ++w) entry[w] = 0;
            for (unsigned x = 1; x < 16; ++x) {  // x without its lowest bit, plus that bit's row
                int bit = __builtin_ctz(x);
                for (int w = 0; w < 5; ++w)
                    entry[x * 5 + w] = entry[(x & (x - 1)) * 5 + w] ^ m[(c * 4 + bit) * 5 + w];
            }
        }
    }
    return jumps;
}

inline const XorwowJumps& xorwow_jumps() {
    static const std::unique_ptr<XorwowJumps> jumps = make_xorwow_jumps();
    return *jumps;
}

/// v = M^(2^(first + j)) v for every set bit j of n.
[[gnu::no_sanitize("thread"), gnu::noinline]] inline void xorwow_jump(unsigned (&v)[5],
                                                                      unsigned long long n,
                                                                      int first) {
    const XorwowJumps& jumps = xorwow_jumps();
    for (int j = 0; n != 0; ++j, n >>= 1) {
        if (!(n & 1)) continue;
        const NibbleTables& t = jumps.table[first + j];
        unsigned out[5] = {0, 0, 0, 0, 0};
        for (int c = 0; c < 40; ++c) {
            const unsigned* entry = &t[(c * 16 + (v[c / 8] >> (c % 8 * 4) & 15u)) * 5];
            for (int w = 0; w < 5; ++w) out[w] ^= entry[w];
        }
        for (int w = 0; w < 5; ++w) v[w] = out[w];
    }
}

}  // namespace simt::sim::detail::rng

/// Moves `state` n values ahead, as n calls of curand(state) would.
/// In the simulator: the state is read and written once, through the checked path.
inline void skipahead(unsigned long long n, curandStateXORWOW_t* state) {
    curandStateXORWOW_t s = *state;
    simt::sim::detail::rng::xorwow_jump(s.v, n, 0);
    s.d += simt::sim::detail::rng::weyl_step * static_cast<unsigned>(n);
    *state = s;
}

/// Moves `state` n subsequences (n * 2^67 values) ahead. d needs no update: 2^67 Weyl steps add
/// a multiple of 2^32 to it.
inline void skipahead_sequence(unsigned long long n, curandStateXORWOW_t* state) {
    curandStateXORWOW_t s = *state;
    simt::sim::detail::rng::xorwow_jump(s.v, n,
                                        simt::sim::detail::rng::XorwowJumps::subsequence_shift);
    *state = s;
}

/// Seeds `state` as cuRAND does and moves it to value `offset` of subsequence `subsequence`.
/// In the simulator: the first call in a program builds the jump tables (tens of milliseconds);
/// each call then costs one 160-bit matrix product per set bit of `subsequence` and `offset`.
///
///     curand_init(1234, id, 0, &states[id]);  // thread id's own stream, 2^67 values long
inline void curand_init(unsigned long long seed, unsigned long long subsequence,
                        unsigned long long offset, curandStateXORWOW_t* state) {
    namespace cr = simt::sim::detail::rng;
    // cuRAND's scrambling: salt each half of the seed, then multiply by an odd constant.
    unsigned t0 = 1099087573u * (static_cast<unsigned>(seed) ^ 0xaad26b49u);
    unsigned t1 = 2591861531u * (static_cast<unsigned>(seed >> 32) ^ 0xf7dcefddu);
    curandStateXORWOW_t s;
    s.d = 6615241u + t1 + t0;
    s.v[0] = 123456789u + t0;
    s.v[1] = 362436069u ^ t0;
    s.v[2] = 521288629u + t1;
    s.v[3] = 88675123u ^ t1;
    s.v[4] = 5783321u + t0;
    cr::xorwow_jump(s.v, subsequence, cr::XorwowJumps::subsequence_shift);
    cr::xorwow_jump(s.v, offset, 0);
    s.d += cr::weyl_step * static_cast<unsigned>(offset);
    s.boxmuller_flag = 0;
    s.boxmuller_flag_double = 0;
    s.boxmuller_extra = 0.f;
    s.boxmuller_extra_double = 0.;
    *state = s;
}

/// The next 32 random bits of `state`.
inline unsigned int curand(curandStateXORWOW_t* state) {
    unsigned x = simt::sim::detail::rng::xorshift_step(state->v);
    state->d += simt::sim::detail::rng::weyl_step;
    return x + state->d;
}
