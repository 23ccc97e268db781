// A GPU-sized launch: the textbook matrix multiply, one thread per element of C, at 1024 x 1024
// (4096 blocks). A GPU runs it in about a millisecond; checked here it runs for minutes, so in
// its first seconds it says how long it takes here, with SIMT_CHECK=none and on the GPU
// (tests/CMakeLists.txt reads that line). The argument sets n: at 64 the launch is over before
// anything is said.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void matmul(const float* a, const float* b, float* c, int n) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n && col < n) {
        float sum = 0;
        for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
        c[row * n + col] = sum;
    }
}

int main(int argc, char** argv) {
    const int n = argc > 1 ? std::atoi(argv[1]) : 1024;
    const size_t bytes = size_t(n) * n * sizeof(float);
    // Small integers: every sum is exact in float, so C can be compared with ==.
    std::vector<float> a(size_t(n) * n), b(size_t(n) * n), c(size_t(n) * n);
    for (size_t i = 0; i < a.size(); ++i) {
        a[i] = float(i % 7);
        b[i] = float(i % 5);
    }
    float *da, *db, *dc;
    cudaMalloc(&da, bytes);
    cudaMalloc(&db, bytes);
    cudaMalloc(&dc, bytes);
    cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice);

    dim3 block(16, 16);
    dim3 grid((n + block.x - 1) / block.x, (n + block.y - 1) / block.y);
    matmul<<<grid, block>>>(da, db, dc, n);
    cudaMemcpy(c.data(), dc, bytes, cudaMemcpyDeviceToHost);

    int wrong = 0;
    for (int row : {0, n / 2, n - 1})
        for (int col : {0, n / 3, n - 1}) {
            float sum = 0;
            for (int k = 0; k < n; ++k) sum += a[size_t(row) * n + k] * b[size_t(k) * n + col];
            wrong += c[size_t(row) * n + col] != sum;
        }
    std::printf("%dx%d: %s\n", n, n, wrong ? "wrong" : "ok");
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    return wrong != 0;
}
