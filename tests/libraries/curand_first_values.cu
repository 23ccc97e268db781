// The first values of cuRAND's generators for a few (seed, subsequence, offset), against the
// values NVIDIA's own cuRAND gives. The table below was printed by the toolkit's curand_kernel.h
// (CUDA 13) run on the host, which its QUALIFIERS hook allows; where nvcc is found, ctest builds
// this file that way (CURAND_HOST_ONLY) and checks the table again, so the table stays cuRAND's.
// In the simulator the same checks run on simt's <curand_kernel.h>; on a GPU (the _cuda build),
// on the device's cuRAND.
//
// Integers and uniforms must be equal bit for bit. Normals only within 1e-5: a GPU computes the
// Box-Muller sine and cosine with __sincosf / sincospi, the host with sinf / sin.
#define QUALIFIERS static __forceinline__ __host__ __device__
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>
#include <curand_kernel.h>

struct Case {
    unsigned long long seed, subsequence, offset;
};

const Case cases[] = {{1234, 0, 0},
                      {1234, 1, 0},
                      {1234, 5, 7},
                      {0, 0, 0},
                      {0xdeadbeefcafef00dull, 1000003, 123456789},
                      {42, 0xffffffffffffffffull, 0xfffffffffffffff1ull}};
constexpr int case_count = sizeof cases / sizeof cases[0];

struct Values {
    unsigned bits[4];
    float uniform;
    double uniform_double;
    float normal[2];
    double normal_double;
    float log_normal;
};

// Values expected[generator][case]: generator 0 is XORWOW, 1 is Philox4_32_10.
const Values expected[2][case_count] = {{{{0x253d5e15, 0x6f558604, 0xdee6daf2, 0x7485b394},
                                          0.857092559f,
                                          0.20140365320083958,
                                          {0.657660067f, -0.2172198f},
                                          -0.021639759881186285,
                                          1.84075928f},
                                         {{0xd1f7605a, 0xed29ae49, 0x83030ed9, 0x899fbaf4},
                                          0.809246421f,
                                          0.44933758021527742,
                                          {0.505640805f, 0.438453555f},
                                          -0.54566958515177411,
                                          2.06996775f},
                                         {{0xc7c04273, 0xd8577152, 0x18c2f892, 0x45ebfbe1},
                                          0.160586074f,
                                          0.12606068816722987,
                                          {0.924061775f, 0.362983674f},
                                          1.013594883602007,
                                          3.72152376f},
                                         {{0xbd7f03b6, 0x703e556d, 0x845af0c5, 0x283067fd},
                                          0.0713675097f,
                                          0.22764348243763516,
                                          {1.17224216f, 0.920361459f},
                                          -0.066665567605964232,
                                          1.73266721f},
                                         {{0x42bd7cb9, 0x9bd3db3e, 0x9a3acb03, 0xb3a4d6b8},
                                          0.450767875f,
                                          0.76418292653516828,
                                          {-2.19549632f, 0.0508232526f},
                                          -0.14758852343088394,
                                          3.22183537f},
                                         {{0x8d1b969e, 0x63318376, 0x290734f4, 0x161020b6},
                                          0.0285549648f,
                                          0.048210236672739215,
                                          {-1.86857879f, 0.516277313f},
                                          -0.43198927401525677,
                                          1.19059503f}},
                                        {{{0x2090b348, 0xda7cf0ab, 0x4401906f, 0xcbca470e},
                                          0.620832324f,
                                          0.11227533151395619,
                                          {0.103621967f, 0.188317239f},
                                          -0.03923432532902188,
                                          3.73238564f},
                                         {{0xd115a128, 0x52fc7c75, 0xc7f33f17, 0x0f1539db},
                                          0.0276278481f,
                                          0.39546933490782976,
                                          {-0.355176866f, -2.04806685f},
                                          -1.0213476923022664,
                                          1.47329652f},
                                         {{0x72c26332, 0x26a9bd1b, 0xd88ecb0d, 0x088f2111},
                                          0.819951415f,
                                          0.7562961361836642,
                                          {1.56206298f, -0.770025492f},
                                          0.079133695474258844,
                                          5.34545469f},
                                         {{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8},
                                          0.972241223f,
                                          0.3620911156758666,
                                          {0.1974397f, 0.831735075f},
                                          1.496658890412502,
                                          3.24070573f},
                                         {{0x1ec9d342, 0x2f514727, 0xc4b7c768, 0x508a4d8c},
                                          0.00923418906f,
                                          0.40808322536759079,
                                          {1.63984025f, 0.111877777f},
                                          0.6478368173801029,
                                          1.78643882f},
                                         {{0xf811e015, 0x794af6a0, 0xa22acccc, 0x1167fc54},
                                          0.267514944f,
                                          0.89190618181601167,
                                          {-0.585761547f, 1.67877996f},
                                          0.23776248560034496,
                                          1.9719013f}}};

