// Every atomic on every type CUDA gives it, from 16384 threads at once on a handful of addresses,
// in global and in shared memory; each result checked against the same operations done on the
// CPU. Prints PASS; exits 77 (skipped) where there is no GPU to run on.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "checks.cuh"

const int kBlocks = 64, kThreads = 256, kN = kBlocks * kThreads;

// Copies `init` to the device, runs `launch` on it, and returns what the kernel left there.
template <class T, class Launch>
std::vector<T> run(std::vector<T> init, Launch launch) {
    T* d = nullptr;
    CHECK(cudaMalloc(&d, init.size() * sizeof(T)));
    CHECK(cudaMemcpy(d, init.data(), init.size() * sizeof(T), cudaMemcpyHostToDevice));
    launch(d);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(init.data(), d, init.size() * sizeof(T), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d));
    return init;
}

// ---- int ------------------------------------------------------------------------------------

__global__ void int_atomics(int* r, int* tickets) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    tickets[t] = atomicAdd(&r[0], 1);  // every old value is a different ticket
    atomicSub(&r[1], 3);
    atomicExch(&r[2], 7);
    atomicMin(&r[3], -t);
    atomicMax(&r[4], t);
    atomicAnd(&r[5], ~(1 << (t % 31)));
    atomicOr(&r[6], 1 << (t % 31));
    atomicXor(&r[7], t);
    int old = 0, assumed;  // a CAS loop: a guess first, then what atomicCAS saw
    do {
        assumed = old;
        old = atomicCAS(&r[8], assumed, assumed + 2);
    } while (old != assumed);
    // A _block atomic is atomic only among one block's threads: only block 0 uses these words.
    if (blockIdx.x == 0) atomicAdd_block(&r[9], 1);
    atomicMax_system(&r[10], t);
    if (blockIdx.x == 0) atomicCAS_block(&r[11], 0, t + 1);  // only the first thread succeeds
}

void test_int() {
    std::vector<int> tickets(kN);
    int* d_tickets;
    CHECK(cudaMalloc(&d_tickets, kN * sizeof(int)));
    auto r = run(std::vector<int>{5, 0, 0, 100, -100, -1, 0, 0x5A5A, 0, 0, 0, 0}, [&](int* d) {
        int_atomics<<<kBlocks, kThreads>>>(d, d_tickets);
    });
    CHECK(cudaMemcpy(tickets.data(), d_tickets, kN * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_tickets));

    int xor_all = 0x5A5A;
    for (int t = 0; t < kN; ++t) xor_all ^= t;
    std::vector<bool> seen(kN + 5, false);
    bool tickets_ok = true;
    for (int v : tickets) {
        tickets_ok &= v >= 5 && v < kN + 5 && !seen[v];
        if (tickets_ok) seen[v] = true;
    }
    expect(r[0] == 5 + kN && tickets_ok, "int atomicAdd returns each old value once");
    expect(r[1] == -3 * kN, "int atomicSub");
    expect(r[2] == 7, "int atomicExch");
    expect(r[3] == -(kN - 1), "int atomicMin");
    expect(r[4] == kN - 1, "int atomicMax");
    expect(r[5] == static_cast<int>(0x80000000u), "int atomicAnd");
    expect(r[6] == 0x7FFFFFFF, "int atomicOr");
    expect(r[7] == xor_all, "int atomicXor");
    expect(r[8] == 2 * kN, "int atomicCAS loop");
    expect(r[9] == kThreads, "int atomicAdd_block");
    expect(r[10] == kN - 1, "int atomicMax_system");
    expect(r[11] >= 1 && r[11] <= kThreads, "int atomicCAS_block succeeds once");
}

// ---- unsigned -------------------------------------------------------------------------------

