// cuRAND's host API (<curand.h>) over the device API: a generator fills device memory with a
// kernel on its stream, each of its threads drawing from its own subsequence (curand_init(seed,
// thread, offset)); a host generator (curandCreateGeneratorHost) fills host memory on the host.
// XORWOW (the default) and Philox4_32_10; the other generator types are refused.
//
// The values are those of the device API with simt's own thread layout (element i from thread
// i % 4096): good random numbers of the same generator, but not the sequence NVIDIA's host API
// writes, which depends on its own layout. The kernel writes through the checked path, so an
// output array shorter than the count asked for is an out-of-bounds finding.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp> and <curand.h>, not the simulator's headers"
#endif
#include <cstddef>
#include <cstdio>
#include <source_location>

#define CURAND_VER_MAJOR 10
#define CURAND_VER_MINOR 4
#define CURAND_VER_PATCH 0
#define CURAND_VERSION (CURAND_VER_MAJOR * 1000 + CURAND_VER_MINOR * 100 + CURAND_VER_PATCH)

typedef enum curandStatus {
    CURAND_STATUS_SUCCESS = 0,
    CURAND_STATUS_VERSION_MISMATCH = 100,
    CURAND_STATUS_NOT_INITIALIZED = 101,
    CURAND_STATUS_ALLOCATION_FAILED = 102,
    CURAND_STATUS_TYPE_ERROR = 103,
    CURAND_STATUS_OUT_OF_RANGE = 104,
    CURAND_STATUS_LENGTH_NOT_MULTIPLE = 105,
    CURAND_STATUS_DOUBLE_PRECISION_REQUIRED = 106,
    CURAND_STATUS_LAUNCH_FAILURE = 201,
    CURAND_STATUS_PREEXISTING_FAILURE = 202,
    CURAND_STATUS_INITIALIZATION_FAILED = 203,
    CURAND_STATUS_ARCH_MISMATCH = 204,
    CURAND_STATUS_INTERNAL_ERROR = 999
} curandStatus_t;

typedef enum curandRngType {
    CURAND_RNG_TEST = 0,
    CURAND_RNG_PSEUDO_DEFAULT = 100,
    CURAND_RNG_PSEUDO_XORWOW = 101,
    CURAND_RNG_PSEUDO_MRG32K3A = 121,
    CURAND_RNG_PSEUDO_MTGP32 = 141,
    CURAND_RNG_PSEUDO_MT19937 = 142,
    CURAND_RNG_PSEUDO_PHILOX4_32_10 = 161,
    CURAND_RNG_QUASI_DEFAULT = 200,
    CURAND_RNG_QUASI_SOBOL32 = 201,
    CURAND_RNG_QUASI_SCRAMBLED_SOBOL32 = 202,
    CURAND_RNG_QUASI_SOBOL64 = 203,
    CURAND_RNG_QUASI_SCRAMBLED_SOBOL64 = 204
} curandRngType_t;

/// A generator: its kind, seed, how far each thread's stream has been used, and its stream.
struct curandGenerator_st {
    bool philox;
    bool on_host;
    unsigned long long seed = 0;
    unsigned long long offset = 0;  ///< draws each thread has used so far
    cudaStream_t stream = nullptr;
};
typedef struct curandGenerator_st* curandGenerator_t;

