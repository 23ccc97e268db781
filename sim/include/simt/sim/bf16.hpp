// <cuda_bf16.h> for the simulator: __nv_bfloat16 and __nv_bfloat162, their conversions,
// arithmetic, comparisons, math, atomicAdd and shuffles, with the results of a GPU's bfloat16.
//
// A __nv_bfloat16 holds the 16 bits: 1 sign, 8 exponent and 7 fraction bits, the upper half of a
// float. A float rounds to it to nearest even on its bits; a double or a 64-bit integer, and the
// other rounding modes, go through fp16.hpp's bit-level conversion at bfloat16's width, so that
// each value is rounded once. Arithmetic and math are done in float and rounded once to nearest
// even, which is what a GPU without native bfloat16 math does; for +, -, *, / and sqrt float's 24
// bits make that double rounding exact (Figueroa), so it also matches a GPU that has them. fma
// rounds to odd in double first. A NaN result is CUDA's canonical NaN, 0x7FFF, as for __half.
//
// The functions shared with __half (__hadd, __heq, hsqrt, atomicAdd, ...) are fp16.hpp's macros
// instantiated for these types.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "simt/sim/fp16.hpp"

namespace simt::sim::detail {

inline constexpr int bf16_mant = 7, bf16_emax = 127;

/// A float rounded to nearest even on its bits: adding 0x7FFF plus the kept part's last bit
/// rounds the dropped 16 bits half to even, and a carry runs into the exponent (up to infinity,
/// 0x7F80, past the largest finite). A NaN is not rounded, which could make it infinity.
inline unsigned short bf16_bits_rn(float v) {
    if (std::isnan(v)) return half_nan;
    std::uint32_t u = std::bit_cast<std::uint32_t>(v);
    return static_cast<unsigned short>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

/// v (a float, a double or an integer) rounded to bfloat16 in mode m, as bits.
template <Round m, class T>
unsigned short bf16_bits(T v) {
    if constexpr (m == Round::rn && std::is_same_v<T, float>) {
        return bf16_bits_rn(v);
    } else if constexpr (std::is_integral_v<T> && sizeof(T) == 8) {
        // A 64-bit integer may not be a double: rounded to odd there, it rounds once here.
        double d = static_cast<double>(v);
        double tail = static_cast<double>(static_cast<__int128>(v) - static_cast<__int128>(d));
        return half_bits<m, bf16_mant, bf16_emax>(round_to_odd(d, tail));
    } else {
        return half_bits<m, bf16_mant, bf16_emax>(static_cast<double>(v));
    }
}

inline float bf16_to_float(unsigned short b) {
    return std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16);
}

}  // namespace simt::sim::detail

/// The bits of a __nv_bfloat16, for code that builds one bit by bit.
struct __nv_bfloat16_raw {
    unsigned short x;
};
struct __nv_bfloat162_raw {
    unsigned short x, y;
};

/// A bfloat16 number. Converts from float, double and integers (rounding to nearest even), from
/// __half (explicitly) and to float; its operators are __hadd and friends.
struct alignas(2) __nv_bfloat16 {
    static constexpr const char* simt_type_name = "__nv_bfloat16";  ///< as reports name it
    __nv_bfloat16() = default;
    constexpr __nv_bfloat16(const __nv_bfloat16_raw& r) : __x(r.x) {}
    __nv_bfloat16(float f) : __x(simt::sim::detail::bf16_bits_rn(f)) {}
    __nv_bfloat16(double d)
        : __x(simt::sim::detail::bf16_bits<simt::sim::detail::Round::rn>(d)) {}
    explicit __nv_bfloat16(__half h) : __nv_bfloat16(static_cast<float>(h)) {}  // float is exact
    constexpr operator __nv_bfloat16_raw() const { return {__x}; }
    operator float() const { return simt::sim::detail::bf16_to_float(__x); }
    // Integers convert to nearest even, and back toward zero, saturating, as CUDA's implicit
    // conversions do.
#define SIMT_SIM_BF16_INTEGER(I)                                                                \
    __nv_bfloat16(I v) : __x(simt::sim::detail::bf16_bits<simt::sim::detail::Round::rn>(v)) {}  \
    operator I() const {                                                                        \
        using simt::sim::detail::Round;                                                         \
        return simt::sim::detail::to_integer<I, Round::rz>(static_cast<float>(*this));          \
    }
    SIMT_SIM_BF16_INTEGER(short)
    SIMT_SIM_BF16_INTEGER(unsigned short)
    SIMT_SIM_BF16_INTEGER(int)
    SIMT_SIM_BF16_INTEGER(unsigned)
    SIMT_SIM_BF16_INTEGER(long)
    SIMT_SIM_BF16_INTEGER(unsigned long)
    SIMT_SIM_BF16_INTEGER(long long)
    SIMT_SIM_BF16_INTEGER(unsigned long long)
#undef SIMT_SIM_BF16_INTEGER
    constexpr operator bool() const { return (__x & 0x7FFFu) != 0; }  // -0 and +0 are false

protected:
    unsigned short __x;
};
static_assert(sizeof(__nv_bfloat16) == 2);

