// CUDA's device math and integer intrinsics as host C++, with CUDA's documented results.
//
// The fast intrinsics (__expf, __sinf, ...) are the accurate functions here: a GPU's results lie
// within the documented error of these. Everything CUDA defines exactly (rounding modes,
// conversions with their saturation, the bit intrinsics) gives exactly CUDA's result.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include <math.h>  // the C names in the global namespace (sqrtf, isnan, ...), as CUDA has them

#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <ctime>  // clock(): a kernel's clock() is <ctime>'s, returning clock_t as CUDA's does
#include <limits>
#include <numbers>
#include <thread>
#include <type_traits>

namespace simt::sim::detail {

enum class Round { rn, rz, ru, rd };

/// exact = v + tail, where v is exact rounded to nearest double and only tail's sign matters,
/// rounded to odd: an inexact v gets its last bit set, which keeps it on the same side of every
/// float (or half) and every midpoint between them as the exact value, so that rounding it once
/// more to 24 (11) bits, in any mode, is rounding the exact value once.
inline double round_to_odd(double v, double tail) {
    if (tail != 0 && std::isfinite(v) && (std::bit_cast<std::uint64_t>(v) & 1) == 0)
        v = std::nextafter(v, tail > 0 ? HUGE_VAL : -HUGE_VAL);
    return v;
}
/// exact = v + tail (as above) rounded to float in mode m.
template <Round m>
float to_float(double v, double tail) {
    v = round_to_odd(v, tail);
    float f = static_cast<float>(v);  // to nearest, ties to even
    if constexpr (m == Round::rz) {
        if (std::fabs(static_cast<double>(f)) > std::fabs(v)) f = std::nextafter(f, 0.0f);
    } else if constexpr (m == Round::ru) {
        if (static_cast<double>(f) < v) f = std::nextafter(f, HUGE_VALF);
    } else if constexpr (m == Round::rd) {
        if (static_cast<double>(f) > v) f = std::nextafter(f, -HUGE_VALF);
    }
    return f;
}

/// The error of a + b rounded to double (Knuth's TwoSum): a + b == s + error, exactly.
inline double sum_error(double a, double b, double s) {
    double bb = s - a;
    return (a - (s - bb)) + (b - bb);
}

// Float operations done in double, where the product of two floats is exact and the error of a
// sum, quotient or root is found exactly, so every rounding mode gets its correct result.
/// s = a + b: an exact zero is -0 when rounding down unless both terms are +0 (IEEE 754); the
/// host's addition, rounding to nearest, made it +0.
template <Round m>
double signed_zero(double s, double a, double b) {
    if (m == Round::rd && s == 0 && (std::signbit(a) || std::signbit(b) || a != 0)) return -0.0;
    return s;
}
template <Round m>
float rounded_add(float a, float b) {
    double s = static_cast<double>(a) + b;
    return to_float<m>(signed_zero<m>(s, a, b), sum_error(a, b, s));
}
template <Round m>
float rounded_mul(float a, float b) { return to_float<m>(static_cast<double>(a) * b, 0); }
template <Round m>
float rounded_fma(float a, float b, float c) {
    double p = static_cast<double>(a) * b;
    double s = p + c;
    return to_float<m>(signed_zero<m>(s, p, c), sum_error(p, c, s));
}
template <Round m>
float rounded_div(float a, float b) {
    double q = static_cast<double>(a) / b;
    double r = std::isfinite(q) && q != 0 ? std::fma(-q, static_cast<double>(b), a) : 0.0;
    return to_float<m>(q, b > 0 ? r : -r);  // a - q*b is exact, and a/b - q = r/b
}
template <Round m>
float rounded_sqrt(float a) {
    double q = std::sqrt(static_cast<double>(a));
    return to_float<m>(q, std::isfinite(q) && q != 0 ? std::fma(-q, q, a) : 0.0);
}

/// A float or double rounded to an integer type in mode m, as the GPU's cvt does: out of range
/// clamps to the type's limits; NaN gives 0, except from a double or to a 64-bit type, where it
/// gives the bit pattern 1 << (bits - 1) (the PTX ISA, cvt).
template <class I, Round m, class F>
I to_integer(F x) {
    using L = std::numeric_limits<I>;
    if (std::isnan(x)) {
        if constexpr (std::is_same_v<F, float> && sizeof(I) < 8) return 0;
        else return static_cast<I>(std::make_unsigned_t<I>(1) << (8 * sizeof(I) - 1));
    }
    F r = m == Round::rn ? std::nearbyint(x)
        : m == Round::rz ? std::trunc(x)
        : m == Round::ru ? std::ceil(x)
                         : std::floor(x);
    // Both limits as F: the lower one exactly (0 or -2^(bits-1)), the upper one 2^bits or
    // 2^(bits-1), one past the largest value, also exact.
    const F lo = static_cast<F>(L::min());
    const F past_hi = static_cast<F>(L::max() / 2 + 1) * 2;
    if (r < lo) return L::min();
    if (r >= past_hi) return L::max();
    return static_cast<I>(r);
}

// sin(pi x) and cos(pi x) without the error of rounding pi x: x = n/2 + r with |r| <= 1/4.
inline void sincospi(double x, double* s, double* c) {
    if (!std::isfinite(x)) {
        *s = *c = x - x;  // NaN
        return;
    }
    double n = std::nearbyint(2 * x);
    double r = (x - n / 2) * std::numbers::pi;
    double sr = std::sin(r), cr = std::cos(r);
    switch (static_cast<long long>(std::fmod(n, 4.0) + 4) % 4) {
        case 0: *s = sr, *c = cr; break;
        case 1: *s = cr, *c = -sr; break;
        case 2: *s = -sr, *c = -cr; break;
        default: *s = -cr, *c = sr; break;
    }
    if (*s == 0) *s = std::copysign(0.0, x);  // sinpi(+-n) is +-0
    if (*c == 0) *c = 0.0;                    // cospi(n + 1/2) is +0
}

template <class T>
T min_of(T a, T b) { return b < a ? b : a; }
template <class T>
T max_of(T a, T b) { return a < b ? b : a; }

}  // namespace simt::sim::detail

