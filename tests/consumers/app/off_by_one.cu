// A learner's own program from outside the simt tree, plain CUDA: the guard lets one thread too
// many through, so the last thread writes one past the end of d_out (line 7).
#include <cstdio>

__global__ void scale(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) out[i] = 2.0f * in[i];
}

int main() {
    const int n = 100;
    float h[n];
    for (int i = 0; i < n; ++i) h[i] = float(i);
    float *d_in, *d_out;
    cudaMalloc(&d_in, (n + 1) * sizeof(float));
    cudaMalloc(&d_out, n * sizeof(float));
    cudaMemcpy(d_in, h, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(d_in + n, 0, sizeof(float));
    scale<<<1, 128>>>(d_in, d_out, n);
    cudaMemcpy(h, d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d_in);
    cudaFree(d_out);
    std::printf("off_by_one: h[99] = %g\n", h[99]);
    return 0;
}