/// Two bfloat16s, as one 32-bit word (x the low half).
struct alignas(4) __nv_bfloat162 {
    static constexpr const char* simt_type_name = "__nv_bfloat162";  ///< as reports name it
    __nv_bfloat16 x, y;
    __nv_bfloat162() = default;
    constexpr __nv_bfloat162(const __nv_bfloat16& a, const __nv_bfloat16& b) : x(a), y(b) {}
    constexpr __nv_bfloat162(const __nv_bfloat162_raw& r)
        : x(__nv_bfloat16_raw{r.x}), y(__nv_bfloat16_raw{r.y}) {}
    constexpr operator __nv_bfloat162_raw() const {
        return {static_cast<__nv_bfloat16_raw>(x).x, static_cast<__nv_bfloat16_raw>(y).x};
    }
};
static_assert(sizeof(__nv_bfloat162) == 4);
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

#define CUDART_INF_BF16 __ushort_as_bfloat16(static_cast<unsigned short>(0x7F80U))
#define CUDART_NAN_BF16 __ushort_as_bfloat16(static_cast<unsigned short>(0x7FFFU))
#define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16(static_cast<unsigned short>(0x0001U))
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16(static_cast<unsigned short>(0x7F7FU))
#define CUDART_NEG_ZERO_BF16 __ushort_as_bfloat16(static_cast<unsigned short>(0x8000U))
#define CUDART_ZERO_BF16 __ushort_as_bfloat16(static_cast<unsigned short>(0x0000U))
#define CUDART_ONE_BF16 __ushort_as_bfloat16(static_cast<unsigned short>(0x3F80U))

// ---- Conversions --------------------------------------------------------------------------------

inline constexpr unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) {
    return static_cast<__nv_bfloat16_raw>(h).x;
}
inline constexpr short __bfloat16_as_short(__nv_bfloat16 h) {
    return static_cast<short>(__bfloat16_as_ushort(h));
}
inline constexpr __nv_bfloat16 __ushort_as_bfloat16(unsigned short x) {
    return __nv_bfloat16_raw{x};
}
inline constexpr __nv_bfloat16 __short_as_bfloat16(short x) {
    return __nv_bfloat16_raw{static_cast<unsigned short>(x)};
}

inline __nv_bfloat16 __float2bfloat16(float a) { return a; }
inline __nv_bfloat16 __double2bfloat16(double a) { return a; }
inline float __bfloat162float(__nv_bfloat16 a) { return a; }
// __float2bfloat16_rz, __int2bfloat16_rd, __bfloat162int_ru, ...: each source type in each mode.
#define SIMT_SIM_TO_BF16_IN(name, T, m)                                                          \
    inline __nv_bfloat16 name##_##m(T a) {                                                       \
        return __nv_bfloat16_raw{                                                                \
            simt::sim::detail::bf16_bits<simt::sim::detail::Round::m>(a)};                       \
    }
#define SIMT_SIM_FROM_BF16_IN(name, I, m)                                                        \
    inline I name##_##m(__nv_bfloat16 h) {                                                       \
        return simt::sim::detail::to_integer<I, simt::sim::detail::Round::m>(                    \
            __bfloat162float(h));                                                                \
    }