// ---- Single-precision intrinsics and the CUDA-only math functions -------------------------------

inline float __expf(float x) { return expf(x); }
inline float __exp10f(float x) { return exp10f(x); }
inline float __logf(float x) { return logf(x); }
inline float __log2f(float x) { return log2f(x); }
inline float __log10f(float x) { return log10f(x); }
inline float __powf(float x, float y) { return powf(x, y); }
inline float __sinf(float x) { return sinf(x); }
inline float __cosf(float x) { return cosf(x); }
inline float __tanf(float x) { return tanf(x); }
inline void __sincosf(float x, float* s, float* c) {
    *s = sinf(x);
    *c = cosf(x);
}
/// x / y, except that 2^126 < |y| < 2^128 gives 0 (NaN for an infinite x): the GPU multiplies
/// by 1/y, which is flushed to zero there.
inline float __fdividef(float x, float y) {
    if (fabsf(y) > 0x1p126f && fabsf(y) < HUGE_VALF) return x * copysignf(0.0f, y);
    return x / y;
}
inline float fdividef(float x, float y) { return x / y; }
/// x clamped to [+0, 1]; NaN gives +0.
inline float __saturatef(float x) { return x >= 1.0f ? 1.0f : x > 0.0f ? x : 0.0f; }

inline float rsqrtf(float x) { return static_cast<float>(1.0 / sqrt(static_cast<double>(x))); }
inline double rsqrt(double x) { return 1.0 / sqrt(x); }
inline float rcbrtf(float x) { return static_cast<float>(1.0 / cbrt(static_cast<double>(x))); }
inline double rcbrt(double x) { return 1.0 / cbrt(x); }