__global__ void unsigned_atomics(unsigned* r) {
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&r[0], 2u);   // from 0xFFFFFF00: wraps past zero
    atomicSub(&r[1], 1u);   // from 5: wraps below zero
    atomicExch(&r[2], t);
    atomicMin(&r[3], t + 10);
    atomicMax(&r[4], t);
    atomicInc(&r[5], 9u);   // counts 0..9, then 0 again
    atomicDec(&r[6], 9u);   // counts down 9..0, then 9 again
    atomicAnd(&r[7], ~(1u << (t % 32)));
    atomicOr(&r[8], 1u << (t % 32));
    atomicXor(&r[9], t * 2654435761u);
    unsigned old = 0, assumed;
    do {
        assumed = old;
        old = atomicCAS(&r[10], assumed, assumed + 1);
    } while (old != assumed);
    atomicInc_system(&r[11], 0xFFFFFFFFu);  // never wraps: a plain counter
    if (blockIdx.x == 0) atomicSub_block(&r[12], 1u);  // one block's word: see int_atomics
}

void test_unsigned() {
    auto r = run(std::vector<unsigned>{0xFFFFFF00u, 5, 0, 0xFFFFFFFFu, 0, 0, 0, 0xFFFFFFFFu, 0, 0, 0, 0, 0},
                 [](unsigned* d) { unsigned_atomics<<<kBlocks, kThreads>>>(d); });
    unsigned inc = 0, dec = 0, xor_all = 0;
    for (unsigned t = 0; t < kN; ++t) {
        inc = inc >= 9 ? 0 : inc + 1;
        dec = (dec == 0 || dec > 9) ? 9 : dec - 1;
        xor_all ^= t * 2654435761u;
    }
    expect(r[0] == 0xFFFFFF00u + 2u * kN, "unsigned atomicAdd wraps");
    expect(r[1] == 5u - kN, "unsigned atomicSub wraps");
    expect(r[2] < static_cast<unsigned>(kN), "unsigned atomicExch");
    expect(r[3] == 10, "unsigned atomicMin");
    expect(r[4] == kN - 1, "unsigned atomicMax");
    expect(r[5] == inc, "atomicInc wraps at its bound");
    expect(r[6] == dec, "atomicDec wraps at zero to its bound");
    expect(r[7] == 0, "unsigned atomicAnd");
    expect(r[8] == 0xFFFFFFFFu, "unsigned atomicOr");
    expect(r[9] == xor_all, "unsigned atomicXor");
    expect(r[10] == static_cast<unsigned>(kN), "unsigned atomicCAS loop");
    expect(r[11] == static_cast<unsigned>(kN), "atomicInc_system");
    expect(r[12] == 0u - kThreads, "unsigned atomicSub_block");
}

// ---- 64-bit integers --------------------------------------------------------------------------

__global__ void u64_atomics(unsigned long long* r) {
    unsigned long long t = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&r[0], 1ull << 33);
    atomicExch(&r[1], t << 40);
    atomicMin(&r[2], t + 1000);
    atomicMax(&r[3], t << 40);
    atomicAnd(&r[4], ~(1ull << (t % 64)));
    atomicOr(&r[5], 1ull << (t % 64));
    atomicXor(&r[6], t << 30);
    unsigned long long old = 0, assumed;
    do {
        assumed = old;
        old = atomicCAS(&r[7], assumed, assumed + (1ull << 32));
    } while (old != assumed);
}

__global__ void s64_atomics(long long* r) {
    long long t = blockIdx.x * blockDim.x + threadIdx.x;
    atomicMin(&r[0], -(t << 35));
    atomicMax(&r[1], t << 35);
    atomicAnd(&r[2], ~(1ll << (t % 63)));
    atomicOr(&r[3], 1ll << (t % 63));
    atomicXor(&r[4], -t);
    if (blockIdx.x == 0) atomicMin_block(&r[5], t - 7);  // one block's word: see int_atomics
}

