// __nv_bfloat16 and __nv_bfloat162 from <cuda_bf16.h>: conversions of values with known bit
// patterns in each rounding mode, arithmetic and comparisons in a kernel against the format worked
// out on the CPU, the two lanes of __nv_bfloat162, shuffles, and atomicAdd from many threads.
// Prints PASS; exits 77 (skipped) where there is no GPU to run on.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>  // both headers together, in either order
#include <cuda_runtime.h>

#include "checks.cuh"

// ---- The reference: the format itself, nothing shared with the device code -------------------

// A bfloat16 is the upper 16 bits of a float.
float bf16_value(unsigned short b) {
    unsigned u = static_cast<unsigned>(b) << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}
unsigned float_bits(float f) {
    unsigned u;
    memcpy(&u, &f, sizeof u);
    return u;
}
float bits_float(unsigned u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}
bool is_nan_bf16(unsigned short b) { return (b & 0x7FFF) > 0x7F80; }
// The nearest bfloat16 to x, by bisection over the ordered positive patterns (ties to the even
// pattern); x is exact or already rounded finely enough (see the callers).
unsigned short nearest_bf16(double x) {
    if (std::isnan(x)) return 0x7FFF;
    unsigned short sign = std::signbit(x) ? 0x8000 : 0;
    double a = std::fabs(x);
    if (a >= std::ldexp(511.0, 119)) return sign | 0x7F80;  // half an ulp past the largest: inf
    unsigned lo = 0, hi = 0x7F7F;  // bf16_value(lo) <= a < bf16_value(hi + 1)
    while (lo < hi) {
        unsigned mid = (lo + hi + 1) / 2;
        if (bf16_value(mid) <= a) lo = mid; else hi = mid - 1;
    }
    double below = a - bf16_value(lo), above = bf16_value(lo + 1) - a;
    unsigned r = below < above ? lo : above < below ? lo + 1 : (lo % 2 == 0 ? lo : lo + 1);
    return static_cast<unsigned short>(sign | r);
}
bool same_bf16(unsigned short got, unsigned short want) {
    return is_nan_bf16(got) || is_nan_bf16(want) ? is_nan_bf16(got) && is_nan_bf16(want)
                                                 : got == want;
}

// ---- Conversions of chosen values ------------------------------------------------------------

// Floats with their bfloat16 in each mode: rn, rz, ru, rd.
struct FloatCase {
    unsigned in;
    unsigned short rn, rz, ru, rd;
};
const FloatCase kFloatCases[] = {
    {0x3F800000, 0x3F80, 0x3F80, 0x3F80, 0x3F80},  // 1.0, exact
    {0x3F808000, 0x3F80, 0x3F80, 0x3F81, 0x3F80},  // 1 + 2^-8: a tie, to the even 1.0
    {0x3F818000, 0x3F82, 0x3F81, 0x3F82, 0x3F81},  // 1 + 3 * 2^-8: a tie, up to even
    {0x3F808001, 0x3F81, 0x3F80, 0x3F81, 0x3F80},  // just past the tie
    {0xBF808000, 0xBF80, 0xBF80, 0xBF80, 0xBF81},  // -(1 + 2^-8): a negative tie
    {0x3FFFFFFF, 0x4000, 0x3FFF, 0x4000, 0x3FFF},  // a carry into the exponent
    {0x7F7FFFFF, 0x7F80, 0x7F7F, 0x7F80, 0x7F7F},  // FLT_MAX: rounds up to infinity
    {0xFF7FFFFF, 0xFF80, 0xFF7F, 0xFF7F, 0xFF80},  // -FLT_MAX
    {0x7F7F7FFF, 0x7F7F, 0x7F7F, 0x7F80, 0x7F7F},  // just under half an ulp past the largest
    {0x7F800000, 0x7F80, 0x7F80, 0x7F80, 0x7F80},  // inf
    {0xFF800000, 0xFF80, 0xFF80, 0xFF80, 0xFF80},  // -inf
    {0x7FC00000, 0x7FFF, 0x7FFF, 0x7FFF, 0x7FFF},  // NaN
    {0x7F800001, 0x7FFF, 0x7FFF, 0x7FFF, 0x7FFF},  // NaN with only its last bit: not infinity
    {0xFFFFFFFF, 0x7FFF, 0x7FFF, 0x7FFF, 0x7FFF},  // NaN with every bit
    {0x00010000, 0x0001, 0x0001, 0x0001, 0x0001},  // the smallest bfloat16 denormal
    {0x00008000, 0x0000, 0x0000, 0x0001, 0x0000},  // half of it: a tie, to zero
    {0x00018000, 0x0002, 0x0001, 0x0002, 0x0001},  // one and a half: a tie, up to even
    {0x00000001, 0x0000, 0x0000, 0x0001, 0x0000},  // the smallest float denormal
    {0x807FFFFF, 0x8080, 0x807F, 0x807F, 0x8080},  // the largest negative float denormal
    {0x80000000, 0x8000, 0x8000, 0x8000, 0x8000},  // -0
};
const int kFloatCaseCount = sizeof(kFloatCases) / sizeof(kFloatCases[0]);