namespace simt::sim::detail::rng {

inline constexpr unsigned host_api_threads = 4096;

/// Thread `t` of the generator writes out[t], out[t + 4096], ...: value k of its stream from
/// `offset` (draws_per_value draws each; normals come in Box-Muller pairs).
template <class State, class T, class Draw>
void fill_values(unsigned t, unsigned long long seed, unsigned long long offset, T* out,
                 std::size_t n, int values_per_call, Draw draw) {
    State s;
    curand_init(seed, t, offset, &s);
    std::size_t stride = static_cast<std::size_t>(host_api_threads) * values_per_call;
    for (std::size_t i = static_cast<std::size_t>(t) * values_per_call; i < n; i += stride)
        draw(&s, out + i);
}

template <class T, class Draw>
curandStatus_t generate(curandGenerator_t g, T* out, std::size_t n, int values_per_call,
                        int draws_per_call, Draw draw, LibraryCall site) {
    if (!g) return CURAND_STATUS_NOT_INITIALIZED;
    if (n == 0) return CURAND_STATUS_SUCCESS;
    if (!out) return CURAND_STATUS_OUT_OF_RANGE;
    unsigned long long seed = g->seed, offset = g->offset;
    bool philox = g->philox;
    std::size_t calls_per_thread = (n / values_per_call + host_api_threads - 1) / host_api_threads;
    g->offset += calls_per_thread * static_cast<unsigned long long>(draws_per_call);
    auto one_thread = [=](unsigned t) {
        if (philox)
            fill_values<curandStatePhilox4_32_10_t>(t, seed, offset, out, n, values_per_call, draw);
        else
            fill_values<curandStateXORWOW_t>(t, seed, offset, out, n, values_per_call, draw);
    };
    if (g->on_host) {
        for (unsigned t = 0; t < host_api_threads; ++t) one_thread(t);
        return CURAND_STATUS_SUCCESS;
    }
    if (cuda_sticky_error() != cudaSuccess) return CURAND_STATUS_PREEXISTING_FAILURE;
    simt::detail::cuda_launch(host_api_threads / 128, 128, 0, g->stream,
                              library_call_site(site.site, site.function))(
        [=] { one_thread(blockIdx.x * blockDim.x + threadIdx.x); });
    return CURAND_STATUS_SUCCESS;
}

inline curandStatus_t create(curandGenerator_t* g, curandRngType_t type, bool on_host) {
    if (!g) return CURAND_STATUS_NOT_INITIALIZED;
    bool xorwow = type == CURAND_RNG_PSEUDO_DEFAULT || type == CURAND_RNG_PSEUDO_XORWOW;
    if (!xorwow && type != CURAND_RNG_PSEUDO_PHILOX4_32_10) {
        std::fprintf(stderr,
                     "simt: curandCreateGenerator: generator type %d is not in the simulator; "
                     "use CURAND_RNG_PSEUDO_DEFAULT (XORWOW) or CURAND_RNG_PSEUDO_PHILOX4_32_10\n",
                     static_cast<int>(type));
        return CURAND_STATUS_TYPE_ERROR;
    }
    *g = new curandGenerator_st{!xorwow, on_host};
    return CURAND_STATUS_SUCCESS;
}

}  // namespace simt::sim::detail::rng

#define SIMT_CURAND_SITE std::source_location site = std::source_location::current()