inline void sincospi(double x, double* s, double* c) { simt::sim::detail::sincospi(x, s, c); }
inline void sincospif(float x, float* s, float* c) {
    double sd, cd;
    simt::sim::detail::sincospi(x, &sd, &cd);
    *s = static_cast<float>(sd), *c = static_cast<float>(cd);
}
#if !defined(__GLIBC__) || __GLIBC__ * 100 + __GLIBC_MINOR__ < 241  // C23's, in glibc since 2.41
inline double sinpi(double x) { double s, c; sincospi(x, &s, &c); return s; }
inline double cospi(double x) { double s, c; sincospi(x, &s, &c); return c; }
inline float sinpif(float x) { return static_cast<float>(sinpi(x)); }
inline float cospif(float x) { return static_cast<float>(cospi(x)); }
#endif
#if !defined(__GLIBC__)  // glibc declares these two as GNU extensions
inline float exp10f(float x) { return powf(10.0f, x); }
inline void sincosf(float x, float* s, float* c) { __sincosf(x, s, c); }
#endif

// Euclidean norms, summed in double (float) or with hypot (double) so that nothing overflows.
inline float normf(int dim, const float* a) {
    double s = 0;
    for (int i = 0; i < dim; ++i) s += static_cast<double>(a[i]) * a[i];
    return static_cast<float>(sqrt(s));
}
inline float rnormf(int dim, const float* a) { return 1.0f / normf(dim, a); }
inline float norm3df(float a, float b, float c) {
    float v[] = {a, b, c};
    return normf(3, v);
}
inline float rnorm3df(float a, float b, float c) { return 1.0f / norm3df(a, b, c); }
inline float norm4df(float a, float b, float c, float d) {
    float v[] = {a, b, c, d};
    return normf(4, v);
}
inline float rnorm4df(float a, float b, float c, float d) { return 1.0f / norm4df(a, b, c, d); }
inline float rhypotf(float x, float y) { return static_cast<float>(1.0 / hypot(x, y)); }
inline double norm(int dim, const double* a) {
    double s = 0;
    for (int i = 0; i < dim; ++i) s = hypot(s, a[i]);
    return s;
}
inline double rnorm(int dim, const double* a) { return 1.0 / norm(dim, a); }
inline double norm3d(double a, double b, double c) { return hypot(hypot(a, b), c); }
inline double rnorm3d(double a, double b, double c) { return 1.0 / norm3d(a, b, c); }
inline double norm4d(double a, double b, double c, double d) { return hypot(norm3d(a, b, c), d); }
inline double rnorm4d(double a, double b, double c, double d) { return 1.0 / norm4d(a, b, c, d); }
inline double rhypot(double x, double y) { return 1.0 / hypot(x, y); }

// ---- IEEE operations in a named rounding mode: to nearest even, toward zero, up, down -----------

// __fadd_rz is rounded_add<Round::rz>, and so on for each operation and mode.
#define SIMT_SIM_IN(mode, f) simt::sim::detail::f<simt::sim::detail::Round::mode>
#define SIMT_SIM_ROUNDED(m)                                                                      \
    inline float __fadd_##m(float a, float b) { return SIMT_SIM_IN(m, rounded_add)(a, b); }      \
    inline float __fsub_##m(float a, float b) { return SIMT_SIM_IN(m, rounded_add)(a, -b); }     \
    inline float __fmul_##m(float a, float b) { return SIMT_SIM_IN(m, rounded_mul)(a, b); }      \
    inline float __fmaf_##m(float a, float b, float c) {                                         \
        return SIMT_SIM_IN(m, rounded_fma)(a, b, c);                                             \
    }                                                                                            \
    inline float __fdiv_##m(float a, float b) { return SIMT_SIM_IN(m, rounded_div)(a, b); }      \
    inline float __frcp_##m(float a) { return SIMT_SIM_IN(m, rounded_div)(1.0f, a); }            \
    inline float __fsqrt_##m(float a) { return SIMT_SIM_IN(m, rounded_sqrt)(a); }                \
    inline float __double2float_##m(double a) { return SIMT_SIM_IN(m, to_float)(a, 0); }         \
    inline float __int2float_##m(int a) { return SIMT_SIM_IN(m, to_float)(a, 0); }               \
    inline float __uint2float_##m(unsigned a) { return SIMT_SIM_IN(m, to_float)(a, 0); }
