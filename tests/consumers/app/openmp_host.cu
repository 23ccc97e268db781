// A program whose host code uses OpenMP, built as public Makefiles build it:
// nvcc -Xcompiler -fopenmp on the compile and the link line.
#include <cstdio>
#include <omp.h>

__global__ void scale(float* x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}

int main() {
    const int n = 256;
    float h[n];
#pragma omp parallel for
    for (int i = 0; i < n; ++i) h[i] = float(i);
    float* d;
    cudaMalloc(&d, n * sizeof(float));
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    scale<<<1, n>>>(d, 2.0f, n);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    cudaFree(d);
    std::printf("openmp: %s, h[255] = %g\n", omp_get_max_threads() > 0 ? "threads" : "none", h[255]);
    return 0;
}