const int kOther = 24;  // the other conversions, one slot each

__global__ void conversions(const float* in, unsigned short* modes, int n, unsigned short* other,
                            float* f) {
    for (int i = 0; i < n; ++i) {
        modes[4 * i] = __bfloat16_as_ushort(__float2bfloat16(in[i]));
        modes[4 * i + 1] = __bfloat16_as_ushort(__float2bfloat16_rz(in[i]));
        modes[4 * i + 2] = __bfloat16_as_ushort(__float2bfloat16_ru(in[i]));
        modes[4 * i + 3] = __bfloat16_as_ushort(__float2bfloat16_rd(in[i]));
    }
    // 1 + 2^-8 + 2^-40 is just past a tie: rounding it to float first would make it the tie.
    other[0] = __bfloat16_as_ushort(__double2bfloat16(1.0 + 0x1p-8 + 0x1p-40));
    other[1] = __bfloat16_as_ushort(__double2bfloat16(-1e300));
    other[2] = __bfloat16_as_ushort(__int2bfloat16_rn(257));  // a tie: 256
    other[3] = __bfloat16_as_ushort(__int2bfloat16_rn(259));  // a tie: 260
    other[4] = __bfloat16_as_ushort(__int2bfloat16_rz(259));
    other[5] = __bfloat16_as_ushort(__int2bfloat16_rd(-259));
    // 2^60 + 2^52 + 1 is just past a tie; as a double it would be the tie.
    other[6] = __bfloat16_as_ushort(__ull2bfloat16_rn((1ull << 60) + (1ull << 52) + 1));
    other[7] = __bfloat16_as_ushort(__short_as_bfloat16(static_cast<short>(-16512)));  // 0xBF80
    other[8] = static_cast<unsigned short>(__bfloat16_as_short(__ushort_as_bfloat16(0xC049)));
    other[9] = static_cast<unsigned short>(__bfloat162int_rn(__float2bfloat16(2.5f)));  // 2
    other[10] = static_cast<unsigned short>(__bfloat162int_rz(__float2bfloat16(-2.75f)));
    other[11] = static_cast<unsigned short>(__bfloat162int_ru(__float2bfloat16(2.25f)));
    other[12] = __bfloat162ushort_rn(__float2bfloat16(1e30f));  // saturates: 65535
    __nv_bfloat162 two = __floats2bfloat162_rn(1.0f + 0x1p-7f, -3.0f);
    other[13] = __bfloat16_as_ushort(__low2bfloat16(two));
    other[14] = __bfloat16_as_ushort(__high2bfloat16(two));
    __nv_bfloat162 halves = __halves2bfloat162(__ushort_as_bfloat16(0x4049), CUDART_INF_BF16);
    float2 back = __bfloat1622float2(halves);
    f[0] = back.x, f[1] = back.y, f[2] = __bfloat162float(__ushort_as_bfloat16(0x0001));
    // 1 + 2^-8 + 2^-9: past the tie between 1 and 1 + 2^-7, in each lane.
    __nv_bfloat162 from2 = __float22bfloat162_rn(make_float2(0x1.018p0f, -0x1.018p0f));
    other[15] = __bfloat16_as_ushort(from2.x), other[16] = __bfloat16_as_ushort(from2.y);
    other[17] = __bfloat16_as_ushort(__ll2bfloat16_rn(-3LL));
    other[18] = __bfloat16_as_ushort(__uint2bfloat16_ru(257u));
}