SIMT_SIM_ROUNDED(rn)
SIMT_SIM_ROUNDED(rz)
SIMT_SIM_ROUNDED(ru)
SIMT_SIM_ROUNDED(rd)
#undef SIMT_SIM_ROUNDED
#undef SIMT_SIM_IN
// Double precision in the default mode only: the host's own operations round to nearest even.
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dsub_rn(double a, double b) { return a - b; }
inline double __dmul_rn(double a, double b) { return a * b; }
inline double __ddiv_rn(double a, double b) { return a / b; }
inline double __drcp_rn(double a) { return 1.0 / a; }
inline double __dsqrt_rn(double a) { return sqrt(a); }
inline double __fma_rn(double a, double b, double c) { return fma(a, b, c); }
inline float __ll2float_rn(long long a) { return static_cast<float>(a); }
inline float __ull2float_rn(unsigned long long a) { return static_cast<float>(a); }
inline double __int2double_rn(int a) { return a; }
inline double __uint2double_rn(unsigned a) { return a; }
inline double __ll2double_rn(long long a) { return static_cast<double>(a); }
inline double __ull2double_rn(unsigned long long a) { return static_cast<double>(a); }

// ---- Float to integer in each rounding mode, saturating -----------------------------------------

#define SIMT_SIM_TO_INTEGER_IN(from, F, to, I, m)                                              \
    inline I __##from##2##to##_##m(F x) {                                                        \
        return simt::sim::detail::to_integer<I, simt::sim::detail::Round::m>(x);                 \
    }
#define SIMT_SIM_TO_INTEGER(from, F, to, I)                                                      \
    SIMT_SIM_TO_INTEGER_IN(from, F, to, I, rn) SIMT_SIM_TO_INTEGER_IN(from, F, to, I, rz)        \
    SIMT_SIM_TO_INTEGER_IN(from, F, to, I, ru) SIMT_SIM_TO_INTEGER_IN(from, F, to, I, rd)
SIMT_SIM_TO_INTEGER(float, float, int, int)
SIMT_SIM_TO_INTEGER(float, float, uint, unsigned)
SIMT_SIM_TO_INTEGER(float, float, ll, long long)
SIMT_SIM_TO_INTEGER(float, float, ull, unsigned long long)
SIMT_SIM_TO_INTEGER(double, double, int, int)
SIMT_SIM_TO_INTEGER(double, double, uint, unsigned)
SIMT_SIM_TO_INTEGER(double, double, ll, long long)
SIMT_SIM_TO_INTEGER(double, double, ull, unsigned long long)
#undef SIMT_SIM_TO_INTEGER
#undef SIMT_SIM_TO_INTEGER_IN

// ---- Reinterpreting bits ------------------------------------------------------------------------

inline int __float_as_int(float x) { return std::bit_cast<int>(x); }
inline unsigned __float_as_uint(float x) { return std::bit_cast<unsigned>(x); }
inline float __int_as_float(int x) { return std::bit_cast<float>(x); }
inline float __uint_as_float(unsigned x) { return std::bit_cast<float>(x); }
inline long long __double_as_longlong(double x) { return std::bit_cast<long long>(x); }
inline double __longlong_as_double(long long x) { return std::bit_cast<double>(x); }
inline int __double2hiint(double x) {
    return static_cast<int>(std::bit_cast<std::uint64_t>(x) >> 32);
}
inline int __double2loint(double x) { return static_cast<int>(std::bit_cast<std::uint64_t>(x)); }
inline double __hiloint2double(int hi, int lo) {
    return std::bit_cast<double>(static_cast<unsigned long long>(static_cast<unsigned>(hi)) << 32 |
                                 static_cast<unsigned>(lo));
}

