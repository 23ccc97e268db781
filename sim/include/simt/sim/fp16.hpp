// <cuda_fp16.h> for the simulator: __half and __half2, their conversions, arithmetic, comparisons,
// math, atomicAdd and shuffles, with the results of a GPU's IEEE half precision.
//
// A __half holds the 16 bits. Conversions round to nearest even with the compiler's _Float16
// where it has one (GCC 12 and later on x86-64 with SSE2, Clang 15 and later; its conversions
// are IEEE's), else with the bit-level conversion below, which also gives the other rounding
// modes. Arithmetic is done in float and rounded once to half: float's 24 bits are enough for
// a double rounding of +, -, *, / and sqrt to be exact (Figueroa); fma rounds to odd first.
// A NaN result is CUDA's canonical NaN, 0x7FFF.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include <bit>
#include <cmath>
#include <limits>

#include "simt/sim/atomics.hpp"
#include "simt/sim/math.hpp"
#include "simt/sim/vector_types.hpp"
#include "simt/sim/warp/intrinsics.hpp"

namespace simt::sim::detail {

inline constexpr unsigned short half_nan = 0x7FFF;

/// v rounded in mode m to a 16-bit binary format with Mant fraction bits and largest exponent
/// Emax (half: 10 and 15; bfloat16, in bf16.hpp: 7 and 127), as bits: the magnitude is scaled by
/// 2^(Mant - e) to units of the last place (exactly: a power of two) and rounded to an integer
/// there; a carry out of the significand carries into the exponent, as it should.
template <Round m, int Mant = 10, int Emax = 15>
unsigned short half_bits(double v) {
    if (std::isnan(v)) return half_nan;
    constexpr unsigned inf = (2u * Emax + 1) << Mant;  // 0x7C00 for half
    const unsigned sign = std::signbit(v) ? 0x8000u : 0u;
    const bool away = (m == Round::ru && !sign) || (m == Round::rd && sign);
    const bool toward_zero = m != Round::rn && !away;
    double a = std::fabs(v);
    if (std::isinf(a)) return static_cast<unsigned short>(sign | inf);
    // Subnormals share the smallest exponent, 1 - Emax.
    int e = a < std::ldexp(1.0, 1 - Emax) ? 1 - Emax : std::ilogb(a);
    if (e > Emax) return static_cast<unsigned short>(sign | (toward_zero ? inf - 1 : inf));
    double q = std::ldexp(a, Mant - e);
    double r = m == Round::rn ? std::nearbyint(q) : away ? std::ceil(q) : std::floor(q);
    unsigned bits = (static_cast<unsigned>(e + Emax) << Mant) + static_cast<unsigned>(r) -
                    (1u << Mant);
    return static_cast<unsigned short>(sign | bits);  // inf if it carried past the largest
}

/// Round to nearest even, the conversion every operation ends with (from a float or a double).
template <class F>
unsigned short half_bits_rn(F v) {
#if defined(__FLT16_MANT_DIG__)
    if (std::isnan(v)) return half_nan;
    return std::bit_cast<unsigned short>(static_cast<_Float16>(v));
#else
    return half_bits<Round::rn>(static_cast<double>(v));
#endif
}

inline float half_to_float(unsigned short h) {
#if defined(__FLT16_MANT_DIG__)
    return static_cast<float>(std::bit_cast<_Float16>(h));
#else
    const unsigned sign = (h & 0x8000u) << 16, e = (h >> 10) & 0x1Fu, f = h & 0x3FFu;
    if (e == 0) return std::copysign(static_cast<float>(f) * 0x1p-24f, sign ? -1.0f : 1.0f);
    if (e == 31) return std::bit_cast<float>(sign | 0x7F800000u | f << 13);
    return std::bit_cast<float>(sign | (e + 112) << 23 | f << 13);
#endif
}

}  // namespace simt::sim::detail