void test_conversions() {
    std::vector<float> in(kFloatCaseCount);
    for (int i = 0; i < kFloatCaseCount; ++i) in[i] = bits_float(kFloatCases[i].in);
    float *d_in, *d_f;
    unsigned short *d_modes, *d_other;
    CHECK(cudaMalloc(&d_in, in.size() * sizeof(float)));
    CHECK(cudaMalloc(&d_modes, 4 * in.size() * sizeof(unsigned short)));
    CHECK(cudaMalloc(&d_other, kOther * sizeof(unsigned short)));
    CHECK(cudaMalloc(&d_f, 4 * sizeof(float)));
    CHECK(cudaMemcpy(d_in, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice));
    conversions<<<1, 1>>>(d_in, d_modes, kFloatCaseCount, d_other, d_f);
    CHECK(cudaGetLastError());
    std::vector<unsigned short> modes(4 * in.size()), other(kOther);
    float f[4];
    CHECK(cudaMemcpy(modes.data(), d_modes, modes.size() * 2, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(other.data(), d_other, other.size() * 2, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(f, d_f, sizeof f, cudaMemcpyDeviceToHost));
    for (int i = 0; i < kFloatCaseCount; ++i) {
        const FloatCase& c = kFloatCases[i];
        expect(same_bf16(modes[4 * i], c.rn), "__float2bfloat16 rounds to nearest even", i);
        expect(same_bf16(modes[4 * i + 1], c.rz), "__float2bfloat16_rz rounds toward zero", i);
        expect(same_bf16(modes[4 * i + 2], c.ru), "__float2bfloat16_ru rounds up", i);
        expect(same_bf16(modes[4 * i + 3], c.rd), "__float2bfloat16_rd rounds down", i);
        // The reference agrees with the table, so the table is the format's.
        expect(same_bf16(nearest_bf16(bits_float(c.in)), c.rn), "the table's rn is the nearest", i);
    }
    expect(other[0] == 0x3F81, "__double2bfloat16 rounds once");
    expect(other[1] == 0xFF80, "__double2bfloat16 overflows to -inf");
    expect(other[2] == 0x4380, "__int2bfloat16_rn(257) is 256, the even neighbour");
    expect(other[3] == 0x4382, "__int2bfloat16_rn(259) is 260, the even neighbour");
    expect(other[4] == 0x4381, "__int2bfloat16_rz(259) is 258");
    expect(other[5] == 0xC382, "__int2bfloat16_rd(-259) is -260");
    expect(other[6] == 0x5D81, "__ull2bfloat16_rn rounds a 64-bit integer once");
    expect(other[7] == 0xBF80, "__short_as_bfloat16 keeps the bits");
    expect(other[8] == 0xC049, "__bfloat16_as_short keeps the bits");
    expect(other[9] == 2, "__bfloat162int_rn(2.5) is 2");
    expect(static_cast<short>(other[10]) == -2, "__bfloat162int_rz(-2.75) is -2");
    expect(other[11] == 3, "__bfloat162int_ru(2.25) is 3");
    expect(other[12] == 65535, "__bfloat162ushort_rn saturates");
    expect(other[13] == 0x3F81 && other[14] == 0xC040, "__floats2bfloat162_rn fills x then y");
    expect(f[0] == 3.140625f && std::isinf(f[1]) && f[1] > 0, "__bfloat1622float2 is exact");
    expect(f[2] == std::ldexp(1.0f, -133), "the smallest denormal is 2^-133");
    expect(other[15] == 0x3F81 && other[16] == 0xBF81, "__float22bfloat162_rn rounds each lane");
    expect(other[17] == 0xC040, "__ll2bfloat16_rn(-3) is -3");
    expect(other[18] == 0x4381, "__uint2bfloat16_ru(257) is 258");
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_modes));
    CHECK(cudaFree(d_other));
    CHECK(cudaFree(d_f));
}

// ---- Arithmetic, comparisons, math, the two lanes ---------------------------------------------

const int kResults = 24;