// ---- Integer intrinsics -------------------------------------------------------------------------

/// The low 32 bits of the product of x's and y's low 24 bits, read as signed 24-bit numbers.
inline int __mul24(int x, int y) {
    auto low24 = [](int v) { return static_cast<int>(static_cast<unsigned>(v) << 8) >> 8; };
    return static_cast<int>(static_cast<unsigned>(low24(x)) * static_cast<unsigned>(low24(y)));
}
/// The low 32 bits of the product of x's and y's low 24 bits.
inline unsigned __umul24(unsigned x, unsigned y) { return (x & 0xFFFFFFu) * (y & 0xFFFFFFu); }
/// The high 32 (64) bits of the 64-bit (128-bit) product.
inline int __mulhi(int x, int y) { return static_cast<int>((static_cast<long long>(x) * y) >> 32); }
inline unsigned __umulhi(unsigned x, unsigned y) {
    return static_cast<unsigned>((static_cast<unsigned long long>(x) * y) >> 32);
}
inline long long __mul64hi(long long x, long long y) {
    return static_cast<long long>((static_cast<__int128>(x) * y) >> 64);
}
inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
    return static_cast<unsigned long long>((static_cast<unsigned __int128>(x) * y) >> 64);
}
inline int __popc(unsigned x) { return std::popcount(x); }
inline int __popcll(unsigned long long x) { return std::popcount(x); }
/// Leading zero bits: 32 (64) for 0.
inline int __clz(int x) { return std::countl_zero(static_cast<unsigned>(x)); }
inline int __clzll(long long x) { return std::countl_zero(static_cast<unsigned long long>(x)); }
/// The position of the lowest set bit counting from 1; 0 for 0.
inline int __ffs(int x) { return x == 0 ? 0 : std::countr_zero(static_cast<unsigned>(x)) + 1; }
inline int __ffsll(long long x) {
    return x == 0 ? 0 : std::countr_zero(static_cast<unsigned long long>(x)) + 1;
}
inline unsigned __brev(unsigned x) {
    unsigned r = 0;
    for (int i = 0; i < 32; ++i, x >>= 1) r = r << 1 | (x & 1);
    return r;
}
inline unsigned long long __brevll(unsigned long long x) {
    return static_cast<unsigned long long>(__brev(static_cast<unsigned>(x))) << 32 |
           __brev(static_cast<unsigned>(x >> 32));
}
/// Byte n of the result is byte ((s >> 4n) & 7) of the eight bytes y:x (x's low byte is 0).
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
    unsigned long long bytes = static_cast<unsigned long long>(y) << 32 | x;
    unsigned r = 0;
    for (int n = 0; n < 4; ++n) {
        unsigned byte = static_cast<unsigned>(bytes >> (8 * ((s >> (4 * n)) & 7))) & 0xFFu;
        r |= byte << (8 * n);
    }
    return r;
}
/// hi:lo shifted left (right) by shift & 31 (the _lc/_rc forms: by min(shift, 32)); the high
/// (low) 32 bits.
inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned shift) {
    unsigned long long v = static_cast<unsigned long long>(hi) << 32 | lo;
    return static_cast<unsigned>((v << (shift & 31)) >> 32);
}
inline unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned shift) {
    return shift >= 32 ? lo : __funnelshift_l(lo, hi, shift);
}
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned shift) {
    unsigned long long v = static_cast<unsigned long long>(hi) << 32 | lo;
    return static_cast<unsigned>(v >> (shift & 31));
}
inline unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned shift) {
    return shift >= 32 ? hi : __funnelshift_r(lo, hi, shift);
}
/// |x - y| + z, modulo 2^32.
inline unsigned __sad(int x, int y, unsigned z) {
    long long d = static_cast<long long>(x) - y;
    return static_cast<unsigned>(d < 0 ? -d : d) + z;
}
inline unsigned __usad(unsigned x, unsigned y, unsigned z) { return (x > y ? x - y : y - x) + z; }
/// (x + y) >> 1 and (x + y + 1) >> 1 without overflow in the sum.
inline int __hadd(int x, int y) { return static_cast<int>((std::int64_t{x} + y) >> 1); }
inline int __rhadd(int x, int y) { return static_cast<int>((std::int64_t{x} + y + 1) >> 1); }
inline unsigned __uhadd(unsigned x, unsigned y) {
    return static_cast<unsigned>((static_cast<unsigned long long>(x) + y) >> 1);
}
inline unsigned __urhadd(unsigned x, unsigned y) {
    return static_cast<unsigned>((static_cast<unsigned long long>(x) + y + 1) >> 1);
}

