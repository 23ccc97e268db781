// A course's older style: cudaMalloc((void**)&d_x, bytes). The report counts the array in floats,
// as the program does, not in bytes.
#include <cstdio>

__global__ void scale(float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) x[i] *= 2.0f;  // BUG: i == n is one past the end
}

int main() {
    const int n = 1000;
    float* d_x;
    cudaMalloc((void**)&d_x, n * sizeof(float));
    cudaMemset(d_x, 0, n * sizeof(float));
    scale<<<(n + 255) / 256, 256>>>(d_x, n);
    cudaDeviceSynchronize();
    cudaFree(d_x);
    std::printf("done\n");
    return 0;
}