__global__ void arithmetic(const unsigned short* a, const unsigned short* b, const unsigned short* c,
                           unsigned short* r, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __nv_bfloat16 x = __ushort_as_bfloat16(a[i]), y = __ushort_as_bfloat16(b[i]),
                  z = __ushort_as_bfloat16(c[i]);
    unsigned short* o = r + i * kResults;
    o[0] = __bfloat16_as_ushort(__hadd(x, y));
    o[1] = __bfloat16_as_ushort(__hsub(x, y));
    o[2] = __bfloat16_as_ushort(__hmul(x, y));
    o[3] = __bfloat16_as_ushort(__hdiv(x, y));
    o[4] = __bfloat16_as_ushort(__hfma(x, y, z));
    o[5] = __bfloat16_as_ushort(__hneg(x));
    o[6] = __bfloat16_as_ushort(__habs(x));
    o[7] = __bfloat16_as_ushort(x + y);
    o[8] = __bfloat16_as_ushort(x - y);
    o[9] = __bfloat16_as_ushort(x * y);
    o[10] = __bfloat16_as_ushort(x / y);
    o[11] = __bfloat16_as_ushort(__hmax(x, y));
    o[12] = __bfloat16_as_ushort(__hmin(x, y));
    o[13] = __bfloat16_as_ushort(hsqrt(__habs(x)));
    o[14] = (__heq(x, y) ? 1 : 0) | (__hlt(x, y) ? 2 : 0) | (x < y ? 4 : 0) | (x == y ? 8 : 0) |
            (x != y ? 16 : 0) | (__hge(x, y) ? 32 : 0) | (__hisnan(x) ? 64 : 0) |
            (__hgtu(x, y) ? 128 : 0);
    __nv_bfloat162 p = __halves2bfloat162(x, y), q = __halves2bfloat162(z, x);
    __nv_bfloat162 s = __hadd2(p, q), m = __hmul2(p, q), fm = __hfma2(p, q, __bfloat162bfloat162(z));
    o[15] = __bfloat16_as_ushort(__low2bfloat16(s));
    o[16] = __bfloat16_as_ushort(__high2bfloat16(s));
    o[17] = __bfloat16_as_ushort(__low2bfloat16(m));
    o[18] = __bfloat16_as_ushort(__high2bfloat16(m));
    o[19] = __bfloat16_as_ushort(fm.x);
    o[20] = __bfloat16_as_ushort(fm.y);
    __nv_bfloat162 lt = __hlt2(p, q);
    o[21] = __bfloat16_as_ushort(lt.x);
    o[22] = __bfloat16_as_ushort(hexp(__hmul(x, __float2bfloat16(0.125f))));
    o[23] = __bfloat16_as_ushort(hlog(__habs(x)));
}

// Random finite bfloat16s between 2^-8 and 2^8 in size, either sign, so that a + b, a * b and
// a * b + c are exact in double and the reference rounds them once.
unsigned short moderate(unsigned& state) {
    state = state * 1664525u + 1013904223u;
    unsigned e = 127 - 8 + (state >> 8) % 17, f = (state >> 16) & 0x7F, s = (state >> 30) & 1;
    return static_cast<unsigned short>(s << 15 | e << 7 | f);
}