void test_64_bit() {
    auto u = run(std::vector<unsigned long long>{0, 0, ~0ull, 0, ~0ull, 0, 0, 0},
                 [](unsigned long long* d) { u64_atomics<<<kBlocks, kThreads>>>(d); });
    unsigned long long uxor = 0;
    for (unsigned long long t = 0; t < kN; ++t) uxor ^= t << 30;
    expect(u[0] == static_cast<unsigned long long>(kN) << 33, "unsigned long long atomicAdd");
    expect(u[1] % (1ull << 40) == 0 && (u[1] >> 40) < static_cast<unsigned long long>(kN),
           "unsigned long long atomicExch");
    expect(u[2] == 1000, "unsigned long long atomicMin");
    expect(u[3] == static_cast<unsigned long long>(kN - 1) << 40, "unsigned long long atomicMax");
    expect(u[4] == 0, "unsigned long long atomicAnd");
    expect(u[5] == ~0ull, "unsigned long long atomicOr");
    expect(u[6] == uxor, "unsigned long long atomicXor");
    expect(u[7] == static_cast<unsigned long long>(kN) << 32, "unsigned long long atomicCAS loop");

    auto s = run(std::vector<long long>{0, 0, -1, 0, 0, 0},
                 [](long long* d) { s64_atomics<<<kBlocks, kThreads>>>(d); });
    long long sxor = 0;
    for (long long t = 0; t < kN; ++t) sxor ^= -t;
    expect(s[0] == -(static_cast<long long>(kN - 1) << 35), "long long atomicMin");
    expect(s[1] == static_cast<long long>(kN - 1) << 35, "long long atomicMax");
    expect(s[2] == static_cast<long long>(1ull << 63), "long long atomicAnd");
    expect(s[3] == 0x7FFFFFFFFFFFFFFFll, "long long atomicOr");
    expect(s[4] == sxor, "long long atomicXor");
    expect(s[5] == -7, "long long atomicMin_block");
}

// ---- floating point ---------------------------------------------------------------------------

__global__ void float_atomics(float* f, double* d, float* exchanged) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&f[0], 0.5f);  // sums of halves up to 8192 are exact: the order cannot matter
    atomicAdd_system(&f[1], -0.25f);
    exchanged[t] = atomicExch(&f[2], static_cast<float>(t));
    atomicAdd(&d[0], 0.125);
    if (blockIdx.x == 0) atomicAdd_block(&d[1], 1e-3);  // not exact: compared with a tolerance
}