#define SIMT_SIM_BF16_AND_INTEGER(name, I)                            \
    SIMT_SIM_EACH_MODE(SIMT_SIM_TO_BF16_IN, __##name##2bfloat16, I)   \
    SIMT_SIM_EACH_MODE(SIMT_SIM_FROM_BF16_IN, __bfloat162##name, I)
SIMT_SIM_EACH_MODE(SIMT_SIM_TO_BF16_IN, __float2bfloat16, float)
SIMT_SIM_EACH_MODE(SIMT_SIM_TO_BF16_IN, __double2bfloat16, double)
SIMT_SIM_BF16_AND_INTEGER(short, short)
SIMT_SIM_BF16_AND_INTEGER(ushort, unsigned short)
SIMT_SIM_BF16_AND_INTEGER(int, int)
SIMT_SIM_BF16_AND_INTEGER(uint, unsigned)
SIMT_SIM_BF16_AND_INTEGER(ll, long long)
SIMT_SIM_BF16_AND_INTEGER(ull, unsigned long long)
#undef SIMT_SIM_BF16_AND_INTEGER
#undef SIMT_SIM_FROM_BF16_IN
#undef SIMT_SIM_TO_BF16_IN
inline signed char __bfloat162char_rz(__nv_bfloat16 h) {
    return simt::sim::detail::to_integer<signed char, simt::sim::detail::Round::rz>(
        __bfloat162float(h));
}
inline unsigned char __bfloat162uchar_rz(__nv_bfloat16 h) {
    return simt::sim::detail::to_integer<unsigned char, simt::sim::detail::Round::rz>(
        __bfloat162float(h));
}

inline __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 lo, __nv_bfloat16 hi) { return {lo, hi}; }
inline __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 a) { return {a, a}; }
inline __nv_bfloat16 __low2bfloat16(__nv_bfloat162 a) { return a.x; }
inline __nv_bfloat16 __high2bfloat16(__nv_bfloat162 a) { return a.y; }
inline float __low2float(__nv_bfloat162 a) { return a.x; }
inline float __high2float(__nv_bfloat162 a) { return a.y; }
inline __nv_bfloat162 __low2bfloat162(__nv_bfloat162 a) { return {a.x, a.x}; }
inline __nv_bfloat162 __high2bfloat162(__nv_bfloat162 a) { return {a.y, a.y}; }
inline __nv_bfloat162 __lows2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) { return {a.x, b.x}; }
inline __nv_bfloat162 __highs2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) {
    return {a.y, b.y};
}
inline __nv_bfloat162 __lowhigh2highlow(__nv_bfloat162 a) { return {a.y, a.x}; }
inline __nv_bfloat162 __float2bfloat162_rn(float a) { return {a, a}; }
inline __nv_bfloat162 __floats2bfloat162_rn(float lo, float hi) { return {lo, hi}; }
inline float2 __bfloat1622float2(__nv_bfloat162 a) {
    return {__bfloat162float(a.x), __bfloat162float(a.y)};
}
inline __nv_bfloat162 __float22bfloat162_rn(float2 a) { return {a.x, a.y}; }

// ---- Arithmetic (in float, rounded once to nearest even) ----------------------------------------

