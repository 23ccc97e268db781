// Broken: a kernel on one stream fills y while cuBLAS, on another, adds x to it. Nothing orders
// the two. Run with "fixed" it does what the fix says: an event recorded after fill, waited for
// by the cuBLAS stream.
#include <cstdio>

#include <cublas_v2.h>
#include <cuda_runtime.h>

__global__ void fill(float* y, float value, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = value;
}

int main(int argc, char** argv) {
    bool fixed = argc > 1 && argv[1][0] == 'f';
    const int n = 4096;
    float *d_x, *d_y;
    cudaMalloc(&d_x, n * sizeof(float));
    cudaMalloc(&d_y, n * sizeof(float));
    cudaMemset(d_x, 0, n * sizeof(float));
    cudaMemset(d_y, 0, n * sizeof(float));
    cudaDeviceSynchronize();

    cudaStream_t producer, blas_stream;
    cudaStreamCreate(&producer);
    cudaStreamCreate(&blas_stream);
    cublasHandle_t handle;
    cublasCreate(&handle);
    cublasSetStream(handle, blas_stream);

    fill<<<n / 256, 256, 0, producer>>>(d_y, 1.0f, n);
    cudaEvent_t filled;
    cudaEventCreate(&filled);
    if (fixed) {
        cudaEventRecord(filled, producer);
        cudaStreamWaitEvent(blas_stream, filled, 0);
    }
    const float alpha = 2.0f;
    cublasSaxpy(handle, n, &alpha, d_x, 1, d_y, 1);  // BUG unless fixed: fill may still write d_y
    cudaDeviceSynchronize();

    float last;
    cudaMemcpy(&last, d_y + n - 1, sizeof(float), cudaMemcpyDeviceToHost);
    std::printf("y[n-1] = %.1f\n", last);
    cublasDestroy(handle);
    cudaEventDestroy(filled);
    cudaStreamDestroy(producer);
    cudaStreamDestroy(blas_stream);
    cudaFree(d_x);
    cudaFree(d_y);
    return 0;
}