void test_floating_point() {
    std::vector<float> exchanged(kN);
    float* d_exchanged;
    double* d_d;
    std::vector<double> d{1.0, 0.0};
    CHECK(cudaMalloc(&d_exchanged, kN * sizeof(float)));
    CHECK(cudaMalloc(&d_d, 2 * sizeof(double)));
    CHECK(cudaMemcpy(d_d, d.data(), 2 * sizeof(double), cudaMemcpyHostToDevice));
    auto f = run(std::vector<float>{0.0f, 0.0f, -1.0f}, [&](float* p) {
        float_atomics<<<kBlocks, kThreads>>>(p, d_d, d_exchanged);
    });
    CHECK(cudaMemcpy(d.data(), d_d, 2 * sizeof(double), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(exchanged.data(), d_exchanged, kN * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_exchanged));
    CHECK(cudaFree(d_d));

    // The old values handed out and the value left behind are the initial -1 and every t, once.
    std::vector<int> count(kN + 1, 0);
    exchanged.push_back(f[2]);
    for (float v : exchanged) {
        int i = static_cast<int>(v) + 1;
        if (i >= 0 && i <= kN && v == static_cast<float>(i - 1)) ++count[i];
    }
    bool each_once = true;
    for (int c : count) each_once &= c == 1;
    expect(f[0] == 0.5f * kN, "float atomicAdd");
    expect(f[1] == -0.25f * kN, "float atomicAdd_system");
    expect(each_once, "float atomicExch hands each value out once");
    expect(d[0] == 1.0 + 0.125 * kN, "double atomicAdd");
    expect(d[1] > 1e-3 * kThreads * (1 - 1e-9) && d[1] < 1e-3 * kThreads * (1 + 1e-9),
           "double atomicAdd_block");
}

// ---- unsigned short CAS, half precision ---------------------------------------------------------

__global__ void short_and_half_atomics(unsigned short* s, __half* h, __half2* h2) {
    unsigned short old = 0, assumed;
    do {
        assumed = old;
        old = atomicCAS(&s[0], assumed, static_cast<unsigned short>(assumed + 5));
    } while (old != assumed);
    if (blockIdx.x < 4) {  // 1024 adds of 1: every partial sum is a half exactly
        atomicAdd(&h[0], __float2half(1.0f));
        atomicAdd(h2, __floats2half2_rn(1.0f, -2.0f));
    }
}

void test_short_and_half() {
    __half* d_h;
    __half2* d_h2;
    __half h = __float2half(0.0f);
    __half2 h2 = __floats2half2_rn(0.0f, 0.0f);
    CHECK(cudaMalloc(&d_h, sizeof(__half)));
    CHECK(cudaMalloc(&d_h2, sizeof(__half2)));
    CHECK(cudaMemcpy(d_h, &h, sizeof(__half), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_h2, &h2, sizeof(__half2), cudaMemcpyHostToDevice));
    auto s = run(std::vector<unsigned short>{0}, [&](unsigned short* p) {
        short_and_half_atomics<<<kBlocks, kThreads>>>(p, d_h, d_h2);
    });
    CHECK(cudaMemcpy(&h, d_h, sizeof(__half), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&h2, d_h2, sizeof(__half2), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_h));
    CHECK(cudaFree(d_h2));
    expect(s[0] == static_cast<unsigned short>(5 * kN), "unsigned short atomicCAS loop wraps at 2^16");
    expect(__half2float(h) == 1024.0f, "__half atomicAdd");
    expect(__low2float(h2) == 1024.0f && __high2float(h2) == -2048.0f, "__half2 atomicAdd");
}

// ---- shared memory ------------------------------------------------------------------------------

// A histogram in shared memory per block, merged into global memory: the classic use.
__global__ void shared_histogram(const unsigned* in, int n, unsigned* bins, float* weight,
                                 unsigned long long* total) {
    __shared__ unsigned local[16];
    __shared__ float local_weight;
    __shared__ unsigned long long local_total;
    if (threadIdx.x < 16) local[threadIdx.x] = 0;
    if (threadIdx.x == 0) {
        local_weight = 0.0f;
        local_total = 0;
    }
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        atomicAdd(&local[in[i] % 16], 1u);
        atomicAdd_block(&local_weight, 0.5f);
        atomicAdd(&local_total, static_cast<unsigned long long>(in[i]));
    }
    __syncthreads();
    if (threadIdx.x < 16) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
    if (threadIdx.x == 0) {
        atomicAdd(weight, local_weight);
        atomicAdd(total, local_total);
    }
}

void test_shared() {
    const int n = 100000;
    std::vector<unsigned> in(n);
    std::vector<unsigned> expect_bins(16, 0);
    unsigned long long expect_total = 0;
    for (int i = 0; i < n; ++i) {
        in[i] = static_cast<unsigned>(i) * 2654435761u;
        ++expect_bins[in[i] % 16];
        expect_total += in[i];
    }
    unsigned *d_in, *d_bins;
    float* d_weight;
    unsigned long long* d_total;
    float weight = 0.0f;
    unsigned long long total = 0;
    std::vector<unsigned> bins(16, 0);
    CHECK(cudaMalloc(&d_in, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&d_bins, 16 * sizeof(unsigned)));
    CHECK(cudaMalloc(&d_weight, sizeof(float)));
    CHECK(cudaMalloc(&d_total, sizeof(unsigned long long)));
    CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_bins, 0, 16 * sizeof(unsigned)));
    CHECK(cudaMemset(d_weight, 0, sizeof(float)));
    CHECK(cudaMemset(d_total, 0, sizeof(unsigned long long)));
    shared_histogram<<<40, 128>>>(d_in, n, d_bins, d_weight, d_total);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(bins.data(), d_bins, 16 * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&weight, d_weight, sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&total, d_total, sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_bins));
    CHECK(cudaFree(d_weight));
    CHECK(cudaFree(d_total));
    expect(bins == expect_bins, "shared unsigned atomicAdd histogram");
    expect(weight == 0.5f * n, "shared float atomicAdd_block");
    expect(total == expect_total, "shared unsigned long long atomicAdd");
}

int main() {
    test_int();
    test_unsigned();
    test_64_bit();
    test_floating_point();
    test_short_and_half();
    test_shared();
    return report();
}
