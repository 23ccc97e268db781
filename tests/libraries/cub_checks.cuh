// The helpers of the CUB tests (cub_block_warp, cub_device, cub_more_block, cub_more_device):
// plain CUDA, so that the same programs build with nvcc for the GPU and with simt for the
// simulator. CHECK around runtime calls, expect() for results, host and device copies.
#pragma once
#include <algorithm>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

// A failed runtime call ends the test: FAILED with the call, its file:line and the error.
#define CHECK(call)                                                             \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            std::printf("FAILED: %s at %s:%d: %s\n", #call, __FILE__, __LINE__, \
                        cudaGetErrorString(err_));                              \
            return 1;                                                           \
        }                                                                       \
    } while (0)

// The checks that failed; main prints FAILED: <count> check(s) and returns 1 when any did.
inline int failures = 0;

inline void expect(bool ok, const char* what) {
    std::printf("%s: %s\n", ok ? "ok" : "FAILED", what);
    if (!ok) ++failures;
}

// The same, naming the number of items the case ran on.
inline void expect(bool ok, const char* what, int n) {
    std::printf("%s: %s (n = %d)\n", ok ? "ok" : "FAILED", what, n);
    if (!ok) ++failures;
}

// got against want item by item: FAILED names the first item that differs, or that got has fewer
// items than want.
template <typename T>
inline void expect_equal(const std::vector<T>& got, const std::vector<T>& want, const char* what) {
    if (got.size() < want.size()) {
        std::printf("FAILED: %s (%zu results, expected %zu)\n", what, got.size(), want.size());
        ++failures;
        return;
    }
    for (size_t i = 0; i < want.size(); ++i) {
        if (got[i] != want[i]) {
            std::printf("FAILED: %s ([%zu] is %.9g, expected %.9g)\n", what, i, double(got[i]),
                        double(want[i]));
            ++failures;
            return;
        }
    }
    std::printf("ok: %s\n", what);
}

// The same, naming the number of items the case ran on.
template <typename T>
inline void expect_equal(const std::vector<T>& got, const std::vector<T>& want, const char* what,
                         int n) {
    char text[200];
    std::snprintf(text, sizeof text, "%s (n = %d)", what, n);
    expect_equal(got, want, text);
}

// A fixed pseudo-random sequence, so that the same numbers run on the GPU and in the simulator.
inline std::vector<int> make_ints(int n, unsigned seed, int lo, int hi) {
    std::vector<int> v(n);
    for (int& x : v) {
        seed = seed * 1664525u + 1013904223u;
        x = lo + int((seed >> 8) % unsigned(hi - lo + 1));
    }
    return v;
}

// Device arrays get at least one element, so that 0 items still has a valid pointer.
template <typename T>
inline cudaError_t to_device(T** d, const std::vector<T>& h) {
    cudaError_t err = cudaMalloc(d, std::max<size_t>(h.size(), 1) * sizeof(T));
    if (err != cudaSuccess) return err;
    return cudaMemcpy(*d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice);
}

template <typename T>
inline cudaError_t to_host(std::vector<T>& h, const T* d) {
    return cudaMemcpy(h.data(), d, h.size() * sizeof(T), cudaMemcpyDeviceToHost);
}

// The two calls every CUB device algorithm takes: with no storage it only sets the number of
// bytes it needs; given that many, it runs.
template <typename Call>
inline cudaError_t with_temp_storage(Call call) {
    size_t bytes = 0;
    cudaError_t err = call(nullptr, bytes);
    if (err != cudaSuccess) return err;
    void* d_temp = nullptr;
    err = cudaMalloc(&d_temp, bytes);
    if (err != cudaSuccess) return err;
    err = call(d_temp, bytes);
    cudaError_t freed = cudaFree(d_temp);
    return err != cudaSuccess ? err : freed;
}