void test_arithmetic() {
    std::vector<unsigned short> a, b, c;
    // Special cases first: zeros of both signs, infinities, NaN, the largest, a denormal.
    const unsigned short special[][3] = {
        {0x0000, 0x8000, 0x3F80}, {0x8000, 0x8000, 0x0000}, {0x7F80, 0x3F80, 0x0000},
        {0x7F80, 0xFF80, 0x3F80}, {0x7FFF, 0x3F80, 0x3F80}, {0x3F80, 0x7FFF, 0x3F80},
        {0x7F7F, 0x7F7F, 0x0000}, {0x7F7F, 0x3F80, 0x7F7F}, {0x0001, 0x3F00, 0x0000},
        {0x3F80, 0x0000, 0x3F80}, {0x4040, 0x4040, 0xC110}, {0x3F80, 0x3C00, 0xBF80},
    };
    for (auto& s : special) a.push_back(s[0]), b.push_back(s[1]), c.push_back(s[2]);
    unsigned state = 12345;
    for (int i = 0; i < 1000; ++i)
        a.push_back(moderate(state)), b.push_back(moderate(state)), c.push_back(moderate(state));
    int n = static_cast<int>(a.size());
    unsigned short *d_a, *d_b, *d_c, *d_r;
    CHECK(cudaMalloc(&d_a, n * 2));
    CHECK(cudaMalloc(&d_b, n * 2));
    CHECK(cudaMalloc(&d_c, n * 2));
    CHECK(cudaMalloc(&d_r, n * kResults * 2));
    CHECK(cudaMemcpy(d_a, a.data(), n * 2, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_b, b.data(), n * 2, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_c, c.data(), n * 2, cudaMemcpyHostToDevice));
    arithmetic<<<(n + 127) / 128, 128>>>(d_a, d_b, d_c, d_r, n);
    CHECK(cudaGetLastError());
    std::vector<unsigned short> r(n * kResults);
    CHECK(cudaMemcpy(r.data(), d_r, r.size() * 2, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
        const unsigned short* o = &r[i * kResults];
        double x = bf16_value(a[i]), y = bf16_value(b[i]), z = bf16_value(c[i]);
        // +, -, *, / and sqrt rounded once from double are rounded once from the exact value: 53
        // bits are more than twice bfloat16's 8, plus 2. The fma is exact in double for the
        // moderate values; the special cases have exact products and sums too.
        expect(same_bf16(o[0], nearest_bf16(x + y)), "__hadd", i);
        expect(same_bf16(o[1], nearest_bf16(x - y)), "__hsub", i);
        expect(same_bf16(o[2], nearest_bf16(x * y)), "__hmul", i);
        expect(same_bf16(o[3], nearest_bf16(x / y)), "__hdiv", i);
        expect(same_bf16(o[4], nearest_bf16(x * y + z)), "__hfma rounds once", i);
        expect(o[5] == (a[i] ^ 0x8000), "__hneg flips the sign bit", i);
        expect(o[6] == (a[i] & 0x7FFF), "__habs clears the sign bit", i);
        expect(same_bf16(o[7], o[0]) && same_bf16(o[8], o[1]) && same_bf16(o[9], o[2]) &&
                   same_bf16(o[10], o[3]),
               "the operators are __hadd, __hsub, __hmul and __hdiv", i);
        bool nan = std::isnan(x) || std::isnan(y);
        double big = nan ? (std::isnan(x) ? y : x) : x > y ? x : y;
        double small = nan ? (std::isnan(x) ? y : x) : x < y ? x : y;
        if (!nan && x == y) {  // equal: +0 is the larger, -0 the smaller
            big = std::signbit(x) ? y : x;
            small = std::signbit(x) ? x : y;
        }
        expect(same_bf16(o[11], nearest_bf16(big)) && std::signbit(bf16_value(o[11])) == std::signbit(big),
               "__hmax: a NaN loses, +0 beats -0", i);
        expect(same_bf16(o[12], nearest_bf16(small)) && std::signbit(bf16_value(o[12])) == std::signbit(small),
               "__hmin: a NaN loses, -0 beats +0", i);
        expect(same_bf16(o[13], nearest_bf16(std::sqrt(std::fabs(x)))), "hsqrt", i);
        int want = (!nan && x == y ? 1 : 0) | (!nan && x < y ? 2 : 0) | (!nan && x < y ? 4 : 0) |
                   (!nan && x == y ? 8 : 0) | (nan || x != y ? 16 : 0) | (!nan && x >= y ? 32 : 0) |
                   (std::isnan(x) ? 64 : 0) | (nan || x > y ? 128 : 0);
        expect(o[14] == want, "comparisons: ordered, and != and the u forms unordered", i);
        expect(same_bf16(o[15], nearest_bf16(x + z)) && same_bf16(o[16], nearest_bf16(y + x)),
               "__hadd2 adds lane by lane", i);
        expect(same_bf16(o[17], nearest_bf16(x * z)) && same_bf16(o[18], nearest_bf16(y * x)),
               "__hmul2 multiplies lane by lane", i);
        if (!nan && std::isfinite(x * z + z) && std::isfinite(y * x + z))
            expect(same_bf16(o[19], nearest_bf16(x * z + z)) &&
                       same_bf16(o[20], nearest_bf16(y * x + z)),
                   "__hfma2 rounds each lane once", i);
        bool lane_lt = !std::isnan(x) && !std::isnan(z) && x < z;
        expect(o[21] == (lane_lt ? 0x3F80 : 0x0000), "__hlt2 gives 1.0 or 0.0 per lane", i);
        // The math functions are within an ulp of the exact value rounded (float's, then once more).
        if (!nan && std::isfinite(x)) {
            unsigned short e = nearest_bf16(std::exp(x * 0.125)), l = nearest_bf16(std::log(std::fabs(x)));
            expect(std::abs(o[22] - e) <= 1, "hexp within an ulp", i);
            expect(std::abs(o[23] - l) <= 1, "hlog within an ulp", i);
        }
    }
    CHECK(cudaFree(d_a));
    CHECK(cudaFree(d_b));
    CHECK(cudaFree(d_c));
    CHECK(cudaFree(d_r));
}

// ---- Shuffles and atomicAdd --------------------------------------------------------------------

const int kBlocks = 32, kThreads = 256, kSlots = 32;  // 256 adds into each slot

// Every slot gets 1.0 and its pair gets (1.0, -0.5) from 256 threads: each partial sum (up to
// 256, and -0.5 steps down to -128) is a bfloat16, so any order gives the exact total.
__global__ void atomic_adds(__nv_bfloat16* sums, __nv_bfloat162* pairs, unsigned short* shuffled) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&sums[t % kSlots], __float2bfloat16(1.0f));
    atomicAdd(&pairs[t % kSlots], __floats2bfloat162_rn(1.0f, -0.5f));
    if (blockIdx.x == 0 && threadIdx.x < 32) {
        __nv_bfloat16 v = __int2bfloat16_rn(static_cast<int>(threadIdx.x) - 16);
        __nv_bfloat162 w = __halves2bfloat162(v, __hneg(v));
        __nv_bfloat16 down = __shfl_down_sync(0xFFFFFFFFu, v, 1);
        __nv_bfloat162 across = __shfl_xor_sync(0xFFFFFFFFu, w, 3);
        __nv_bfloat16 from = __shfl_sync(0xFFFFFFFFu, v, 5);
        shuffled[3 * threadIdx.x] = __bfloat16_as_ushort(down);
        shuffled[3 * threadIdx.x + 1] = __bfloat16_as_ushort(__high2bfloat16(across));
        shuffled[3 * threadIdx.x + 2] = __bfloat16_as_ushort(from);
    }
}

