// The host half of a program split as many are: this .cpp knows only the runtime API and the
// launcher the .cu exports; the kernel and its <<<>>> live in split_kernel.cu.
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

void scale_on_device(float* d_data, int n, float factor);  // split_kernel.cu

int main() {
    const int n = 4096;
    std::vector<float> h(n);
    for (int i = 0; i < n; ++i) h[i] = float(i);
    float* d = nullptr;
    if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess) return 1;
    cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    scale_on_device(d, n, 0.5f);
    if (cudaDeviceSynchronize() != cudaSuccess) return 1;
    cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d);
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += h[i] != 0.5f * float(i);
    std::printf(bad ? "FAILED\n" : "PASS\n");
    return bad ? 1 : 0;
}
