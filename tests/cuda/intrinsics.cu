// CUDA's vector types, math and integer intrinsics and __half, each computed in a kernel and
// checked against a CPU computation of the result CUDA documents. Prints PASS; exits 77
// (skipped) where there is no GPU to run on.
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <random>
#include <vector>

#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <vector_functions.h>
#include <vector_types.h>

#include "checks.cuh"

template <class T>
T* to_device(const std::vector<T>& v) {
    T* d = nullptr;
    CHECK(cudaMalloc(&d, v.size() * sizeof(T)));
    CHECK(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}
template <class T>
T* device_array(size_t n) {
    T* d = nullptr;
    CHECK(cudaMalloc(&d, n * sizeof(T)));
    return d;
}
// Copies n elements back and frees the device array.
template <class T>
std::vector<T> to_host(T* d, size_t n) {
    std::vector<T> v(n);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(v.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d));
    return v;
}

unsigned bits_of(float f) {
    unsigned u;
    memcpy(&u, &f, sizeof u);
    return u;
}

// ---- Vector types -------------------------------------------------------------------------------

// Each family: one element aligned as the element, two as both, three as one, four as all
// four up to 16 bytes.
#define LAYOUT(name, T, align2, align4)                                                    \
    static_assert(sizeof(name##1) == sizeof(T) && alignof(name##1) == alignof(T), #name "1"); \
    static_assert(sizeof(name##2) == 2 * sizeof(T) && alignof(name##2) == align2, #name "2"); \
    static_assert(sizeof(name##3) == 3 * sizeof(T) && alignof(name##3) == alignof(T), #name "3"); \
    static_assert(sizeof(name##4) == 4 * sizeof(T) && alignof(name##4) == align4, #name "4");
LAYOUT(char, signed char, 2, 4)
LAYOUT(uchar, unsigned char, 2, 4)
LAYOUT(short, short, 4, 8)
LAYOUT(ushort, unsigned short, 4, 8)
LAYOUT(int, int, 8, 16)
LAYOUT(uint, unsigned, 8, 16)
LAYOUT(long, long, 16, 16)
LAYOUT(ulong, unsigned long, 16, 16)
LAYOUT(longlong, long long, 16, 16)
LAYOUT(ulonglong, unsigned long long, 16, 16)
LAYOUT(float, float, 8, 16)
LAYOUT(double, double, 16, 16)
static_assert(sizeof(dim3) == 12 && sizeof(uint3) == 12, "dim3 and uint3");
static_assert(sizeof(uint) == 4 && sizeof(ushort) == 2 && sizeof(ulong) == sizeof(long), "uint");

// One of every vector type, each made by its make_ function with components 1, 2, 3, 4.
#define FAMILY_FIELDS(name) name##1 name##_1; name##2 name##_2; name##3 name##_3; name##4 name##_4;
#define FOR_EACH_FAMILY(X) \
    X(char) X(uchar) X(short) X(ushort) X(int) X(uint) X(long) X(ulong) X(longlong) X(ulonglong) X(float) X(double)
struct AllVectors {
    FOR_EACH_FAMILY(FAMILY_FIELDS)
};
#define MAKE_FAMILY(name)                                \
    out->name##_1 = make_##name##1(1);                   \
    out->name##_2 = make_##name##2(1, 2);                \
    out->name##_3 = make_##name##3(1, 2, 3);             \
    out->name##_4 = make_##name##4(1, 2, 3, 4);
#define CHECK_FAMILY(name)                                                                 \
    expect(v.name##_1.x == 1, "make_" #name "1");                                          \
    expect(v.name##_2.x == 1 && v.name##_2.y == 2, "make_" #name "2");                     \
    expect(v.name##_3.x == 1 && v.name##_3.y == 2 && v.name##_3.z == 3, "make_" #name "3"); \
    expect(v.name##_4.x == 1 && v.name##_4.y == 2 && v.name##_4.z == 3 && v.name##_4.w == 4, \
           "make_" #name "4");

__global__ void make_all(AllVectors* out) { FOR_EACH_FAMILY(MAKE_FAMILY) }

// float4 in, several vector types out; the loads through __ldg.
__global__ void shuffle_vectors(const float4* in, const int2* pairs, float4* out, double2* d2,
                                uchar4* bytes, short3* s3, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 v = __ldg(&in[i]);
    int2 p = __ldg(pairs + i);
    out[i] = make_float4(v.w, v.z, v.y, v.x * 2.0f + p.x);
    d2[i] = make_double2(v.x, static_cast<double>(p.y) * 0.5);
    bytes[i] = make_uchar4(i & 255, (i >> 8) & 255, 7, 255);
    s3[i] = make_short3(-1, static_cast<short>(i), __ldg(&pairs[i].y));
}

void test_vector_types() {
    AllVectors* d = device_array<AllVectors>(1);
    make_all<<<1, 1>>>(d);
    CHECK(cudaGetLastError());
    AllVectors v = to_host(d, 1)[0];
    FOR_EACH_FAMILY(CHECK_FAMILY)

    const int n = 1000;
    std::vector<float4> in(n);
    std::vector<int2> pairs(n);
    for (int i = 0; i < n; ++i) {
        in[i] = make_float4(i, i + 0.5f, -i, 1.0f / (i + 1));
        pairs[i] = make_int2(3 * i, -i);
    }
    float4* d_in = to_device(in);
    int2* d_pairs = to_device(pairs);
    float4* d_out = device_array<float4>(n);
    double2* d_d2 = device_array<double2>(n);
    uchar4* d_bytes = device_array<uchar4>(n);
    short3* d_s3 = device_array<short3>(n);
    shuffle_vectors<<<(n + 127) / 128, 128>>>(d_in, d_pairs, d_out, d_d2, d_bytes, d_s3, n);
    CHECK(cudaGetLastError());
    auto out = to_host(d_out, n);
    auto d2 = to_host(d_d2, n);
    auto bytes = to_host(d_bytes, n);
    auto s3 = to_host(d_s3, n);
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_pairs));
    for (int i = 0; i < n; ++i) {
        expect(out[i].x == in[i].w && out[i].y == in[i].z && out[i].z == in[i].y &&
                   out[i].w == in[i].x * 2.0f + 3 * i,
               "float4 through __ldg and make_float4", i);
        expect(d2[i].x == in[i].x && d2[i].y == -i * 0.5, "make_double2", i);
        expect(bytes[i].x == (i & 255) && bytes[i].y == ((i >> 8) & 255) && bytes[i].z == 7 &&
                   bytes[i].w == 255,
               "make_uchar4", i);
        expect(s3[i].x == -1 && s3[i].y == i && s3[i].z == -i, "make_short3 and __ldg of an int", i);
    }
}

// ---- Integer intrinsics -------------------------------------------------------------------------

const int kIntResults = 24;

__global__ void integer_intrinsics(const unsigned* a, const unsigned* b, unsigned* r, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = a[i], y = b[i];
    int sx = static_cast<int>(x), sy = static_cast<int>(y);
    unsigned long long wide = static_cast<unsigned long long>(x) << 32 | y;
    unsigned* o = r + i * kIntResults;
    o[0] = __popc(x);
    o[1] = __popcll(wide);
    o[2] = __clz(sx);
    o[3] = __clzll(static_cast<long long>(wide >> (x % 64)));
    o[4] = __ffs(sx);
    o[5] = __ffsll(static_cast<long long>(wide << (y % 64)));
    o[6] = __brev(x);
    o[7] = static_cast<unsigned>(__brevll(wide) >> 16);
    o[8] = __byte_perm(x, y, y & 0x7777);
    o[9] = __funnelshift_l(x, y, y);
    o[10] = __funnelshift_r(x, y, x);
    o[11] = __funnelshift_lc(x, y, y % 40);
    o[12] = __funnelshift_rc(x, y, x % 40);
    o[13] = static_cast<unsigned>(__mul24(sx & 0x7FFFFF, (sy & 0x3FFFFF) | 0x55000000));
    o[14] = __umul24(x, y);
    o[15] = static_cast<unsigned>(__mulhi(sx, sy));
    o[16] = __umulhi(x, y);
    o[17] = static_cast<unsigned>(__mul64hi(static_cast<long long>(wide), -static_cast<long long>(wide >> 3)));
    o[18] = static_cast<unsigned>(__umul64hi(wide, ~wide) >> 7);
    o[19] = __sad(sx, sy, x >> 4);
    o[20] = __usad(x, y, 12345u);
    o[21] = static_cast<unsigned>(__hadd(sx, sy));
    o[22] = static_cast<unsigned>(__rhadd(sx, sy)) ^ __uhadd(x, y);
    o[23] = __urhadd(x, y);
}

// The documented results, bit by bit or in wider arithmetic.
int popcount_ref(unsigned long long v) {
    int c = 0;
    for (; v; v >>= 1) c += v & 1;
    return c;
}
int clz_ref(unsigned long long v, int bits) {
    int c = 0;
    for (int b = bits - 1; b >= 0 && !((v >> b) & 1); --b) ++c;
    return c;
}
int ffs_ref(unsigned long long v) {
    for (int b = 0; b < 64; ++b)
        if ((v >> b) & 1) return b + 1;
    return 0;
}
unsigned long long brev_ref(unsigned long long v, int bits) {
    unsigned long long r = 0;
    for (int b = 0; b < bits; ++b)
        if ((v >> b) & 1) r |= 1ull << (bits - 1 - b);
    return r;
}
long long sign_extend24(unsigned v) { return (v & 0x800000) ? static_cast<long long>(v & 0xFFFFFF) - 0x1000000 : v & 0xFFFFFF; }

void test_integer_intrinsics() {
    std::mt19937 rng(7);
    const int n = 4096;
    std::vector<unsigned> a(n), b(n);
    for (int i = 0; i < n; ++i) {
        a[i] = rng(), b[i] = rng();
        if (i % 8 == 1) a[i] = 0;
        if (i % 8 == 2) b[i] = 0;
        if (i % 8 == 3) a[i] >>= rng() % 32;
        if (i % 8 == 4) b[i] = a[i];
    }
    unsigned* d_a = to_device(a);
    unsigned* d_b = to_device(b);
    unsigned* d_r = device_array<unsigned>(n * kIntResults);
    integer_intrinsics<<<n / 256, 256>>>(d_a, d_b, d_r, n);
    CHECK(cudaGetLastError());
    auto r = to_host(d_r, n * kIntResults);
    CHECK(cudaFree(d_a));
    CHECK(cudaFree(d_b));
    for (int i = 0; i < n; ++i) {
        unsigned x = a[i], y = b[i];
        int sx = static_cast<int>(x), sy = static_cast<int>(y);
        unsigned long long wide = static_cast<unsigned long long>(x) << 32 | y;
        const unsigned* o = &r[i * kIntResults];
        expect(o[0] == static_cast<unsigned>(popcount_ref(x)), "__popc", i);
        expect(o[1] == static_cast<unsigned>(popcount_ref(wide)), "__popcll", i);
        expect(o[2] == static_cast<unsigned>(clz_ref(x, 32)), "__clz (32 for 0)", i);
        expect(o[3] == static_cast<unsigned>(clz_ref(wide >> (x % 64), 64)), "__clzll", i);
        expect(o[4] == static_cast<unsigned>(ffs_ref(x)), "__ffs (1-based, 0 for 0)", i);
        expect(o[5] == static_cast<unsigned>(ffs_ref(wide << (y % 64))), "__ffsll", i);
        expect(o[6] == brev_ref(x, 32), "__brev", i);
        expect(o[7] == static_cast<unsigned>(brev_ref(wide, 64) >> 16), "__brevll", i);
        unsigned perm = 0;
        for (int k = 0; k < 4; ++k) {
            unsigned sel = ((y & 0x7777) >> (4 * k)) & 7;
            unsigned byte = sel < 4 ? (x >> (8 * sel)) & 255 : (y >> (8 * (sel - 4))) & 255;
            perm |= byte << (8 * k);
        }
        expect(o[8] == perm, "__byte_perm", i);
        unsigned long long hilo = static_cast<unsigned long long>(y) << 32 | x;
        expect(o[9] == static_cast<unsigned>((hilo << (y & 31)) >> 32), "__funnelshift_l", i);
        expect(o[10] == static_cast<unsigned>(hilo >> (x & 31)), "__funnelshift_r", i);
        unsigned cl = y % 40 < 32 ? y % 40 : 32, cr = x % 40 < 32 ? x % 40 : 32;
        expect(o[11] == static_cast<unsigned>(cl == 32 ? x : (hilo << cl) >> 32), "__funnelshift_lc", i);
        expect(o[12] == static_cast<unsigned>(cr == 32 ? y : hilo >> cr), "__funnelshift_rc", i);
        // __mul24 ignores the top 8 bits: (sy & 0x3FFFFF) | 0x55000000 multiplies as sy & 0x3FFFFF.
        long long m24 = sign_extend24(sx & 0x7FFFFF) * sign_extend24(sy & 0x3FFFFF);
        expect(o[13] == static_cast<unsigned>(m24), "__mul24 uses the low 24 bits", i);
        expect(o[14] == static_cast<unsigned>(static_cast<unsigned long long>(x & 0xFFFFFF) * (y & 0xFFFFFF)),
               "__umul24", i);
        expect(o[15] == static_cast<unsigned>((static_cast<long long>(sx) * sy) >> 32), "__mulhi", i);
        expect(o[16] == static_cast<unsigned>((static_cast<unsigned long long>(x) * y) >> 32), "__umulhi", i);
        __int128 p = static_cast<__int128>(static_cast<long long>(wide)) * -static_cast<long long>(wide >> 3);
        expect(o[17] == static_cast<unsigned>(static_cast<long long>(p >> 64)), "__mul64hi", i);
        unsigned __int128 up = static_cast<unsigned __int128>(wide) * ~wide;
        expect(o[18] == static_cast<unsigned>(static_cast<unsigned long long>(up >> 64) >> 7), "__umul64hi", i);
        long long diff = static_cast<long long>(sx) - sy;
        expect(o[19] == static_cast<unsigned>((diff < 0 ? -diff : diff) + (x >> 4)), "__sad", i);
        expect(o[20] == (x > y ? x - y : y - x) + 12345u, "__usad", i);
        long long sum = static_cast<long long>(sx) + sy;
        int hadd = static_cast<int>(std::floor(sum / 2.0)), rhadd = static_cast<int>(std::floor((sum + 1) / 2.0));
        unsigned long long usum = static_cast<unsigned long long>(x) + y;
        expect(o[21] == static_cast<unsigned>(hadd), "__hadd rounds down", i);
        expect(o[22] == (static_cast<unsigned>(rhadd) ^ static_cast<unsigned>(usum / 2)), "__rhadd and __uhadd", i);
        expect(o[23] == static_cast<unsigned>((usum + 1) / 2), "__urhadd", i);
    }
}

// ---- Rounding modes: every result checked against the exact value -------------------------------

// The exact results are compared through long double (64 bits): a product of two floats, and
// every sum of the inputs below, fits it exactly. cmp(c) is the sign of c - exact.
enum Mode { RN, RZ, RU, RD };

template <class Cmp>
bool rounded_right(float r, Mode m, Cmp cmp) {
    if (std::isnan(r) || std::isinf(r)) return false;
    float up = std::nextafter(r, INFINITY), down = std::nextafter(r, -INFINITY);
    int here = cmp(static_cast<long double>(r));
    switch (m) {
        case RD: return here <= 0 && cmp(up) > 0;
        case RU: return here >= 0 && cmp(down) < 0;
        case RZ: return rounded_right(r, cmp(0.0L) <= 0 ? RD : RU, cmp);
        case RN: {
            if (here == 0) return true;
            float other = here < 0 ? up : down;  // the neighbour on the exact value's side
            if (cmp(other) * here >= 0) return false;
            int mid = cmp((static_cast<long double>(r) + other) / 2);
            if (mid == 0) return (bits_of(r) & 1) == 0;  // a tie goes to the even one
            return here < 0 ? mid > 0 : mid < 0;
        }
    }
    return false;
}
int sign(long double v) { return (v > 0) - (v < 0); }

const int kRoundedResults = 40;

__global__ void rounded_ops(const float* a, const float* b, const float* c, const double* dd, const int* k,
                            float* r, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = a[i], y = b[i], z = c[i];
    float s = fabsf(x);
    float* o = r + i * kRoundedResults;
    o[0] = __fadd_rn(x, y), o[1] = __fadd_rz(x, y), o[2] = __fadd_ru(x, y), o[3] = __fadd_rd(x, y);
    o[4] = __fsub_rn(x, y), o[5] = __fsub_rz(x, y), o[6] = __fsub_ru(x, y), o[7] = __fsub_rd(x, y);
    o[8] = __fmul_rn(x, y), o[9] = __fmul_rz(x, y), o[10] = __fmul_ru(x, y), o[11] = __fmul_rd(x, y);
    o[12] = __fdiv_rn(x, y), o[13] = __fdiv_rz(x, y), o[14] = __fdiv_ru(x, y), o[15] = __fdiv_rd(x, y);
    o[16] = __fsqrt_rn(s), o[17] = __fsqrt_rz(s), o[18] = __fsqrt_ru(s), o[19] = __fsqrt_rd(s);
    o[20] = __frcp_rn(y), o[21] = __frcp_rz(y), o[22] = __frcp_ru(y), o[23] = __frcp_rd(y);
    o[24] = __fmaf_rn(x, z, y), o[25] = __fmaf_rz(x, z, y), o[26] = __fmaf_ru(x, z, y), o[27] = __fmaf_rd(x, z, y);
    double d = dd[i];
    o[28] = __double2float_rn(d), o[29] = __double2float_rz(d), o[30] = __double2float_ru(d), o[31] = __double2float_rd(d);
    o[32] = __int2float_rn(k[i]), o[33] = __int2float_rz(k[i]), o[34] = __int2float_ru(k[i]), o[35] = __int2float_rd(k[i]);
    unsigned u = static_cast<unsigned>(k[i]);
    o[36] = __uint2float_rn(u), o[37] = __uint2float_rz(u), o[38] = __uint2float_ru(u), o[39] = __uint2float_rd(u);
}

void test_rounding_modes() {
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> mantissa(1.0f, 2.0f);
    const int n = 4096;
    std::vector<float> a(n), b(n), c(n);
    std::vector<double> dd(n);
    std::vector<int> k(n);
    for (int i = 0; i < n; ++i) {
        // Exponents within +-12 keep every exact sum below 64 bits; c has 12 significant bits so
        // that the exact x * c + y fits too.
        a[i] = std::ldexp(mantissa(rng), static_cast<int>(rng() % 25) - 12) * (rng() % 2 ? 1 : -1);
        b[i] = std::ldexp(mantissa(rng), static_cast<int>(rng() % 25) - 12) * (rng() % 3 ? 1 : -1);
        c[i] = std::ldexp(static_cast<float>(2048 + rng() % 2048), static_cast<int>(rng() % 9) - 15);
        dd[i] = static_cast<double>(a[i]) * b[i] + 1e-9 * c[i];
        k[i] = static_cast<int>(rng());
        if (i % 16 == 0) b[i] = -a[i];  // an exact zero sum
        if (i % 16 == 1) b[i] = a[i];   // an exact quotient
    }
    float* d_a = to_device(a);
    float* d_b = to_device(b);
    float* d_c = to_device(c);
    double* d_dd = to_device(dd);
    int* d_k = to_device(k);
    float* d_r = device_array<float>(n * kRoundedResults);
    rounded_ops<<<n / 128, 128>>>(d_a, d_b, d_c, d_dd, d_k, d_r, n);
    CHECK(cudaGetLastError());
    auto r = to_host(d_r, n * kRoundedResults);
    CHECK(cudaFree(d_a));
    CHECK(cudaFree(d_b));
    CHECK(cudaFree(d_c));
    CHECK(cudaFree(d_dd));
    CHECK(cudaFree(d_k));
    const char* names[] = {"__fadd_r?", "__fsub_r?", "__fmul_r?", "__fdiv_r?", "__fsqrt_r?",
                           "__frcp_r?", "__fmaf_r?", "__double2float_r?", "__int2float_r?",
                           "__uint2float_r?"};
    for (int i = 0; i < n; ++i) {
        long double x = a[i], y = b[i], z = c[i];
        double d = dd[i];
        auto exactly = [](long double e) { return [e](long double v) { return sign(v - e); }; };
        auto quotient = [](long double num, long double den) {  // sign(v - num/den), exactly
            return [num, den](long double v) { return sign(v * den - num) * sign(den); };
        };
        for (int m = 0; m < 4; ++m) {
            const float* o = &r[i * kRoundedResults + m];
            Mode mode = static_cast<Mode>(m);
            expect(rounded_right(o[0], mode, exactly(x + y)), names[0], i);
            expect(rounded_right(o[4], mode, exactly(x - y)), names[1], i);
            expect(rounded_right(o[8], mode, exactly(x * y)), names[2], i);
            expect(rounded_right(o[12], mode, quotient(x, y)), names[3], i);
            long double s = std::fabs(x);
            expect(rounded_right(o[16], mode, [s](long double v) { return sign(v * v - s); }), names[4], i);
            expect(rounded_right(o[20], mode, quotient(1.0L, y)), names[5], i);
            expect(rounded_right(o[24], mode, exactly(x * z + y)), names[6], i);
            expect(rounded_right(o[28], mode, exactly(d)), names[7], i);
            expect(rounded_right(o[32], mode, exactly(k[i])), names[8], i);
            expect(rounded_right(o[36], mode, exactly(static_cast<unsigned>(k[i]))), names[9], i);
        }
        // An exact zero sum is +0, except when rounding down: -0 (IEEE 754).
        if (i % 16 == 0) {
            const float* o = &r[i * kRoundedResults];
            expect(!std::signbit(o[0]) && !std::signbit(o[1]) && !std::signbit(o[2]) && std::signbit(o[3]),
                   "the sign of an exact zero sum in each mode", i);
        }
    }
}

// ---- Conversions to integers, saturating ----------------------------------------------------------

const int kConversions = 32;

__global__ void to_integers(const float* f, const double* d, long long* r, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = f[i];
    double y = d[i];
    long long* o = r + i * kConversions;
    o[0] = __float2int_rn(x), o[1] = __float2int_rz(x), o[2] = __float2int_ru(x), o[3] = __float2int_rd(x);
    o[4] = __float2uint_rn(x), o[5] = __float2uint_rz(x), o[6] = __float2uint_ru(x), o[7] = __float2uint_rd(x);
    o[8] = __float2ll_rn(x), o[9] = __float2ll_rz(x), o[10] = __float2ll_ru(x), o[11] = __float2ll_rd(x);
    o[12] = __float2ull_rn(x), o[13] = __float2ull_rz(x), o[14] = __float2ull_ru(x), o[15] = __float2ull_rd(x);
    o[16] = __double2int_rn(y), o[17] = __double2int_rz(y), o[18] = __double2int_ru(y), o[19] = __double2int_rd(y);
    o[20] = __double2uint_rn(y), o[21] = __double2uint_rz(y), o[22] = __double2uint_ru(y), o[23] = __double2uint_rd(y);
    o[24] = __double2ll_rn(y), o[25] = __double2ll_rz(y), o[26] = __double2ll_ru(y), o[27] = __double2ll_rd(y);
    o[28] = __double2ull_rn(y), o[29] = __double2ull_rz(y), o[30] = __double2ull_ru(y), o[31] = __double2ull_rd(y);
}

// The rounding of the documentation, then the clamp to the type's range; NaN gives 0 from a
// float to a 32-bit integer and 1 << (bits - 1) otherwise (PTX ISA, cvt).
long double round_ref(long double v, int mode) {
    long double f = std::floor(v);
    switch (mode) {
        case RN: return v - f < 0.5L ? f : v - f > 0.5L ? f + 1 : std::fmod(f, 2.0L) == 0 ? f : f + 1;
        case RZ: return v < 0 ? std::ceil(v) : f;
        case RU: return std::ceil(v);
        default: return f;
    }
}
long long convert_ref(long double v, int mode, long double lo, long double hi, bool nan_is_zero) {
    if (std::isnan(v)) return nan_is_zero ? 0 : static_cast<long long>(1ull << (hi > 5e9L ? 63 : 31));
    long double r = round_ref(v, mode);
    if (r < lo) r = lo;
    if (r > hi) r = hi;
    return r < 0 ? static_cast<long long>(r) : static_cast<long long>(static_cast<unsigned long long>(r));
}

void test_conversions() {
    std::vector<float> f = {2.5f, 3.5f, -2.5f, -0.5f, 0.49999997f, 1.5f, -3.7f, 1e10f, -1e10f,
                            4294967040.0f, 2147483520.0f, -2147483648.0f, 9.3e18f, 2e19f, NAN,
                            INFINITY, -INFINITY, 0.0f, -0.0f, 8388609.0f, 1e-30f, -1e-30f};
    std::vector<double> d = {2.5, 3.5, -2.5, -0.5, 0.49999999999999994, 1.5, -3.7, 1e10, -1e10,
                             4294967295.5, 2147483647.5, -2147483648.5, 9.3e18, 2e19, NAN,
                             INFINITY, -INFINITY, 0.0, -0.0, 4503599627370497.0, 1e-300, -1e-300};
    const int n = static_cast<int>(f.size());
    float* d_f = to_device(f);
    double* d_d = to_device(d);
    long long* d_r = device_array<long long>(n * kConversions);
    to_integers<<<1, n>>>(d_f, d_d, d_r, n);
    CHECK(cudaGetLastError());
    auto r = to_host(d_r, n * kConversions);
    CHECK(cudaFree(d_f));
    CHECK(cudaFree(d_d));
    const long double i32[2] = {INT_MIN, INT_MAX}, u32[2] = {0, UINT_MAX},
                      i64[2] = {static_cast<long double>(LLONG_MIN), static_cast<long double>(LLONG_MAX)},
                      u64[2] = {0, static_cast<long double>(ULLONG_MAX)};
    const long double* ranges[4] = {i32, u32, i64, u64};
    const char* names[8] = {"__float2int_r?", "__float2uint_r?", "__float2ll_r?", "__float2ull_r?",
                            "__double2int_r?", "__double2uint_r?", "__double2ll_r?", "__double2ull_r?"};
    for (int i = 0; i < n; ++i)
        for (int type = 0; type < 8; ++type)
            for (int mode = 0; mode < 4; ++mode) {
                bool from_float = type < 4;
                const long double* range = ranges[type % 4];
                long double v = from_float ? static_cast<long double>(f[i]) : d[i];
                long long want = convert_ref(v, mode, range[0], range[1], from_float && type % 4 < 2);
                long long got = r[i * kConversions + type * 4 + mode];
                // The kernel stored 32-bit results widened: compare in the result's own width.
                if (type % 4 == 0) want = static_cast<int>(want), got = static_cast<int>(got);
                if (type % 4 == 1) want = static_cast<unsigned>(want), got = static_cast<unsigned>(got);
                expect(got == want, names[type], i * 4 + mode);
            }
}

// ---- Bits, math functions, min and max, time ------------------------------------------------------

struct Misc {
    int f_as_i;
    unsigned f_as_u;
    float i_as_f, u_as_f;
    long long d_as_ll;
    double ll_as_d;
    int hi, lo;
    double hilo;
    float rsqrt, rcbrt, norm, norm3, rnorm3, norm4, rhypot, sinpi_half, cospi_one, sinpi_one;
    float sincospi_s, sincospi_c, sat_low, sat_high, sat_mid, sat_nan, fdividef_huge, fdividef_inf;
    float fdividef, exp10, expf_, exp10f_, logf_, log2f_, log10f_, powf_, sinf_, cosf_, tanf_;
    float sincos_s, sincos_c, sincosf_s, sincosf_c;
    double rsqrt_d, norm3d;
    int isnan_, isinf_, signbit_, isfinite_;
    int min_ii, max_ii;
    unsigned min_iu, max_ui, min_uu;
    long long min_ll, max_ll;
    unsigned long long min_llu, max_ull;
    float min_ff, max_ff;
    double min_fd, max_df;
    long long clock_ticks;
    long long clock_ok;
};

__global__ void misc(const float* in, Misc* out) {
    float one = in[0], two = in[1], three = in[2], neg = in[3], nan = in[4], inf = in[5];
    Misc& m = *out;  // each field stored as it is computed
    m.f_as_i = __float_as_int(one);
    m.f_as_u = __float_as_uint(neg);
    m.i_as_f = __int_as_float(0x40490FDB);
    m.u_as_f = __uint_as_float(0xC0000000u);
    m.d_as_ll = __double_as_longlong(2.0);
    m.ll_as_d = __longlong_as_double(0x3FF8000000000000ll);
    m.hi = __double2hiint(-2.0);
    m.lo = __double2loint(1.0 / 3.0);
    m.hilo = __hiloint2double(0x40080000, 0);
    m.rsqrt = rsqrtf(4.0f * one);
    m.rcbrt = rcbrtf(8.0f * one);
    float v[5] = {1.0f * one, 2.0f, 2.0f, 4.0f, 2.0f * three};
    m.norm = normf(4, v);
    m.norm3 = norm3df(3.0f * one, 4.0f, 12.0f);
    m.rnorm3 = rnorm3df(3.0f * one, 4.0f, 12.0f);
    m.norm4 = norm4df(1.0f * one, 1.0f, 1.0f, 1.0f);
    m.rhypot = rhypotf(3.0f * one, 4.0f);
    m.sinpi_half = sinpif(0.5f * one);
    m.cospi_one = cospif(one);
    m.sinpi_one = sinpif(one);
    sincospif(0.25f * one, &m.sincospi_s, &m.sincospi_c);
    m.sat_low = __saturatef(neg);
    m.sat_high = __saturatef(two);
    m.sat_mid = __saturatef(0.25f * one);
    m.sat_nan = __saturatef(nan);
    m.fdividef_huge = __fdividef(one, 0x1.8p126f * one);
    m.fdividef_inf = __fdividef(inf, 0x1.8p126f * one);
    m.fdividef = fdividef(one, three);
    m.exp10 = __exp10f(two);
    m.expf_ = __expf(one);
    m.exp10f_ = exp10f(three);
    m.logf_ = __logf(two);
    m.log2f_ = __log2f(0.125f * one);
    m.log10f_ = __log10f(1000.0f * one);
    m.powf_ = __powf(two, three);
    m.sinf_ = __sinf(0.5f * one);
    m.cosf_ = __cosf(0.5f * one);
    m.tanf_ = __tanf(0.5f * one);
    __sincosf(one, &m.sincos_s, &m.sincos_c);
    sincosf(two, &m.sincosf_s, &m.sincosf_c);
    m.rsqrt_d = rsqrt(16.0 * one);
    m.norm3d = norm3d(2.0 * one, 3.0, 6.0);
    m.isnan_ = isnan(nan) && !isnan(one);
    m.isinf_ = isinf(inf) && isinf(-inf) && !isinf(nan);
    m.signbit_ = signbit(neg) && !signbit(one) && signbit(-0.0f * one);
    m.isfinite_ = isfinite(one) && !isfinite(inf) && !isfinite(nan);
    int i3 = static_cast<int>(three), im1 = static_cast<int>(neg);
    m.min_ii = min(i3, im1);
    m.max_ii = max(i3, im1);
    m.min_iu = min(im1, 5u);          // mixed signedness compares as unsigned: -1 is the largest
    m.max_ui = max(5u, im1);
    m.min_uu = min(7u, 5u);
    m.min_ll = min(-5000000000ll * i3, 2ll);
    m.max_ll = max(-5000000000ll * i3, 2ll);
    m.min_llu = min(static_cast<long long>(im1), 3ull);
    m.max_ull = max(3ull, 10ull * i3);
    m.min_ff = min(nan, two);        // fminf: a NaN loses to a number
    m.max_ff = max(two, three);
    m.min_fd = min(two, 1.5);
    m.max_df = max(2.5, three);
    long long t0 = clock64();
    clock_t c0 = clock();
    __nanosleep(100);
    float spin = one;
    for (int k = 0; k < 1000; ++k) spin = spin * 1.0001f + in[k % 3];
    long long t1 = clock64();
    clock_t c1 = clock();
    m.clock_ticks = t1 - t0;
    m.clock_ok = c1 >= c0 && spin > 0;
}

bool near(double got, double want, double rel) { return std::fabs(got - want) <= rel * std::fabs(want) + 1e-30; }

void test_misc() {
    float* d_in = to_device(std::vector<float>{1.0f, 2.0f, 3.0f, -1.0f, NAN, INFINITY});
    Misc* d_out = device_array<Misc>(1);
    misc<<<1, 1>>>(d_in, d_out);
    CHECK(cudaGetLastError());
    Misc m = to_host(d_out, 1)[0];
    CHECK(cudaFree(d_in));
    expect(m.f_as_i == 0x3F800000, "__float_as_int");
    expect(m.f_as_u == 0xBF800000u, "__float_as_uint");
    expect(m.i_as_f == 3.14159274f, "__int_as_float");
    expect(m.u_as_f == -2.0f, "__uint_as_float");
    expect(m.d_as_ll == 0x4000000000000000ll, "__double_as_longlong");
    expect(m.ll_as_d == 1.5, "__longlong_as_double");
    expect(m.hi == static_cast<int>(0xC0000000u), "__double2hiint");
    expect(m.lo == 0x55555555, "__double2loint");
    expect(m.hilo == 3.0, "__hiloint2double");
    expect(m.rsqrt == 0.5f, "rsqrtf");
    expect(near(m.rcbrt, 0.5, 1e-6), "rcbrtf");
    expect(near(m.norm, 5.0, 1e-6), "normf");
    expect(near(m.norm3, 13.0, 1e-6), "norm3df");
    expect(near(m.rnorm3, 1.0 / 13, 1e-6), "rnorm3df");
    expect(near(m.norm4, 2.0, 1e-6), "norm4df");
    expect(near(m.rhypot, 0.2, 1e-6), "rhypotf");
    expect(m.sinpi_half == 1.0f && m.cospi_one == -1.0f && m.sinpi_one == 0.0f, "sinpif and cospif are exact at multiples of 1/2");
    expect(near(m.sincospi_s, std::sqrt(0.5), 1e-6) && near(m.sincospi_c, std::sqrt(0.5), 1e-6), "sincospif");
    expect(m.sat_low == 0.0f && m.sat_high == 1.0f && m.sat_mid == 0.25f && m.sat_nan == 0.0f,
           "__saturatef clamps to [0, 1], NaN to 0");
    expect(m.fdividef_huge == 0.0f, "__fdividef(x, y) is 0 for 2^126 < |y| < 2^128");
    expect(std::isnan(m.fdividef_inf), "__fdividef(inf, y) is NaN for 2^126 < |y| < 2^128");
    expect(near(m.fdividef, 1.0 / 3, 3e-7), "fdividef");
    expect(near(m.exp10, 100.0, 1e-5), "__exp10f");
    expect(near(m.expf_, std::exp(1.0), 1e-5), "__expf");
    expect(near(m.exp10f_, 1000.0, 1e-6), "exp10f");
    expect(near(m.logf_, std::log(2.0), 1e-5), "__logf");
    expect(near(m.log2f_, -3.0, 1e-5), "__log2f");
    expect(near(m.log10f_, 3.0, 1e-5), "__log10f");
    expect(near(m.powf_, 8.0, 1e-5), "__powf");
    expect(near(m.sinf_, std::sin(0.5), 1e-5) && near(m.cosf_, std::cos(0.5), 1e-5), "__sinf and __cosf");
    expect(near(m.tanf_, std::tan(0.5), 1e-5), "__tanf");
    expect(near(m.sincos_s, std::sin(1.0), 1e-5) && near(m.sincos_c, std::cos(1.0), 1e-5), "__sincosf");
    expect(near(m.sincosf_s, std::sin(2.0), 1e-6) && near(m.sincosf_c, std::cos(2.0), 1e-6), "sincosf");
    expect(m.rsqrt_d == 0.25, "rsqrt");
    expect(near(m.norm3d, 7.0, 1e-15), "norm3d");
    expect(m.isnan_ && m.isinf_ && m.signbit_ && m.isfinite_, "isnan, isinf, signbit, isfinite");
    expect(m.min_ii == -1 && m.max_ii == 3, "min and max of ints");
    expect(m.min_iu == 5u && m.max_ui == 0xFFFFFFFFu && m.min_uu == 5u, "min and max mixing int and unsigned compare unsigned");
    expect(m.min_ll == -15000000000ll && m.max_ll == 2, "min and max of long long");
    expect(m.min_llu == 3ull && m.max_ull == 30ull, "min and max mixing long long and unsigned long long");
    expect(m.min_ff == 2.0f && m.max_ff == 3.0f, "min and max of floats (NaN loses)");
    expect(m.min_fd == 1.5 && m.max_df == 3.0, "min and max mixing float and double");
    expect(m.clock_ticks > 0 && m.clock_ok, "clock64 and clock advance");
}

// ---- __half ---------------------------------------------------------------------------------------

// The reference: a half's value from its fields, and the nearest half found by bisection over
// the ordered positive halves (ties to the even pattern), nothing shared with the device code.
double half_value(unsigned short h) {
    int e = (h >> 10) & 31, f = h & 1023;
    double v = e == 0 ? std::ldexp(f, -24) : e == 31 ? (f ? NAN : INFINITY) : std::ldexp(1024 + f, e - 25);
    return (h & 0x8000) ? -v : v;
}
unsigned short nearest_half(double x) {
    if (std::isnan(x)) return 0x7FFF;
    unsigned short sign = std::signbit(x) ? 0x8000 : 0;
    double a = std::fabs(x);
    if (a >= 65520.0) return sign | 0x7C00;
    unsigned lo = 0, hi = 0x7BFF;  // half_value(lo) <= a < half_value(hi + 1)
    while (lo < hi) {
        unsigned mid = (lo + hi + 1) / 2;
        if (half_value(mid) <= a) lo = mid; else hi = mid - 1;
    }
    double below = a - half_value(lo), above = half_value(lo + 1) - a;
    unsigned r = below < above ? lo : above < below ? lo + 1 : (lo % 2 == 0 ? lo : lo + 1);
    return static_cast<unsigned short>(sign | r);
}
bool same_half(unsigned short got, unsigned short want) {
    bool got_nan = (got & 0x7FFF) > 0x7C00, want_nan = (want & 0x7FFF) > 0x7C00;
    return got_nan || want_nan ? got_nan && want_nan : got == want;
}

__global__ void half_round_trip(unsigned short* back, float* value) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;  // every half bit pattern
    __half h = __ushort_as_half(static_cast<unsigned short>(i));
    value[i] = __half2float(h);
    back[i] = __half_as_ushort(__float2half(value[i]));
}

__global__ void half_from_floats(const float* in, unsigned short* rn, unsigned short* rz, unsigned short* ru,
                                 unsigned short* rd, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    rn[i] = __half_as_ushort(__float2half_rn(in[i]));
    rz[i] = __half_as_ushort(__float2half_rz(in[i]));
    ru[i] = __half_as_ushort(__float2half_ru(in[i]));
    rd[i] = __half_as_ushort(__float2half_rd(in[i]));
}

const int kHalfResults = 20;

__global__ void half_arithmetic(const unsigned short* a, const unsigned short* b, const unsigned short* c,
                                unsigned short* r, float* f, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half x = __ushort_as_half(a[i]), y = __ushort_as_half(b[i]), z = __ushort_as_half(c[i]);
    unsigned short* o = r + i * kHalfResults;
    o[0] = __half_as_ushort(__hadd(x, y));
    o[1] = __half_as_ushort(__hsub(x, y));
    o[2] = __half_as_ushort(__hmul(x, y));
    o[3] = __half_as_ushort(__hdiv(x, y));
    o[4] = __half_as_ushort(__hfma(x, y, z));
    o[5] = __half_as_ushort(__hneg(x));
    o[6] = __half_as_ushort(x + y * z);  // operators: a multiply and an add, or nvcc's fma
    o[7] = __half_as_ushort(__hmax(x, y));
    o[8] = __half_as_ushort(__hmin(x, y));
    o[9] = __half_as_ushort(hsqrt(__habs(x)));
    o[10] = (__heq(x, y) ? 1 : 0) | (__hlt(x, y) ? 2 : 0) | (x < y ? 4 : 0) | (x == y ? 8 : 0) |
            (x != y ? 16 : 0) | (__hge(x, y) ? 32 : 0) | (__hisnan(x) ? 64 : 0);
    __half2 p = __halves2half2(x, y), q = __floats2half2_rn(__half2float(z), 0.5f);
    __half2 s = __hadd2(p, q), m = __hmul2(p, q), fm = __hfma2(p, q, __half2half2(z));
    o[11] = __half_as_ushort(__low2half(s));
    o[12] = __half_as_ushort(__high2half(s));
    o[13] = __half_as_ushort(__low2half(m));
    o[14] = __half_as_ushort(__high2half(m));
    o[15] = __half_as_ushort(__low2half(fm));
    o[16] = __half_as_ushort(__high2half(fm));
    float2 back = __half22float2(p);
    f[4 * i] = back.x, f[4 * i + 1] = back.y, f[4 * i + 2] = __low2float(p), f[4 * i + 3] = __high2float(p);
    o[17] = __half_as_ushort(hexp(__hmul(x, __float2half(0.01f))));
    __half acc = x;
    acc += y;
    acc *= z;
    o[18] = __half_as_ushort(acc);
    o[19] = __half_as_ushort(__float2half(static_cast<float>(__half2float(x))));
}

// Shuffles move halves as they move floats.
__global__ void half_shuffles(float* out) {
    int lane = threadIdx.x;
    __half h = __int2half_rn(lane);
    __half2 h2 = __halves2half2(h, __hneg(h));
    __half down = __shfl_down_sync(0xffffffffu, h, 1);
    __half2 swapped = __shfl_xor_sync(0xffffffffu, h2, 3);
    out[3 * lane] = __half2float(down);
    out[3 * lane + 1] = __low2float(swapped);
    out[3 * lane + 2] = __high2float(__shfl_sync(0xffffffffu, h2, 0));
}

void test_half() {
    float* d_shuffled = device_array<float>(3 * 32);
    half_shuffles<<<1, 32>>>(d_shuffled);
    CHECK(cudaGetLastError());
    auto shuffled = to_host(d_shuffled, 3 * 32);
    for (int lane = 0; lane < 32; ++lane)
        expect(shuffled[3 * lane] == (lane < 31 ? lane + 1 : 31) && shuffled[3 * lane + 1] == (lane ^ 3) &&
                   shuffled[3 * lane + 2] == 0.0f,
               "__shfl_down_sync, __shfl_xor_sync and __shfl_sync of __half and __half2", lane);


    // Every half to float and back.
    unsigned short* d_back = device_array<unsigned short>(65536);
    float* d_value = device_array<float>(65536);
    half_round_trip<<<256, 256>>>(d_back, d_value);
    CHECK(cudaGetLastError());
    auto back = to_host(d_back, 65536);
    auto value = to_host(d_value, 65536);
    for (int i = 0; i < 65536; ++i) {
        double want = half_value(static_cast<unsigned short>(i));
        expect(std::isnan(want) ? std::isnan(value[i]) : value[i] == want, "__half2float of every half", i);
        expect(same_half(back[i], static_cast<unsigned short>(i)), "__float2half(__half2float(h)) == h", i);
    }

    // Rounding from float, at the cases that matter: ties, subnormals, overflow, each mode.
    std::vector<float> in = {0.1f, 1.0f / 3, 65504.0f, 65519.99f, 65520.0f, 1e6f, -2.0f, 0x1p-24f,
                             0x1p-25f, 0x1.8p-24f, 0x1.4p-23f, 1 + 0x1p-11f, 1 + 0x3p-11f, 0x1p-14f,
                             -0.0f, NAN, -INFINITY, 1 + 0x1p-12f, -(1 + 0x1p-12f), 3e-8f, -3e-8f, 1e-10f};
    const int n = static_cast<int>(in.size());
    std::mt19937 rng(5);
    for (int i = 0; i < 2000; ++i) {
        unsigned bits = rng();
        float f;
        bits = (bits & 0x807FFFFF) | ((0x67 + rng() % 40) << 23);  // 2^-24 to 2^16: the half range
        memcpy(&f, &bits, sizeof f);
        in.push_back(f);
    }
    const int m = static_cast<int>(in.size());
    float* d_in = to_device(in);
    unsigned short *d_rn = device_array<unsigned short>(m), *d_rz = device_array<unsigned short>(m),
                   *d_ru = device_array<unsigned short>(m), *d_rd = device_array<unsigned short>(m);
    half_from_floats<<<(m + 127) / 128, 128>>>(d_in, d_rn, d_rz, d_ru, d_rd, m);
    CHECK(cudaGetLastError());
    auto rn = to_host(d_rn, m), rz = to_host(d_rz, m), ru = to_host(d_ru, m), rd = to_host(d_rd, m);
    CHECK(cudaFree(d_in));
    const unsigned short literal[] = {0x2E66, 0x3555, 0x7BFF, 0x7BFF, 0x7C00, 0x7C00, 0xC000, 0x0001,
                                      0x0000, 0x0002, 0x0002, 0x3C00, 0x3C02, 0x0400, 0x8000, 0x7FFF,
                                      0xFC00, 0x3C00, 0xBC00, 0x0001, 0x8001, 0x0000};
    for (int i = 0; i < n; ++i) expect(same_half(rn[i], literal[i]), "__float2half_rn of a listed value", i);
    expect(rz[4] == 0x7BFF && ru[17] == 0x3C01 && rd[18] == 0xBC01 && rd[17] == 0x3C00 && rz[18] == 0xBC00 &&
               ru[21] == 0x0001 && rd[19] == 0x0000,
           "__float2half_rz, _ru and _rd at listed values");
    for (int i = 0; i < m; ++i) {
        double x = in[i];
        expect(same_half(rn[i], nearest_half(x)), "__float2half_rn is the nearest half", i);
        if (std::isnan(x)) continue;
        double lo = half_value(rd[i]), hi = half_value(ru[i]);
        bool exact = lo == x;
        expect(lo <= x && x <= hi && (exact ? hi == x : rd[i] != ru[i]), "__float2half_rd and _ru bracket x", i);
        expect(rz[i] == (x >= 0 ? rd[i] : ru[i]), "__float2half_rz rounds toward zero", i);
    }

    // Arithmetic on random halves (exponents near 1, so that sums and products stay finite).
    const int k = 4096;
    std::vector<unsigned short> a(k), b(k), c(k);
    for (int i = 0; i < k; ++i) {
        a[i] = static_cast<unsigned short>((rng() & 0x83FF) | ((8 + rng() % 14) << 10));
        b[i] = static_cast<unsigned short>((rng() & 0x83FF) | ((8 + rng() % 14) << 10));
        c[i] = static_cast<unsigned short>((rng() & 0x83FF) | ((8 + rng() % 14) << 10));
        if (i % 32 == 0) b[i] = a[i];
        if (i % 32 == 1) b[i] = 0x7E00;  // NaN
    }
    unsigned short* d_a = to_device(a);
    unsigned short* d_b = to_device(b);
    unsigned short* d_c = to_device(c);
    unsigned short* d_r = device_array<unsigned short>(k * kHalfResults);
    float* d_f = device_array<float>(4 * k);
    half_arithmetic<<<k / 128, 128>>>(d_a, d_b, d_c, d_r, d_f, k);
    CHECK(cudaGetLastError());
    auto r = to_host(d_r, k * kHalfResults);
    auto f = to_host(d_f, 4 * k);
    CHECK(cudaFree(d_a));
    CHECK(cudaFree(d_b));
    CHECK(cudaFree(d_c));
    for (int i = 0; i < k; ++i) {
        double x = half_value(a[i]), y = half_value(b[i]), z = half_value(c[i]);
        const unsigned short* o = &r[i * kHalfResults];
        auto h = [](double v) { return half_value(nearest_half(v)); };  // v rounded to half
        expect(same_half(o[0], nearest_half(x + y)), "__hadd", i);
        expect(same_half(o[1], nearest_half(x - y)), "__hsub", i);
        expect(same_half(o[2], nearest_half(x * y)), "__hmul", i);
        expect(same_half(o[3], nearest_half(x / y)), "__hdiv", i);
        expect(same_half(o[4], nearest_half(std::fma(x, y, z))), "__hfma rounds once", i);
        expect(same_half(o[5], static_cast<unsigned short>(a[i] ^ 0x8000)), "__hneg", i);
        // nvcc may contract the operators' multiply and add into one fma (-fmad=true, its
        // default, as for float; an H100 gave the fused result), a host compiler does not.
        expect(
            same_half(o[6], nearest_half(x + h(y * z))) || same_half(o[6], nearest_half(x + y * z)),
            "half operators + and *, each rounded or fused", i);
        double mx = std::isnan(y) ? x : std::fmax(x, y), mn = std::isnan(y) ? x : std::fmin(x, y);
        expect(same_half(o[7], nearest_half(mx)), "__hmax", i);
        expect(same_half(o[8], nearest_half(mn)), "__hmin", i);
        expect(same_half(o[9], nearest_half(std::sqrt(std::fabs(x)))), "hsqrt", i);
        bool nan = std::isnan(y);
        int flags = (x == y ? 1 : 0) | (x < y ? 2 : 0) | (x < y ? 4 : 0) | (x == y ? 8 : 0) |
                    (x != y ? 16 : 0) | (x >= y ? 32 : 0);
        expect(o[10] == flags, "__heq, __hlt, __hge and operators (!= is true for NaN)", i);
        double q0 = z, q1 = 0.5;
        expect(same_half(o[11], nearest_half(x + q0)) && same_half(o[12], nearest_half(y + q1)), "__hadd2", i);
        expect(same_half(o[13], nearest_half(x * q0)) && same_half(o[14], nearest_half(y * q1)), "__hmul2", i);
        expect(same_half(o[15], nearest_half(std::fma(x, q0, z))) && same_half(o[16], nearest_half(std::fma(y, q1, z))),
               "__hfma2 and __half2half2", i);
        expect(f[4 * i] == x && f[4 * i + 2] == x && (nan ? std::isnan(f[4 * i + 1]) && std::isnan(f[4 * i + 3])
                                                          : f[4 * i + 1] == y && f[4 * i + 3] == y),
               "__half22float2, __low2float and __high2float", i);
        double e = std::exp(h(x * h(0.01)));
        expect(std::fabs(half_value(o[17]) - e) <= 2 * std::ldexp(1.0, std::ilogb(e) - 10), "hexp within 2 ulp", i);
        expect(same_half(o[18], nearest_half(h(x + y) * z)), "__half += and *=", i);
        expect(o[19] == a[i], "__float2half of __half2float", i);
    }
}

int main() {
    test_vector_types();
    test_integer_intrinsics();
    test_rounding_modes();
    test_conversions();
    test_misc();
    test_half();
    return report();
}