/// The bits of a __half, for code that builds one bit by bit.
struct __half_raw {
    unsigned short x;
};
struct __half2_raw {
    unsigned short x, y;
};

/// An IEEE half-precision number. Converts from float, double and integers (rounding to nearest
/// even) and to float; its operators are __hadd and friends.
struct alignas(2) __half {
    static constexpr const char* simt_type_name = "half";  ///< as reports name it
    __half() = default;
    constexpr __half(const __half_raw& r) : __x(r.x) {}
    __half(float f) : __x(simt::sim::detail::half_bits_rn(f)) {}
    __half(double d) : __x(simt::sim::detail::half_bits_rn(d)) {}
    constexpr operator __half_raw() const { return {__x}; }
    operator float() const { return simt::sim::detail::half_to_float(__x); }
    // Integers convert to nearest even, and back toward zero, saturating, as CUDA's implicit
    // conversions do.
#define SIMT_SIM_HALF_INTEGER(I)                                                                \
    __half(I v) : __x(simt::sim::detail::half_bits_rn(v)) {}                                    \
    operator I() const {                                                                        \
        using simt::sim::detail::Round;                                                         \
        return simt::sim::detail::to_integer<I, Round::rz>(static_cast<float>(*this));          \
    }
    SIMT_SIM_HALF_INTEGER(short)
    SIMT_SIM_HALF_INTEGER(unsigned short)
    SIMT_SIM_HALF_INTEGER(int)
    SIMT_SIM_HALF_INTEGER(unsigned)
    SIMT_SIM_HALF_INTEGER(long)
    SIMT_SIM_HALF_INTEGER(unsigned long)
    SIMT_SIM_HALF_INTEGER(long long)
    SIMT_SIM_HALF_INTEGER(unsigned long long)
#undef SIMT_SIM_HALF_INTEGER
    constexpr operator bool() const { return (__x & 0x7FFFu) != 0; }  // -0 and +0 are false

protected:
    unsigned short __x;
};

/// Two halves, as one 32-bit word (x the low half).
struct alignas(4) __half2 {
    static constexpr const char* simt_type_name = "half2";  ///< as reports name it
    __half x, y;
    __half2() = default;
    constexpr __half2(const __half& a, const __half& b) : x(a), y(b) {}
    constexpr __half2(const __half2_raw& r) : x(__half_raw{r.x}), y(__half_raw{r.y}) {}
    constexpr operator __half2_raw() const {
        return {static_cast<__half_raw>(x).x, static_cast<__half_raw>(y).x};
    }
};
typedef __half half;
typedef __half2 half2;

namespace simt::sim::detail {
/// v (a float, a double or an integer) rounded to half in mode m.
template <Round m, class T>
__half to_half(T v) {
    if constexpr (m == Round::rn) return __half_raw{half_bits_rn(v)};
    else return __half_raw{half_bits<m>(static_cast<double>(v))};
}
/// 1.0 or 0.0 in each lane, as the _2 comparisons give (of __half2 or __nv_bfloat162).
template <class H2>
H2 lanes(bool lo, bool hi) {
    using H = decltype(H2::x);
    return {H(lo ? 1.0f : 0.0f), H(hi ? 1.0f : 0.0f)};
}
}  // namespace simt::sim::detail

#define CUDART_INF_FP16 __ushort_as_half(static_cast<unsigned short>(0x7C00U))
#define CUDART_NAN_FP16 __ushort_as_half(static_cast<unsigned short>(0x7FFFU))
#define CUDART_MIN_DENORM_FP16 __ushort_as_half(static_cast<unsigned short>(0x0001U))
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half(static_cast<unsigned short>(0x7BFFU))
#define CUDART_NEG_ZERO_FP16 __ushort_as_half(static_cast<unsigned short>(0x8000U))
#define CUDART_ZERO_FP16 __ushort_as_half(static_cast<unsigned short>(0x0000U))
#define CUDART_ONE_FP16 __ushort_as_half(static_cast<unsigned short>(0x3C00U))

