// cuRAND's device API as a course uses it, checked against what can be known without a GPU:
// Philox4x32-10's published known answers (Random123's kat_vectors), skip-ahead against stepping,
// the range of the uniforms, the moments of the normals, and a Monte Carlo estimate of pi with
// one XORWOW state per thread. Prints PASS when every check holds.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>
#include <curand_kernel.h>

#include "../cuda/check_cuda.h"

static int failures = 0;

static void expect(bool ok, const char* what) {
    std::printf("%s: %s\n", ok ? "ok" : "FAILED", what);
    if (!ok) ++failures;
}

__global__ void philox_known_answers(uint4* out) {
    out[0] = curand_Philox4x32_10(make_uint4(0, 0, 0, 0), make_uint2(0, 0));
    out[1] = curand_Philox4x32_10(make_uint4(0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff),
                                  make_uint2(0xffffffff, 0xffffffff));
    out[2] = curand_Philox4x32_10(make_uint4(0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344),
                                  make_uint2(0xa4093822, 0x299f31d0));
    // Through curand_init: key = seed, counter = {offset / 4, subsequence}.
    curandStatePhilox4_32_10_t s;
    curand_init(0, 0, 0, &s);
    out[3] = curand4(&s);
}

// Thread 0 steps one state `steps` times; thread 1 skips another there. Both then draw 4 values.
template <class State>
__global__ void skip_versus_step(unsigned long long seed, int steps, unsigned* out) {
    State s;
    if (threadIdx.x == 0) {
        curand_init(seed, 3, 0, &s);
        for (int i = 0; i < steps; ++i) curand(&s);
    } else {
        curand_init(seed, 3, steps, &s);
    }
    for (int i = 0; i < 4; ++i) out[threadIdx.x * 4 + i] = curand(&s);
}

// Subsequences: thread 0 starts at subsequence 5; thread 1 at 2 and jumps 3 on; thread 2 at 0
// and skips 2^62 values `quarters` times (2^67 values make one XORWOW subsequence, 2^66 one
// Philox subsequence).
template <class State>
__global__ void subsequence_jumps(unsigned long long seed, int quarters, unsigned* out) {
    State s;
    if (threadIdx.x == 0) {
        curand_init(seed, 5, 0, &s);
    } else if (threadIdx.x == 1) {
        curand_init(seed, 2, 0, &s);
        skipahead_sequence(3, &s);
    } else {
        curand_init(seed, 0, 0, &s);
        for (int i = 0; i < 5 * quarters; ++i) skipahead(1ull << 62, &s);
    }
    for (int i = 0; i < 4; ++i) out[threadIdx.x * 4 + i] = curand(&s);
}

// Per thread: how many uniforms fell outside (0, 1], their sum, and the sum and sum of squares
// of normals.
template <class State>
__global__ void moments(int draws, int* outside, double* sums) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    State s;
    curand_init(42, id, 0, &s);
    int bad = 0;
    double u_sum = 0, z_sum = 0, z_sq = 0;
    for (int i = 0; i < draws; ++i) {
        float u = curand_uniform(&s);
        double ud = curand_uniform_double(&s);
        if (!(u > 0.0f && u <= 1.0f) || !(ud > 0.0 && ud <= 1.0)) ++bad;
        u_sum += u;
        float z = curand_normal(&s);
        double zd = curand_normal_double(&s);
        z_sum += z + zd;
        z_sq += double(z) * z + zd * zd;
    }
    outside[id] = bad;
    sums[3 * id] = u_sum;
    sums[3 * id + 1] = z_sum;
    sums[3 * id + 2] = z_sq;
}

__global__ void setup_states(curandState* states) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curand_init(1234, id, 0, &states[id]);
}

__global__ void count_inside(curandState* states, int samples, unsigned* hits) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandState local = states[id];
    unsigned inside = 0;
    for (int i = 0; i < samples; ++i) {
        float x = curand_uniform(&local);
        float y = curand_uniform(&local);
        if (x * x + y * y <= 1.0f) ++inside;
    }
    hits[id] = inside;
    states[id] = local;
}

template <class State>
static bool same_four(const char* generator, const char* what, int steps_or_quarters, bool skip) {
    unsigned* d_out;
    CHECK(cudaMalloc(&d_out, 12 * sizeof(unsigned)));
    if (skip)
        skip_versus_step<State><<<1, 2>>>(0x1234abcdull, steps_or_quarters, d_out);
    else
        subsequence_jumps<State><<<1, 3>>>(0x1234abcdull, steps_or_quarters, d_out);
    CHECK(cudaGetLastError());
    unsigned h[12];
    CHECK(cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_out));
    bool same = true;
    for (int t = 1; t < (skip ? 2 : 3); ++t)
        for (int i = 0; i < 4; ++i) same = same && h[t * 4 + i] == h[i];
    char text[160];
    std::snprintf(text, sizeof text, "%s: %s (first value %08x)", generator, what, h[0]);
    expect(same, text);
    return same;
}