void test_atomics_and_shuffles() {
    __nv_bfloat16* d_sums;
    __nv_bfloat162* d_pairs;
    unsigned short* d_shuffled;
    CHECK(cudaMalloc(&d_sums, kSlots * sizeof(__nv_bfloat16)));
    CHECK(cudaMalloc(&d_pairs, kSlots * sizeof(__nv_bfloat162)));
    CHECK(cudaMalloc(&d_shuffled, 3 * 32 * 2));
    CHECK(cudaMemset(d_sums, 0, kSlots * sizeof(__nv_bfloat16)));
    CHECK(cudaMemset(d_pairs, 0, kSlots * sizeof(__nv_bfloat162)));
    atomic_adds<<<kBlocks, kThreads>>>(d_sums, d_pairs, d_shuffled);
    CHECK(cudaGetLastError());
    std::vector<unsigned short> sums(kSlots), pairs(2 * kSlots), shuffled(3 * 32);
    CHECK(cudaMemcpy(sums.data(), d_sums, sums.size() * 2, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(pairs.data(), d_pairs, pairs.size() * 2, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(shuffled.data(), d_shuffled, shuffled.size() * 2, cudaMemcpyDeviceToHost));
    for (int s = 0; s < kSlots; ++s) {
        expect(sums[s] == 0x4380, "atomicAdd on __nv_bfloat16 loses no add (256)", s);
        expect(pairs[2 * s] == 0x4380 && pairs[2 * s + 1] == 0xC300,
               "atomicAdd on __nv_bfloat162 adds each lane (256, -128)", s);
    }
    for (int lane = 0; lane < 32; ++lane) {
        int below = lane + 1 < 32 ? lane + 1 : lane;  // the last lane keeps its own
        expect(shuffled[3 * lane] == nearest_bf16(below - 16), "__shfl_down_sync on bf16", lane);
        expect(shuffled[3 * lane + 1] == nearest_bf16(-((lane ^ 3) - 16.0)) ||
                   ((lane ^ 3) == 16 && (shuffled[3 * lane + 1] & 0x7FFF) == 0),
               "__shfl_xor_sync on bf162", lane);
        expect(shuffled[3 * lane + 2] == nearest_bf16(5 - 16), "__shfl_sync on bf16", lane);
    }
    CHECK(cudaFree(d_sums));
    CHECK(cudaFree(d_pairs));
    CHECK(cudaFree(d_shuffled));
}

int main() {
    test_conversions();
    test_arithmetic();
    test_atomics_and_shuffles();
    return report();
}