// ---- Conversions --------------------------------------------------------------------------------

inline constexpr unsigned short __half_as_ushort(__half h) { return static_cast<__half_raw>(h).x; }
inline constexpr short __half_as_short(__half h) { return static_cast<short>(__half_as_ushort(h)); }
inline constexpr __half __ushort_as_half(unsigned short x) { return __half_raw{x}; }
inline constexpr __half __short_as_half(short x) {
    return __half_raw{static_cast<unsigned short>(x)};
}

inline __half __float2half(float a) { return a; }
inline __half __double2half(double a) { return a; }
inline float __half2float(__half a) { return a; }
// __float2half_rz, __int2half_rd, __half2int_ru, ...: each source type in each mode.
#define SIMT_SIM_TO_HALF_IN(name, T, m)                                                          \
    inline __half name##_##m(T a) {                                                              \
        return simt::sim::detail::to_half<simt::sim::detail::Round::m>(a);                       \
    }
#define SIMT_SIM_FROM_HALF_IN(name, I, m)                                                        \
    inline I name##_##m(__half h) {                                                              \
        return simt::sim::detail::to_integer<I, simt::sim::detail::Round::m>(__half2float(h));   \
    }
#define SIMT_SIM_EACH_MODE(X, name, T) X(name, T, rn) X(name, T, rz) X(name, T, ru) X(name, T, rd)
#define SIMT_SIM_HALF_AND_INTEGER(name, I)                   \
    SIMT_SIM_EACH_MODE(SIMT_SIM_TO_HALF_IN, __##name##2half, I) \
    SIMT_SIM_EACH_MODE(SIMT_SIM_FROM_HALF_IN, __half2##name, I)
SIMT_SIM_EACH_MODE(SIMT_SIM_TO_HALF_IN, __float2half, float)
SIMT_SIM_EACH_MODE(SIMT_SIM_TO_HALF_IN, __double2half, double)
SIMT_SIM_HALF_AND_INTEGER(short, short)
SIMT_SIM_HALF_AND_INTEGER(ushort, unsigned short)
SIMT_SIM_HALF_AND_INTEGER(int, int)
SIMT_SIM_HALF_AND_INTEGER(uint, unsigned)
SIMT_SIM_HALF_AND_INTEGER(ll, long long)
SIMT_SIM_HALF_AND_INTEGER(ull, unsigned long long)
#undef SIMT_SIM_HALF_AND_INTEGER
#undef SIMT_SIM_FROM_HALF_IN
#undef SIMT_SIM_TO_HALF_IN

inline __half2 __halves2half2(__half lo, __half hi) { return {lo, hi}; }
inline __half2 __half2half2(__half a) { return {a, a}; }
inline __half __low2half(__half2 a) { return a.x; }
inline __half __high2half(__half2 a) { return a.y; }
inline float __low2float(__half2 a) { return a.x; }
inline float __high2float(__half2 a) { return a.y; }
inline __half2 __low2half2(__half2 a) { return {a.x, a.x}; }
inline __half2 __high2half2(__half2 a) { return {a.y, a.y}; }
inline __half2 __lows2half2(__half2 a, __half2 b) { return {a.x, b.x}; }
inline __half2 __highs2half2(__half2 a, __half2 b) { return {a.y, b.y}; }
inline __half2 __lowhigh2highlow(__half2 a) { return {a.y, a.x}; }
inline __half2 __float2half2_rn(float a) { return {__half(a), __half(a)}; }
inline __half2 __floats2half2_rn(float lo, float hi) { return {__half(lo), __half(hi)}; }
inline float2 __half22float2(__half2 a) { return {__half2float(a.x), __half2float(a.y)}; }
inline __half2 __float22half2_rn(float2 a) { return {__half(a.x), __half(a.y)}; }

// ---- Arithmetic ---------------------------------------------------------------------------------

inline __half __hadd(__half a, __half b) { return __half2float(a) + __half2float(b); }
inline __half __hsub(__half a, __half b) { return __half2float(a) - __half2float(b); }
inline __half __hmul(__half a, __half b) { return __half2float(a) * __half2float(b); }
inline __half __hdiv(__half a, __half b) { return __half2float(a) / __half2float(b); }
/// a * b + c rounded once.
inline __half __hfma(__half a, __half b, __half c) {
    double p = static_cast<double>(__half2float(a)) * __half2float(b);  // exact: 22 bits
    double s = p + __half2float(c);
    double tail = simt::sim::detail::sum_error(p, __half2float(c), s);
    return __half_raw{simt::sim::detail::half_bits_rn(simt::sim::detail::round_to_odd(s, tail))};
}
inline __half __hneg(__half a) { return __ushort_as_half(__half_as_ushort(a) ^ 0x8000u); }
inline __half __habs(__half a) { return __ushort_as_half(__half_as_ushort(a) & 0x7FFFu); }
/// The _sat forms clamp the result to [0, 1]; NaN gives +0.
inline __half __hadd_sat(__half a, __half b) { return __saturatef(__hadd(a, b)); }
inline __half __hsub_sat(__half a, __half b) { return __saturatef(__hsub(a, b)); }
inline __half __hmul_sat(__half a, __half b) { return __saturatef(__hmul(a, b)); }
inline __half __hfma_sat(__half a, __half b, __half c) { return __saturatef(__hfma(a, b, c)); }
// The _rn forms are never contracted into an fma; neither is anything here.
inline __half __hadd_rn(__half a, __half b) { return __hadd(a, b); }
inline __half __hsub_rn(__half a, __half b) { return __hsub(a, b); }
inline __half __hmul_rn(__half a, __half b) { return __hmul(a, b); }

// The macros from here on (and SIMT_SIM_EACH_MODE above) are kept defined for bf16.hpp, which
// makes the same functions for __nv_bfloat16 and __nv_bfloat162 with them.
#define SIMT_SIM_HALF2_LANES(H2, name, h2name)                                                  \
    inline H2 h2name(H2 a, H2 b) { return {name(a.x, b.x), name(a.y, b.y)}; }
#define SIMT_SIM_HALF2_ARITHMETIC(H2)                                                           \
    SIMT_SIM_HALF2_LANES(H2, __hadd, __hadd2)                                                   \
    SIMT_SIM_HALF2_LANES(H2, __hsub, __hsub2)                                                   \
    SIMT_SIM_HALF2_LANES(H2, __hmul, __hmul2)                                                   \
    SIMT_SIM_HALF2_LANES(H2, __hdiv, __h2div)                                                   \
    SIMT_SIM_HALF2_LANES(H2, __hadd_sat, __hadd2_sat)                                           \
    SIMT_SIM_HALF2_LANES(H2, __hsub_sat, __hsub2_sat)                                           \
    SIMT_SIM_HALF2_LANES(H2, __hmul_sat, __hmul2_sat)                                           \
    SIMT_SIM_HALF2_LANES(H2, __hadd_rn, __hadd2_rn)                                             \
    SIMT_SIM_HALF2_LANES(H2, __hsub_rn, __hsub2_rn)                                             \
    SIMT_SIM_HALF2_LANES(H2, __hmul_rn, __hmul2_rn)                                             \
    inline H2 __hfma2(H2 a, H2 b, H2 c) {                                                       \
        return {__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)};                                  \
    }                                                                                           \
    inline H2 __hfma2_sat(H2 a, H2 b, H2 c) {                                                   \
        return {__hfma_sat(a.x, b.x, c.x), __hfma_sat(a.y, b.y, c.y)};                          \
    }                                                                                           \
    inline H2 __hneg2(H2 a) { return {__hneg(a.x), __hneg(a.y)}; }                              \
    inline H2 __habs2(H2 a) { return {__habs(a.x), __habs(a.y)}; }
SIMT_SIM_HALF2_ARITHMETIC(__half2)

// ---- Comparisons --------------------------------------------------------------------------------

// __heq etc. are false when either is NaN (ordered); __hequ etc. true (unordered). The _2 forms
// compare lane by lane: __hbeq2 is true when both lanes are, __heq2 gives 1.0 or 0.0 per lane.
#define SIMT_SIM_HALF_COMPARE(H, H2, name, op)                                                  \
    inline bool __h##name(H a, H b) {                                                           \
        float x = a, y = b;                                                                     \
        return !std::isnan(x) && !std::isnan(y) && x op y;                                      \
    }                                                                                           \
    inline bool __h##name##u(H a, H b) {                                                        \
        float x = a, y = b;                                                                     \
        return std::isnan(x) || std::isnan(y) || x op y;                                        \
    }                                                                                           \
    inline bool __hb##name##2(H2 a, H2 b) {                                                     \
        return __h##name(a.x, b.x) && __h##name(a.y, b.y);                                      \
    }                                                                                           \
    inline bool __hb##name##u2(H2 a, H2 b) {                                                    \
        return __h##name##u(a.x, b.x) && __h##name##u(a.y, b.y);                                \
    }                                                                                           \
    inline H2 __h##name##2(H2 a, H2 b) {                                                        \
        return simt::sim::detail::lanes<H2>(__h##name(a.x, b.x), __h##name(a.y, b.y));          \
    }                                                                                           \
    inline H2 __h##name##u2(H2 a, H2 b) {                                                       \
        return simt::sim::detail::lanes<H2>(__h##name##u(a.x, b.x), __h##name##u(a.y, b.y));    \
    }
