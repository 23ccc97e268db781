// Broken twin of vector_add: b is allocated on the device but never copied in.
// Expected: an uninitialised read of 'd_b' at the line of the sum.
#include <cstdio>
#include <vector>

__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

int main() {
    const int n = 256;
    std::vector<float> a(n, 1.0f), c(n);
    float *d_a, *d_b, *d_c;
    cudaMalloc(&d_a, n * sizeof(float));
    cudaMalloc(&d_b, n * sizeof(float));
    cudaMalloc(&d_c, n * sizeof(float));
    cudaMemcpy(d_a, a.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    // BUG: no cudaMemcpy into d_b
    add<<<1, 256>>>(d_a, d_b, d_c, n);
    cudaMemcpy(c.data(), d_c, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_c);
    return 0;
}
