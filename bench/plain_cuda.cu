// The benchmark's plain-CUDA half: raw pointers, plain __shared__, <<<>>>. bench/CMakeLists.txt
// builds it twice, instrumented (checked raw accesses, the default) and UNCHECKED; simt_bench runs
// both and reports them side by side. Prints one "name value" line per figure (ns per thread).
#include <simt/simt.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

namespace {

double median_ns_per_thread(const std::function<void()>& f, double threads) {
    f();  // warm-up
    std::vector<double> t;
    for (int r = 0; r < 5; ++r) {
        auto a = std::chrono::steady_clock::now();
        f();
        auto b = std::chrono::steady_clock::now();
        t.push_back(std::chrono::duration<double, std::nano>(b - a).count() / threads);
    }
    std::sort(t.begin(), t.end());
    return t[2];
}

}  // namespace

__global__ void vector_add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

constexpr int TILE = 32, ROWS = 8;

__global__ void transpose(const float* in, float* out, int n) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void block_sum(const float* in, float* out) {
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * 256 + t];
    __syncthreads();
    for (unsigned half = 128; half > 0; half /= 2) {
        if (t < half) s[t] += s[t + half];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

int main() {
    const int n = 1 << 22, side = 2048;
    std::vector<float> host(n);
    for (int i = 0; i < n; ++i) host[i] = float(i % 100);
    float *a, *b, *c;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    cudaMalloc(&c, n * sizeof(float));
    auto fill = [&] {
        cudaMemcpy(a, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
        cudaMemcpy(b, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    };
    auto& cfg = simt::sim::config();
    for (const char* checks : {"none", "all"}) {
        simt::sim::apply_setting(cfg, "SIMT_CHECK", checks);
        fill();
        double vadd = median_ns_per_thread([&] {
            vector_add<<<n / 256, 256>>>(a, b, c, n);
            cudaDeviceSynchronize();
        }, n);
        double tr = median_ns_per_thread([&] {
            transpose<<<dim3(side / TILE, side / TILE), dim3(TILE, ROWS)>>>(a, c, side);
            cudaDeviceSynchronize();
        }, double(side) * side / (TILE / ROWS));
        double red = median_ns_per_thread([&] {
            block_sum<<<n / 256, 256>>>(a, c);
            cudaDeviceSynchronize();
        }, n);
        std::printf("vector_add_%s %g\ntranspose_%s %g\ntree_reduction_%s %g\n", checks, vadd, checks,
                    tr, checks, red);
    }
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    if (!simt::sim::findings().empty() || cudaGetLastError() != cudaSuccess) {
        std::printf("FAILED: a finding or an error in a correct benchmark kernel\n");
        return 1;
    }
    return 0;
}