#define SIMT_SIM_HALF_COMPARES(H, H2)             \
    SIMT_SIM_HALF_COMPARE(H, H2, eq, ==)          \
    SIMT_SIM_HALF_COMPARE(H, H2, ne, !=)          \
    SIMT_SIM_HALF_COMPARE(H, H2, lt, <)           \
    SIMT_SIM_HALF_COMPARE(H, H2, le, <=)          \
    SIMT_SIM_HALF_COMPARE(H, H2, gt, >)           \
    SIMT_SIM_HALF_COMPARE(H, H2, ge, >=)
SIMT_SIM_HALF_COMPARES(__half, __half2)
inline bool __hisnan(__half a) { return std::isnan(__half2float(a)); }
/// -1 for -inf, 1 for +inf, else 0.
inline int __hisinf(__half a) {
    unsigned short x = __half_as_ushort(a);
    return x == 0x7C00u ? 1 : x == 0xFC00u ? -1 : 0;
}
inline __half2 __hisnan2(__half2 a) {
    return simt::sim::detail::lanes<__half2>(__hisnan(a.x), __hisnan(a.y));
}

// The larger (smaller); a NaN loses to a number, two NaNs give NaN, and +0 > -0. The _nan forms:
// a NaN in gives NaN out. (as_bits and from_bits are __half_as_ushort and __ushort_as_half or
// their bfloat16 twins; the canonical NaN is 0x7FFF in both formats.)
#define SIMT_SIM_HALF_MAX_MIN(H, H2, as_bits, from_bits)                                                \
    inline H __hmax(H a, H b) {                                                                 \
        if (__hisnan(a)) return __hisnan(b) ? from_bits(simt::sim::detail::half_nan) : b;   \
        if (__hisnan(b) || __hgt(a, b)) return a;                                               \
        if (__hlt(a, b)) return b;                                                              \
        return as_bits(a) < as_bits(b) ? a : b; /* equal: +0 (0x0000) wins */                   \
    }                                                                                           \
    inline H __hmin(H a, H b) {                                                                 \
        if (__hisnan(a)) return __hisnan(b) ? from_bits(simt::sim::detail::half_nan) : b;   \
        if (__hisnan(b) || __hlt(a, b)) return a;                                               \
        if (__hgt(a, b)) return b;                                                              \
        return as_bits(a) > as_bits(b) ? a : b; /* equal: -0 (0x8000) wins */                   \
    }                                                                                           \
    inline H __hmax_nan(H a, H b) {                                                             \
        return __hisnan(a) || __hisnan(b) ? from_bits(simt::sim::detail::half_nan)          \
                                          : __hmax(a, b);                                       \
    }                                                                                           \
    inline H __hmin_nan(H a, H b) {                                                             \
        return __hisnan(a) || __hisnan(b) ? from_bits(simt::sim::detail::half_nan)          \
                                          : __hmin(a, b);                                       \
    }                                                                                           \
    SIMT_SIM_HALF2_LANES(H2, __hmax, __hmax2)                                                   \
    SIMT_SIM_HALF2_LANES(H2, __hmin, __hmin2)                                                   \
    SIMT_SIM_HALF2_LANES(H2, __hmax_nan, __hmax2_nan)                                           \
    SIMT_SIM_HALF2_LANES(H2, __hmin_nan, __hmin2_nan)
