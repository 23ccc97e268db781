// Lines that compute on registers alone: counted by SIMT_PROFILE's time model only in a program
// built with -lineinfo (simt-nvcc, ./lab run --profile) or LINEINFO (simt_add_executable), where
// each basic block's runs are counted (docs/profiling.md, "Predicted time"). arithmetic.expect
// holds the counts worked out by hand from arithmetic_ops' rules.
#include <simt/simt.hpp>

#include <cstdio>
#include <vector>

__global__ void polynomial(float* data, int terms) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = data[i], y = 0.0f;
    for (int k = 0; k < terms; ++k) y = y * x + 1.0f;
    data[i] = y;
}

__global__ void spread(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    float s = v * v + 2.0f * v;
    float t = sqrtf(s) / (s + 1.0f);
    out[i] = t - v;
}

// Through a view, whose access names its line by the file name the compiler was given, where a
// block's code names it by the full path: still one line, counted once.
__global__ void scale(simt::span<float> v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    v[i] = v[i] * 0.5f + 1.0f;
}

int main() {
    const int n = 128;
    float *data, *out;
    cudaMallocManaged(&data, n * sizeof(float));
    cudaMallocManaged(&out, n * sizeof(float));
    for (int i = 0; i < n; ++i) data[i] = 0.5f;
    polynomial<<<2, 64>>>(data, 100);  // @polynomial
    cudaDeviceSynchronize();
    spread<<<2, 64>>>(data, out);  // @spread
    cudaDeviceSynchronize();
    auto values = simt::to_device(std::vector<float>(n, 2.0f));
    simt::span<float> view = values;
    scale<<<2, 64>>>(view);  // @scale
    cudaDeviceSynchronize();
    // 1 + x + ... + x^99 at x = 1/2 is 2 - 2^-99: 2 in float.
    std::printf("polynomial %g, spread %.4f\n", data[0], out[0]);
    cudaFree(data);
    cudaFree(out);
    return 0;
}