// ---- min and max with the overloads of CUDA's math_functions.hpp --------------------------------

// Mixed signed and unsigned arguments compare as unsigned, as CUDA's overloads do. Floats take
// fminf/fmaxf's rule: a NaN loses to a number.
#define SIMT_SIM_MIN_MAX(R, A, B)                                                                \
    inline R min(A a, B b) { return simt::sim::detail::min_of<R>(a, b); }                        \
    inline R max(A a, B b) { return simt::sim::detail::max_of<R>(a, b); }
SIMT_SIM_MIN_MAX(int, int, int)
SIMT_SIM_MIN_MAX(unsigned, unsigned, unsigned)
SIMT_SIM_MIN_MAX(unsigned, int, unsigned)
SIMT_SIM_MIN_MAX(unsigned, unsigned, int)
SIMT_SIM_MIN_MAX(long, long, long)
SIMT_SIM_MIN_MAX(unsigned long, unsigned long, unsigned long)
SIMT_SIM_MIN_MAX(unsigned long, long, unsigned long)
SIMT_SIM_MIN_MAX(unsigned long, unsigned long, long)
SIMT_SIM_MIN_MAX(long long, long long, long long)
SIMT_SIM_MIN_MAX(unsigned long long, unsigned long long, unsigned long long)
SIMT_SIM_MIN_MAX(unsigned long long, long long, unsigned long long)
SIMT_SIM_MIN_MAX(unsigned long long, unsigned long long, long long)
#undef SIMT_SIM_MIN_MAX
inline float min(float a, float b) { return fminf(a, b); }
inline float max(float a, float b) { return fmaxf(a, b); }
inline double min(double a, double b) { return fmin(a, b); }
inline double max(double a, double b) { return fmax(a, b); }
inline double min(float a, double b) { return fmin(a, b); }
inline double max(float a, double b) { return fmax(a, b); }
inline double min(double a, float b) { return fmin(a, b); }
inline double max(double a, float b) { return fmax(a, b); }
inline unsigned umin(unsigned a, unsigned b) { return min(a, b); }
inline unsigned umax(unsigned a, unsigned b) { return max(a, b); }
inline long long llmin(long long a, long long b) { return min(a, b); }
inline long long llmax(long long a, long long b) { return max(a, b); }
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return min(a, b); }
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return max(a, b); }

// ---- Time ---------------------------------------------------------------------------------------

/// A counter that only increases (here: nanoseconds of the host's steady clock, not GPU cycles).
inline long long clock64() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
/// A hint to wait about ns nanoseconds. In the simulator: lets another block's OS thread run;
/// the fibers of this block do not run meanwhile, as they never run alongside each other.
inline void __nanosleep(unsigned) { std::this_thread::yield(); }