SIMT_SIM_HALF_MAX_MIN(__half, __half2, __half_as_ushort, __ushort_as_half)

// ---- Operators (as CUDA's: != is unordered, the others ordered; __half2's compare both lanes) ---

#define SIMT_SIM_HALF_OPERATORS(H, add, sub, mul, div, neg, one, cmp, cmp2)                    \
    inline H operator+(const H& a, const H& b) { return add(a, b); }                            \
    inline H operator-(const H& a, const H& b) { return sub(a, b); }                            \
    inline H operator*(const H& a, const H& b) { return mul(a, b); }                            \
    inline H operator/(const H& a, const H& b) { return div(a, b); }                            \
    inline H& operator+=(H& a, const H& b) { return a = add(a, b); }                            \
    inline H& operator-=(H& a, const H& b) { return a = sub(a, b); }                            \
    inline H& operator*=(H& a, const H& b) { return a = mul(a, b); }                            \
    inline H& operator/=(H& a, const H& b) { return a = div(a, b); }                            \
    inline H& operator++(H& a) { return a = add(a, one); }                                      \
    inline H& operator--(H& a) { return a = sub(a, one); }                                      \
    inline H operator++(H& a, int) { H old = a; ++a; return old; }                              \
    inline H operator--(H& a, int) { H old = a; --a; return old; }                              \
    inline H operator+(const H& a) { return a; }                                                \
    inline H operator-(const H& a) { return neg(a); }                                           \
    inline bool operator==(const H& a, const H& b) { return cmp##eq##cmp2(a, b); }              \
    inline bool operator!=(const H& a, const H& b) { return cmp##neu##cmp2(a, b); }             \
    inline bool operator<(const H& a, const H& b) { return cmp##lt##cmp2(a, b); }               \
    inline bool operator<=(const H& a, const H& b) { return cmp##le##cmp2(a, b); }              \
    inline bool operator>(const H& a, const H& b) { return cmp##gt##cmp2(a, b); }               \
    inline bool operator>=(const H& a, const H& b) { return cmp##ge##cmp2(a, b); }
SIMT_SIM_HALF_OPERATORS(__half, __hadd, __hsub, __hmul, __hdiv, __hneg, CUDART_ONE_FP16, __h, )
SIMT_SIM_HALF_OPERATORS(__half2, __hadd2, __hsub2, __hmul2, __h2div, __hneg2,
                        __half2half2(CUDART_ONE_FP16), __hb, 2)

// ---- Math: the float function, rounded once to half ---------------------------------------------

#define SIMT_SIM_HALF_MATH(H, H2, name, name2, f)                                               \
    inline H name(H a) { return f(static_cast<float>(a)); }                                     \
    inline H2 name2(H2 a) { return {name(a.x), name(a.y)}; }
#define SIMT_SIM_HALF_MATHS(H, H2)                              \
    SIMT_SIM_HALF_MATH(H, H2, hsqrt, h2sqrt, sqrtf)             \
    SIMT_SIM_HALF_MATH(H, H2, hrsqrt, h2rsqrt, rsqrtf)          \
    SIMT_SIM_HALF_MATH(H, H2, hrcp, h2rcp, 1.0f /)              \
    SIMT_SIM_HALF_MATH(H, H2, hexp, h2exp, expf)                \
    SIMT_SIM_HALF_MATH(H, H2, hexp2, h2exp2, exp2f)             \
    SIMT_SIM_HALF_MATH(H, H2, hexp10, h2exp10, exp10f)          \
    SIMT_SIM_HALF_MATH(H, H2, hlog, h2log, logf)                \
    SIMT_SIM_HALF_MATH(H, H2, hlog2, h2log2, log2f)             \
    SIMT_SIM_HALF_MATH(H, H2, hlog10, h2log10, log10f)          \
    SIMT_SIM_HALF_MATH(H, H2, hsin, h2sin, sinf)                \
    SIMT_SIM_HALF_MATH(H, H2, hcos, h2cos, cosf)                \
    SIMT_SIM_HALF_MATH(H, H2, htrunc, h2trunc, truncf)          \
    SIMT_SIM_HALF_MATH(H, H2, hceil, h2ceil, ceilf)             \
    SIMT_SIM_HALF_MATH(H, H2, hfloor, h2floor, floorf)          \
    SIMT_SIM_HALF_MATH(H, H2, hrint, h2rint, rintf)
SIMT_SIM_HALF_MATHS(__half, __half2)

// ---- atomicAdd, shuffles ------------------------------------------------------------------------

/// Adds v to *p atomically (a compare-and-swap loop on the 16 or 32 bits); returns the old value.
/// __half2's two lanes are added together, which is at least as atomic as CUDA promises (each
/// lane).
#define SIMT_SIM_HALF_ATOMIC_ADD(H, add)                                                         \
    inline H atomicAdd(H* p, H v) {                                                             \
        return simt::sim::detail::atomic_update(p, [v](H old) { return add(old, v); });         \
    }                                                                                           \
    inline H atomicAdd(simt::ptr<H> p, H v, simt::sim::Loc loc = simt::sim::Loc::current()) {   \
        return simt::sim::detail::atomic_update(simt::sim::detail::atomic_target(p, loc),       \
                                                [v](H old) { return add(old, v); });            \
    }
SIMT_SIM_HALF_ATOMIC_ADD(__half, __hadd)
SIMT_SIM_HALF_ATOMIC_ADD(__half2, __hadd2)

// Shuffles move the bits, as for any 16- or 32-bit value.
#define SIMT_SIM_HALF_SHUFFLE(name, H, Bits, argname)                                           \
    inline H name(unsigned mask, H var, int argname, int width = warpSize,                       \
                  simt::sim::Loc loc = simt::sim::Loc::current()) {                              \
        return std::bit_cast<H>(name(mask, std::bit_cast<Bits>(var), argname, width, loc));      \
    }
#define SIMT_SIM_HALF_SHUFFLES(H, Bits)                        \
    SIMT_SIM_HALF_SHUFFLE(__shfl_sync, H, Bits, srcLane)       \
    SIMT_SIM_HALF_SHUFFLE(__shfl_up_sync, H, Bits, delta)      \
    SIMT_SIM_HALF_SHUFFLE(__shfl_down_sync, H, Bits, delta)    \
    SIMT_SIM_HALF_SHUFFLE(__shfl_xor_sync, H, Bits, laneMask)
SIMT_SIM_HALF_SHUFFLES(__half, unsigned short)
SIMT_SIM_HALF_SHUFFLES(__half2, unsigned)
