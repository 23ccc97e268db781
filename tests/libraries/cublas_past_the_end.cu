// Broken: the vectors hold 1000 floats, but the call says 1024. On a GPU the kernel reads and
// writes past the allocations (often silently); the simulator reports the first bad access.
#include <cstdio>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>

int main() {
    const int n = 1000;
    std::vector<float> h_x(n, 1.0f), h_y(n, 2.0f);
    float *d_x, *d_y;
    cudaMalloc(&d_x, n * sizeof(float));
    cudaMalloc(&d_y, n * sizeof(float));
    cudaMemcpy(d_x, h_x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_y, h_y.data(), n * sizeof(float), cudaMemcpyHostToDevice);

    cublasHandle_t handle;
    cublasCreate(&handle);
    const float alpha = 3.0f;
    cublasSaxpy(handle, 1024, &alpha, d_x, 1, d_y, 1);  // BUG: n is 1000
    cudaMemcpy(h_y.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost);
    std::printf("y[0] = %.1f\n", h_y[0]);

    cublasDestroy(handle);
    cudaFree(d_x);
    cudaFree(d_y);
    return 0;
}
