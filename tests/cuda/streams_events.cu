// Two streams, each with its own copy of the work, and events timing one of them.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale(float* x, float factor, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        x[i] *= factor;
}

int main() {
    const int n = 1 << 16;
    float* host;
    cudaMallocHost(&host, 2 * n * sizeof(float));
    for (int i = 0; i < 2 * n; ++i) host[i] = 1.0f;
    float* dev;
    cudaMalloc(&dev, 2 * n * sizeof(float));
    cudaStream_t s[2];
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    for (int k = 0; k < 2; ++k) cudaStreamCreate(&s[k]);
    cudaEventRecord(start, s[0]);
    for (int k = 0; k < 2; ++k) {
        cudaMemcpyAsync(dev + k * n, host + k * n, n * sizeof(float), cudaMemcpyHostToDevice, s[k]);
        scale<<<32, 128, 0, s[k]>>>(dev + k * n, k + 2.0f, n);
        cudaMemcpyAsync(host + k * n, dev + k * n, n * sizeof(float), cudaMemcpyDeviceToHost, s[k]);
    }
    cudaEventRecord(stop, s[0]);
    cudaEventSynchronize(stop);
    float ms = -1;
    cudaError_t timing = cudaEventElapsedTime(&ms, start, stop);
    for (int k = 0; k < 2; ++k) cudaStreamSynchronize(s[k]);
    // An event recorded on the legacy default stream (0) comes after all work already queued on
    // the blocking streams: once it has happened, both streams are idle.
    for (int k = 0; k < 2; ++k) scale<<<32, 128, 0, s[k]>>>(dev + k * n, 1.0f, n);
    cudaEvent_t after_all;
    cudaEventCreate(&after_all);
    cudaEventRecord(after_all, 0);
    cudaEventSynchronize(after_all);
    cudaError_t idle[2] = {cudaStreamQuery(s[0]), cudaStreamQuery(s[1])};
    cudaEventDestroy(after_all);
    int wrong = 0;
    for (int i = 0; i < 2 * n; ++i) wrong += host[i] != (i < n ? 2.0f : 3.0f);
    for (int k = 0; k < 2; ++k) cudaStreamDestroy(s[k]);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(dev);
    cudaFreeHost(host);
    if (wrong || timing != cudaSuccess || ms < 0 || idle[0] != cudaSuccess ||
        idle[1] != cudaSuccess) {
        printf("FAIL: %d wrong, %s, %f ms, streams after the default stream's event: %s, %s\n",
               wrong, cudaGetErrorName(timing), ms, cudaGetErrorName(idle[0]),
               cudaGetErrorName(idle[1]));
        return 1;
    }
    printf("PASS\n");
    return 0;
}
