// Broken twin of a two-stream pipeline: the consumer runs on a second stream and reads what the
// producer writes on the first, with no event between them. Expected: a data race between the
// producer's write and the consumer's read, across the two launches.
#include <cstdio>

__global__ void produce(float* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = 2.0f * i;
}

__global__ void consume(const float* a, float* b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) b[i] = a[i] + 1.0f;  // BUG: nothing orders this read after produce's write
}

int main() {
    const int n = 1024;
    float *d_a, *d_b;
    cudaMalloc(&d_a, n * sizeof(float));
    cudaMalloc(&d_b, n * sizeof(float));
    cudaStream_t s1, s2;
    cudaStreamCreate(&s1);
    cudaStreamCreate(&s2);
    produce<<<n / 256, 256, 0, s1>>>(d_a, n);
    // Missing: cudaEventRecord(ready, s1); cudaStreamWaitEvent(s2, ready);
    consume<<<n / 256, 256, 0, s2>>>(d_a, d_b, n);
    cudaDeviceSynchronize();
    float last;
    cudaMemcpy(&last, d_b + n - 1, sizeof(float), cudaMemcpyDeviceToHost);
    printf("last %.1f\n", last);
    cudaStreamDestroy(s1);
    cudaStreamDestroy(s2);
    cudaFree(d_a);
    cudaFree(d_b);
    return 0;
}