inline curandStatus_t curandCreateGenerator(curandGenerator_t* generator,
                                            curandRngType_t rng_type) {
    return simt::sim::detail::rng::create(generator, rng_type, false);
}
inline curandStatus_t curandCreateGeneratorHost(curandGenerator_t* generator,
                                                curandRngType_t rng_type) {
    return simt::sim::detail::rng::create(generator, rng_type, true);
}
/// Releases the generator after the work queued on its stream, as cuRAND does.
inline curandStatus_t curandDestroyGenerator(curandGenerator_t generator) {
    if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
    if (!generator->on_host) cudaStreamSynchronize(generator->stream);
    delete generator;
    return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandGetVersion(int* version) {
    if (!version) return CURAND_STATUS_OUT_OF_RANGE;
    *version = CURAND_VERSION;
    return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandSetStream(curandGenerator_t generator, cudaStream_t stream) {
    if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
    generator->stream = stream;
    return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t generator,
                                                         unsigned long long seed) {
    if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
    // The offset stays where it was, as on a GPU (seen on an H100 with CUDA 13): the same seed
    // alone goes on with new numbers; curandSetGeneratorOffset(g, 0) as well replays them.
    generator->seed = seed;
    return CURAND_STATUS_SUCCESS;
}
/// Skips `offset` values, as cuRAND's absolute offset does: in simt's layout each thread skips
/// the draws it would have made for that many single-draw values (uniform floats, 32-bit
/// integers), so generating n values and then setting the offset to n goes on with the same
/// numbers as a second call would.
inline curandStatus_t curandSetGeneratorOffset(curandGenerator_t generator,
                                               unsigned long long offset) {
    if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
    constexpr unsigned long long threads = simt::sim::detail::rng::host_api_threads;
    generator->offset = (offset + threads - 1) / threads;
    return CURAND_STATUS_SUCCESS;
}

/// 32-bit random integers.
inline curandStatus_t curandGenerate(curandGenerator_t generator, unsigned int* outputPtr,
                                     std::size_t num, SIMT_CURAND_SITE) {
    return simt::sim::detail::rng::generate(
        generator, outputPtr, num, 1, 1, [](auto* s, unsigned* out) { *out = curand(s); },
        {site, __func__});
}
/// Uniform floats in (0, 1].
inline curandStatus_t curandGenerateUniform(curandGenerator_t generator, float* outputPtr,
                                            std::size_t num, SIMT_CURAND_SITE) {
    return simt::sim::detail::rng::generate(
        generator, outputPtr, num, 1, 1, [](auto* s, float* out) { *out = curand_uniform(s); },
        {site, __func__});
}
inline curandStatus_t curandGenerateUniformDouble(curandGenerator_t generator, double* outputPtr,
                                                  std::size_t num, SIMT_CURAND_SITE) {
    return simt::sim::detail::rng::generate(
        generator, outputPtr, num, 1, 2,
        [](auto* s, double* out) { *out = curand_uniform_double(s); }, {site, __func__});
}

namespace simt::sim::detail::rng {
/// Normals come in Box-Muller pairs: n must be even, as cuRAND requires of its pseudorandom
/// generators.
template <class T, class Pair>
curandStatus_t generate_pairs(curandGenerator_t g, T* out, std::size_t n, int draws, Pair pair,
                              LibraryCall site) {
    if (g && n % 2 != 0) return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
    return generate(g, out, n, 2, draws, pair, site);
}
}  // namespace simt::sim::detail::rng

inline curandStatus_t curandGenerateNormal(curandGenerator_t generator, float* outputPtr,
                                           std::size_t n, float mean, float stddev,
                                           SIMT_CURAND_SITE) {
    return simt::sim::detail::rng::generate_pairs(
        generator, outputPtr, n, 2,
        [=](auto* s, float* out) {
            float2 v = curand_normal2(s);
            out[0] = mean + stddev * v.x;
            out[1] = mean + stddev * v.y;
        },
        {site, __func__});
}
inline curandStatus_t curandGenerateNormalDouble(curandGenerator_t generator, double* outputPtr,
                                                 std::size_t n, double mean, double stddev,
                                                 SIMT_CURAND_SITE) {
    return simt::sim::detail::rng::generate_pairs(
        generator, outputPtr, n, 4,
        [=](auto* s, double* out) {
            double2 v = curand_normal2_double(s);
            out[0] = mean + stddev * v.x;
            out[1] = mean + stddev * v.y;
        },
        {site, __func__});
}
inline curandStatus_t curandGenerateLogNormal(curandGenerator_t generator, float* outputPtr,
                                              std::size_t n, float mean, float stddev,
                                              SIMT_CURAND_SITE) {
    return simt::sim::detail::rng::generate_pairs(
        generator, outputPtr, n, 2,
        [=](auto* s, float* out) {
            float2 v = curand_log_normal2(s, mean, stddev);
            out[0] = v.x;
            out[1] = v.y;
        },
        {site, __func__});
}
inline curandStatus_t curandGenerateLogNormalDouble(curandGenerator_t generator, double* outputPtr,
                                                    std::size_t n, double mean, double stddev,
                                                    SIMT_CURAND_SITE) {
    return simt::sim::detail::rng::generate_pairs(
        generator, outputPtr, n, 4,
        [=](auto* s, double* out) {
            double2 v = curand_normal2_double(s);
            out[0] = std::exp(mean + stddev * v.x);
            out[1] = std::exp(mean + stddev * v.y);
        },
        {site, __func__});
}

#undef SIMT_CURAND_SITE
