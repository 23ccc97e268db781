// A 1-D convolution with its weights in __constant__ memory, as courses teach it: every thread
// of a warp reads the same weight at once, which constant memory broadcasts. The weights are set
// with cudaMemcpyToSymbol; a __device__ counter and a __constant__ scale with an initialiser
// show the other ways a program meets device variables.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "check_cuda.h"

#define RADIUS 3
#define WIDTH (2 * RADIUS + 1)

__constant__ float c_weights[WIDTH];
__constant__ float c_scale = 0.5f;
__device__ unsigned int d_edge_threads;  // zero until a kernel counts: device variables start at 0

__global__ void convolve(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float sum = 0.0f;
    bool edge = false;
    for (int k = -RADIUS; k <= RADIUS; ++k) {
        int j = i + k;
        if (j < 0 || j >= n) {
            edge = true;  // the signal is zero outside the array
            continue;
        }
        sum += c_weights[k + RADIUS] * in[j];
    }
    out[i] = c_scale * sum;
    if (edge) atomicAdd(&d_edge_threads, 1u);
}

int main() {
    const int n = 10000;
    std::vector<float> h_in(n), h_out(n);
    for (int i = 0; i < n; ++i) h_in[i] = std::sin(i * 0.01f);
    const float h_weights[WIDTH] = {0.05f, 0.1f, 0.2f, 0.3f, 0.2f, 0.1f, 0.05f};
    CHECK(cudaMemcpyToSymbol(c_weights, h_weights, sizeof(h_weights)));

    float *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    convolve<<<(n + 255) / 256, 256>>>(d_in, d_out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h_out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));

    unsigned edge_threads = 0;
    CHECK(cudaMemcpyFromSymbol(&edge_threads, d_edge_threads, sizeof(edge_threads)));
    // The weights read back through the symbol's device address, as a plain device pointer.
    float* d_weights = nullptr;
    size_t weights_bytes = 0;
    CHECK(cudaGetSymbolAddress((void**)&d_weights, c_weights));
    CHECK(cudaGetSymbolSize(&weights_bytes, c_weights));
    float back[WIDTH];
    CHECK(cudaMemcpy(back, d_weights, weights_bytes, cudaMemcpyDeviceToHost));

    int bad = 0;
    for (int i = 0; i < n; ++i) {
        float sum = 0.0f;
        for (int k = -RADIUS; k <= RADIUS; ++k)
            if (i + k >= 0 && i + k < n) sum += h_weights[k + RADIUS] * h_in[i + k];
        if (std::fabs(0.5f * sum - h_out[i]) > 1e-5f) ++bad;
    }
    for (int k = 0; k < WIDTH; ++k) bad += back[k] != h_weights[k];
    if (weights_bytes != sizeof(h_weights)) ++bad;
    if (edge_threads != 2 * RADIUS) {
        std::printf("%u threads saw an edge, expected %d\n", edge_threads, 2 * RADIUS);
        ++bad;
    }
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    if (bad) {
        std::printf("FAILED: %d mismatches\n", bad);
        return 1;
    }
    std::printf("Test PASSED\n");
    return 0;
}