inline __nv_bfloat16 __hadd(__nv_bfloat16 a, __nv_bfloat16 b) {
    return __bfloat162float(a) + __bfloat162float(b);
}
inline __nv_bfloat16 __hsub(__nv_bfloat16 a, __nv_bfloat16 b) {
    return __bfloat162float(a) - __bfloat162float(b);
}
inline __nv_bfloat16 __hmul(__nv_bfloat16 a, __nv_bfloat16 b) {
    return __bfloat162float(a) * __bfloat162float(b);
}
inline __nv_bfloat16 __hdiv(__nv_bfloat16 a, __nv_bfloat16 b) {
    return __bfloat162float(a) / __bfloat162float(b);
}
/// a * b + c rounded once.
inline __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) {
    double p = static_cast<double>(__bfloat162float(a)) * __bfloat162float(b);  // exact: 16 bits
    double s = p + __bfloat162float(c);
    double tail = simt::sim::detail::sum_error(p, __bfloat162float(c), s);
    return simt::sim::detail::round_to_odd(s, tail);  // then to nearest even, once more
}
inline __nv_bfloat16 __hneg(__nv_bfloat16 a) {
    return __ushort_as_bfloat16(__bfloat16_as_ushort(a) ^ 0x8000u);
}
inline __nv_bfloat16 __habs(__nv_bfloat16 a) {
    return __ushort_as_bfloat16(__bfloat16_as_ushort(a) & 0x7FFFu);
}
/// The _sat forms clamp the result to [0, 1]; NaN gives +0.
inline __nv_bfloat16 __hadd_sat(__nv_bfloat16 a, __nv_bfloat16 b) {
    return __saturatef(__hadd(a, b));
}
inline __nv_bfloat16 __hsub_sat(__nv_bfloat16 a, __nv_bfloat16 b) {
    return __saturatef(__hsub(a, b));
}
inline __nv_bfloat16 __hmul_sat(__nv_bfloat16 a, __nv_bfloat16 b) {
    return __saturatef(__hmul(a, b));
}
inline __nv_bfloat16 __hfma_sat(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) {
    return __saturatef(__hfma(a, b, c));
}
/// max(a * b + c, 0); a NaN stays NaN.
inline __nv_bfloat16 __hfma_relu(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) {
    __nv_bfloat16 r = __hfma(a, b, c);
    return std::signbit(__bfloat162float(r)) && !std::isnan(__bfloat162float(r))
               ? CUDART_ZERO_BF16
               : r;
}
// The _rn forms are never contracted into an fma; neither is anything here.
inline __nv_bfloat16 __hadd_rn(__nv_bfloat16 a, __nv_bfloat16 b) { return __hadd(a, b); }
inline __nv_bfloat16 __hsub_rn(__nv_bfloat16 a, __nv_bfloat16 b) { return __hsub(a, b); }
inline __nv_bfloat16 __hmul_rn(__nv_bfloat16 a, __nv_bfloat16 b) { return __hmul(a, b); }
SIMT_SIM_HALF2_ARITHMETIC(__nv_bfloat162)
inline __nv_bfloat162 __hfma2_relu(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c) {
    return {__hfma_relu(a.x, b.x, c.x), __hfma_relu(a.y, b.y, c.y)};
}

// ---- Comparisons (as __half's: see fp16.hpp) ----------------------------------------------------

SIMT_SIM_HALF_COMPARES(__nv_bfloat16, __nv_bfloat162)
inline bool __hisnan(__nv_bfloat16 a) { return std::isnan(__bfloat162float(a)); }
/// -1 for -inf, 1 for +inf, else 0.
inline int __hisinf(__nv_bfloat16 a) {
    unsigned short x = __bfloat16_as_ushort(a);
    return x == 0x7F80u ? 1 : x == 0xFF80u ? -1 : 0;
}
inline __nv_bfloat162 __hisnan2(__nv_bfloat162 a) {
    return simt::sim::detail::lanes<__nv_bfloat162>(__hisnan(a.x), __hisnan(a.y));
}
SIMT_SIM_HALF_MAX_MIN(__nv_bfloat16, __nv_bfloat162, __bfloat16_as_ushort, __ushort_as_bfloat16)

// ---- Operators (as CUDA's: != is unordered, the others ordered; the 162's compare both lanes) ---

SIMT_SIM_HALF_OPERATORS(__nv_bfloat16, __hadd, __hsub, __hmul, __hdiv, __hneg, CUDART_ONE_BF16,
                        __h, )
SIMT_SIM_HALF_OPERATORS(__nv_bfloat162, __hadd2, __hsub2, __hmul2, __h2div, __hneg2,
                        __bfloat162bfloat162(CUDART_ONE_BF16), __hb, 2)

// ---- Math: the float function, rounded once to bfloat16 -----------------------------------------

SIMT_SIM_HALF_MATHS(__nv_bfloat16, __nv_bfloat162)
SIMT_SIM_HALF_MATH(__nv_bfloat16, __nv_bfloat162, htanh, h2tanh, tanhf)

// ---- atomicAdd (a compare-and-swap loop, as __half's), shuffles ---------------------------------

SIMT_SIM_HALF_ATOMIC_ADD(__nv_bfloat16, __hadd)
SIMT_SIM_HALF_ATOMIC_ADD(__nv_bfloat162, __hadd2)
SIMT_SIM_HALF_SHUFFLES(__nv_bfloat16, unsigned short)
SIMT_SIM_HALF_SHUFFLES(__nv_bfloat162, unsigned)