template <class State>
__host__ __device__ Values first_values(Case c) {
    State s;
    curand_init(c.seed, c.subsequence, c.offset, &s);
    Values v;
    for (int i = 0; i < 4; ++i) v.bits[i] = curand(&s);
    v.uniform = curand_uniform(&s);
    v.uniform_double = curand_uniform_double(&s);
    v.normal[0] = curand_normal(&s);
    v.normal[1] = curand_normal(&s);
    v.normal_double = curand_normal_double(&s);
    v.log_normal = curand_log_normal(&s, 1.0f, 0.5f);
    return v;
}

__global__ void first_values_kernel(const Case* in, Values* out) {
    int c = threadIdx.x;
    if (c < case_count) {
        out[c] = first_values<curandStateXORWOW_t>(in[c]);
        out[case_count + c] = first_values<curandStatePhilox4_32_10_t>(in[c]);
    }
}

static bool close(double a, double b) { return std::fabs(a - b) <= 1e-5 * (1 + std::fabs(b)); }

static int compare(const char* where, const Values* got) {
    int failures = 0;
    for (int g = 0; g < 2; ++g)
        for (int c = 0; c < case_count; ++c) {
            const Values& v = got[g * case_count + c];
            const Values& e = expected[g][c];
            bool same = v.uniform == e.uniform && v.uniform_double == e.uniform_double &&
                        close(v.normal[0], e.normal[0]) && close(v.normal[1], e.normal[1]) &&
                        close(v.normal_double, e.normal_double) &&
                        close(v.log_normal, e.log_normal);
            for (int i = 0; i < 4; ++i) same = same && v.bits[i] == e.bits[i];
            std::printf(
                "%s %s %s seed %llu subsequence %llu offset %llu: %08x %08x %08x %08x "
                "u=%.9g ud=%.17g n=%.9g %.9g nd=%.17g ln=%.9g\n",
                same ? "ok" : "FAILED", where, g == 0 ? "XORWOW" : "Philox", cases[c].seed,
                cases[c].subsequence, cases[c].offset, v.bits[0], v.bits[1], v.bits[2], v.bits[3],
                v.uniform, v.uniform_double, v.normal[0], v.normal[1], v.normal_double,
                v.log_normal);
            if (!same) ++failures;
        }
    return failures;
}

int main() {
    Values got[2 * case_count];
    int failures = 0;
#ifndef CURAND_HOST_ONLY
    Case* d_cases;
    Values* d_got;
    cudaMalloc(&d_cases, sizeof cases);
    cudaMalloc(&d_got, sizeof got);
    cudaMemcpy(d_cases, cases, sizeof cases, cudaMemcpyHostToDevice);
    first_values_kernel<<<1, 32>>>(d_cases, d_got);
    if (cudaMemcpy(got, d_got, sizeof got, cudaMemcpyDeviceToHost) != cudaSuccess) {
        std::printf("FAILED: the kernel did not run\n");
        return 1;
    }
    cudaFree(d_cases);
    cudaFree(d_got);
    failures += compare("device", got);
#endif
    for (int c = 0; c < case_count; ++c) {
        got[c] = first_values<curandStateXORWOW_t>(cases[c]);
        got[case_count + c] = first_values<curandStatePhilox4_32_10_t>(cases[c]);
    }
    failures += compare("host", got);
    std::printf(failures == 0 ? "PASS\n" : "FAILED: %d cases\n", failures);
    return failures == 0 ? 0 : 1;
}
