// Broken twin of vector_add: the guard lets one thread too many through (<= instead of <).
// Expected: an out-of-bounds read of 'd_a' at the line of the sum, by thread 1000.
#include <cstdio>
#include <vector>

__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n)  // BUG: i == n is one past the end
        c[i] = a[i] + b[i];
}

int main() {
    const int n = 1000;
    std::vector<float> a(n, 1.0f), b(n, 2.0f), c(n);
    float *d_a, *d_b, *d_c;
    cudaMalloc(&d_a, n * sizeof(float));
    cudaMalloc(&d_b, n * sizeof(float));
    cudaMalloc(&d_c, n * sizeof(float));
    cudaMemcpy(d_a, a.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_b, b.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    add<<<(n + 255) / 256, 256>>>(d_a, d_b, d_c, n);
    cudaMemcpy(c.data(), d_c, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_c);
    printf("c[0] = %g\n", c[0]);
    return 0;
}