template <class State>
static void check_moments(const char* generator) {
    const int blocks = 8, threads = 64, draws = 1000, n = blocks * threads;
    int* d_outside;
    double* d_sums;
    CHECK(cudaMalloc(&d_outside, n * sizeof(int)));
    CHECK(cudaMalloc(&d_sums, 3 * n * sizeof(double)));
    moments<State><<<blocks, threads>>>(draws, d_outside, d_sums);
    std::vector<int> outside(n);
    std::vector<double> sums(3 * n);
    CHECK(cudaMemcpy(outside.data(), d_outside, n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(sums.data(), d_sums, 3 * n * sizeof(double), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_outside));
    CHECK(cudaFree(d_sums));
    int bad = 0;
    double u = 0, z = 0, zz = 0;
    for (int i = 0; i < n; ++i) {
        bad += outside[i];
        u += sums[3 * i];
        z += sums[3 * i + 1];
        zz += sums[3 * i + 2];
    }
    double count = double(n) * draws;
    double u_mean = u / count, z_mean = z / (2 * count), z_var = zz / (2 * count) - z_mean * z_mean;
    char text[200];
    std::snprintf(text, sizeof text, "%s: every uniform in (0, 1] (%d outside)", generator, bad);
    expect(bad == 0, text);
    // 512,000 uniforms: the mean's standard error is 0.0004; 2,048,000 normals: 0.0007 and 0.001.
    std::snprintf(text, sizeof text, "%s: uniform mean %.4f, normal mean %.4f and variance %.4f",
                  generator, u_mean, z_mean, z_var);
    expect(std::fabs(u_mean - 0.5) < 0.003 && std::fabs(z_mean) < 0.005 &&
               std::fabs(z_var - 1.0) < 0.01,
           text);
}

int main() {
    uint4* d_kat;
    CHECK(cudaMalloc(&d_kat, 4 * sizeof(uint4)));
    philox_known_answers<<<1, 1>>>(d_kat);
    uint4 kat[4];
    CHECK(cudaMemcpy(kat, d_kat, sizeof kat, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_kat));
    const unsigned published[3][4] = {{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8},
                                      {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd},
                                      {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}};
    for (int k = 0; k < 4; ++k) {
        const unsigned* want = published[k == 3 ? 0 : k];
        bool same = kat[k].x == want[0] && kat[k].y == want[1] && kat[k].z == want[2] &&
                    kat[k].w == want[3];
        char text[160];
        std::snprintf(text, sizeof text, "Philox4x32-10 known answer %d: %08x %08x %08x %08x", k,
                      kat[k].x, kat[k].y, kat[k].z, kat[k].w);
        expect(same, text);
    }

    for (int steps : {1, 37, 1000, 1 << 20}) {
        char what[80];
        std::snprintf(what, sizeof what, "skipping %d values equals drawing them", steps);
        same_four<curandState>("XORWOW", what, steps, true);
        same_four<curandStatePhilox4_32_10_t>("Philox", what, steps, true);
    }
    same_four<curandState>("XORWOW", "subsequence 5 = 2 + 3 = 160 skips of 2^62 values", 32, false);
    same_four<curandStatePhilox4_32_10_t>(
        "Philox", "subsequence 5 = 2 + 3 = 80 skips of 2^62 values", 16, false);

    check_moments<curandState>("XORWOW");
    check_moments<curandStatePhilox4_32_10_t>("Philox");

    const int blocks = 64, threads = 128, samples = 1000, n = blocks * threads;
    curandState* d_states;
    unsigned* d_hits;
    CHECK(cudaMalloc(&d_states, n * sizeof(curandState)));
    CHECK(cudaMalloc(&d_hits, n * sizeof(unsigned)));
    setup_states<<<blocks, threads>>>(d_states);
    count_inside<<<blocks, threads>>>(d_states, samples, d_hits);
    std::vector<unsigned> hits(n);
    CHECK(cudaMemcpy(hits.data(), d_hits, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_states));
    CHECK(cudaFree(d_hits));
    unsigned long long inside = 0;
    for (unsigned h : hits) inside += h;
    double pi = 4.0 * double(inside) / (double(n) * samples);
    char text[120];
    // 8,192,000 points: the estimate's standard error is 0.0006.
    std::snprintf(text, sizeof text, "Monte Carlo pi from 8192 XORWOW states: %.4f", pi);
    expect(std::fabs(pi - 3.14159265) < 0.004, text);

    std::printf(failures == 0 ? "PASS\n" : "FAILED: %d checks\n", failures);
    return failures == 0 ? 0 : 1;
}
