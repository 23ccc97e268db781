// cuRAND's distributions over XORWOW and Philox, with cuRAND's conversions: a uniform float is
// x * 2^-32 + 2^-33 (so in (0, 1], never 0), a uniform double of one draw x * 2^-32 + 2^-32 and
// of two draws 53 bits * 2^-53 + 2^-54; normals are Box-Muller on two uniforms, the second value
// kept in the state for the next call, as cuRAND documents.
//
// A GPU computes the float Box-Muller's sine and cosine with __sincosf and the double's with
// sincospi; here they are the C library's sinf/cosf and sin/cos, which is what cuRAND's own header
// does when it runs on the host. Normals may thus differ from a GPU's in the last bits; the
// uniforms and curand's integers are the same.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp> and <curand_kernel.h>, not the simulator's headers"
#endif
#include <cmath>
#include <cstdint>

namespace simt::sim::detail::rng {

inline constexpr float two_pow_m32 = 2.3283064e-10f;  // cuRAND's float constant for 2^-32
inline constexpr double two_pow_m32_d = 2.3283064365386963e-10;
inline constexpr double two_pow_m53_d = 1.1102230246251565e-16;
inline constexpr float two_pi = 6.2831855f;

inline float uniform(unsigned x) {
    return static_cast<float>(x) * two_pow_m32 + two_pow_m32 / 2.0f;
}
inline double uniform_double(unsigned x) {
    return static_cast<double>(x) * two_pow_m32_d + two_pow_m32_d;
}
/// 53 bits from two draws: x's 32 and y's low 21 above them, overlapping by XOR as cuRAND does.
inline double uniform_double(unsigned x, unsigned y) {
    std::uint64_t z = std::uint64_t{x} ^ (std::uint64_t{y} << (53 - 32));
    return static_cast<double>(z) * two_pow_m53_d + two_pow_m53_d / 2.0;
}

inline float2 box_muller(unsigned x, unsigned y) {
    float u = static_cast<float>(x) * two_pow_m32 + two_pow_m32 / 2;
    float v = static_cast<float>(y) * (two_pow_m32 * two_pi) + (two_pow_m32 * two_pi) / 2;
    float s = std::sqrt(-2.0f * std::log(u));
    return {std::sin(v) * s, std::cos(v) * s};
}

inline double2 box_muller_double(unsigned x0, unsigned x1, unsigned y0, unsigned y1) {
    double u = uniform_double(x0, x1);
    std::uint64_t zy = std::uint64_t{y0} ^ (std::uint64_t{y1} << (53 - 32));
    double v = static_cast<double>(zy) * (two_pow_m53_d * 2.0) +
               two_pow_m53_d;  // in (0, 2]: times pi below
    double s = std::sqrt(-2.0 * std::log(u));
    constexpr double pi = 3.1415926535897932;
    return {std::sin(v * pi) * s, std::cos(v * pi) * s};
}

/// Four draws for one double Box-Muller pair: Philox takes them as one curand4, XORWOW as four
/// curand calls (the same values in the same order).
template <class State>
uint4 four_draws(State* state) {
    if constexpr (requires { curand4(state); }) {
        return curand4(state);
    } else {
        unsigned a = curand(state), b = curand(state), c = curand(state), d = curand(state);
        return {a, b, c, d};
    }
}

template <class State>
float cached_normal_float(State* state, int kind, float mean, float stddev) {
    if (state->boxmuller_flag != kind) {
        unsigned x = curand(state);
        unsigned y = curand(state);
        float2 v = box_muller(x, y);
        float first = mean + stddev * v.x, second = mean + stddev * v.y;
        if (kind == cached_log_normal) {
            first = std::exp(first);
            second = std::exp(second);
        }
        state->boxmuller_extra = second;
        state->boxmuller_flag = kind;
        return first;
    }
    state->boxmuller_flag = 0;
    return state->boxmuller_extra;
}

template <class State>
double cached_normal_double(State* state, int kind, double mean, double stddev) {
    if (state->boxmuller_flag_double != kind) {
        uint4 r = four_draws(state);
        double2 v = box_muller_double(r.x, r.y, r.z, r.w);
        double first = mean + stddev * v.x, second = mean + stddev * v.y;
        if (kind == cached_log_normal) {
            first = std::exp(first);
            second = std::exp(second);
        }
        state->boxmuller_extra_double = second;
        state->boxmuller_flag_double = kind;
        return first;
    }
    state->boxmuller_flag_double = 0;
    return state->boxmuller_extra_double;
}

template <class State>
concept Generator = requires(State* s) {
    curand(s);
    s->boxmuller_flag;
};

}  // namespace simt::sim::detail::rng

/// A float uniformly distributed in (0, 1]: 0 never, 1 possible.
///
///     float u = curand_uniform(&state);  // 0 < u && u <= 1
template <simt::sim::detail::rng::Generator S>
float curand_uniform(S* state) {
    return simt::sim::detail::rng::uniform(curand(state));
}

/// A double uniformly distributed in (0, 1]: from two draws for XORWOW, one for Philox (as cuRAND).
inline double curand_uniform_double(curandStateXORWOW_t* state) {
    unsigned x = curand(state);
    unsigned y = curand(state);
    return simt::sim::detail::rng::uniform_double(x, y);
}
inline double curand_uniform_double(curandStatePhilox4_32_10_t* state) {
    return simt::sim::detail::rng::uniform_double(curand(state));
}

/// Four uniform floats in (0, 1] from one curand4.
inline float4 curand_uniform4(curandStatePhilox4_32_10_t* state) {
    namespace cr = simt::sim::detail::rng;
    uint4 r = curand4(state);
    return {cr::uniform(r.x), cr::uniform(r.y), cr::uniform(r.z), cr::uniform(r.w)};
}

/// Two uniform doubles in (0, 1] from one curand4.
inline double2 curand_uniform2_double(curandStatePhilox4_32_10_t* state) {
    namespace cr = simt::sim::detail::rng;
    uint4 r = curand4(state);
    return {cr::uniform_double(r.x, r.y), cr::uniform_double(r.z, r.w)};
}

/// A standard normal float. Box-Muller makes two; the second is kept in the state and returned by
/// the next call.
template <simt::sim::detail::rng::Generator S>
float curand_normal(S* state) {
    namespace cr = simt::sim::detail::rng;
    return cr::cached_normal_float(state, cr::cached_normal, 0.0f, 1.0f);
}

/// A standard normal double (four draws make two values; the second is kept for the next call).
template <simt::sim::detail::rng::Generator S>
double curand_normal_double(S* state) {
    namespace cr = simt::sim::detail::rng;
    return cr::cached_normal_double(state, cr::cached_normal, 0.0, 1.0);
}

/// Both values of one Box-Muller pair at once.
template <simt::sim::detail::rng::Generator S>
float2 curand_normal2(S* state) {
    unsigned x = curand(state);
    unsigned y = curand(state);
    return simt::sim::detail::rng::box_muller(x, y);
}

template <simt::sim::detail::rng::Generator S>
double2 curand_normal2_double(S* state) {
    namespace cr = simt::sim::detail::rng;
    uint4 r = cr::four_draws(state);
    return cr::box_muller_double(r.x, r.y, r.z, r.w);
}

/// Four standard normal floats from one curand4.
inline float4 curand_normal4(curandStatePhilox4_32_10_t* state) {
    namespace cr = simt::sim::detail::rng;
    uint4 r = curand4(state);
    float2 a = cr::box_muller(r.x, r.y), b = cr::box_muller(r.z, r.w);
    return {a.x, a.y, b.x, b.y};
}

/// exp of a normal with the given mean and standard deviation (the second value kept, as above).
template <simt::sim::detail::rng::Generator S>
float curand_log_normal(S* state, float mean, float stddev) {
    namespace cr = simt::sim::detail::rng;
    return cr::cached_normal_float(state, cr::cached_log_normal, mean, stddev);
}

template <simt::sim::detail::rng::Generator S>
double curand_log_normal_double(S* state, double mean, double stddev) {
    namespace cr = simt::sim::detail::rng;
    return cr::cached_normal_double(state, cr::cached_log_normal, mean, stddev);
}

template <simt::sim::detail::rng::Generator S>
float2 curand_log_normal2(S* state, float mean, float stddev) {
    float2 v = curand_normal2(state);
    return {std::exp(mean + stddev * v.x), std::exp(mean + stddev * v.y)};
}

inline float4 curand_log_normal4(curandStatePhilox4_32_10_t* state, float mean, float stddev) {
    float4 v = curand_normal4(state);
    return {std::exp(mean + stddev * v.x), std::exp(mean + stddev * v.y),
            std::exp(mean + stddev * v.z), std::exp(mean + stddev * v.w)};
}
