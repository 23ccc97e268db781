// A tiled matrix multiply with plain __shared__ tiles, a templated tile size, a launch written
// over several lines, and a CPU check. No #include of the runtime: nvcc brings it along.
#include <cstdio>
#include <vector>

template <int TILE>
__global__ void matmul(const float* A, const float* B, float* C, int n) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE + 1];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float sum = 0.0f;
    for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
        int ac = t * TILE + threadIdx.x, br = t * TILE + threadIdx.y;
        As[threadIdx.y][threadIdx.x] = (row < n && ac < n) ? A[row * n + ac] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = (br < n && col < n) ? B[br * n + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k) sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < n && col < n) C[row * n + col] = sum;
}

int main() {
    const int n = 70;  // not a multiple of the tile: the guards matter
    std::vector<float> a(n * n), b(n * n), c(n * n), ref(n * n);
    for (int i = 0; i < n * n; ++i) {
        a[i] = float(i % 7) - 3.0f;
        b[i] = float(i % 5) * 0.5f;
    }
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            float s = 0;
            for (int k = 0; k < n; ++k) s += a[i * n + k] * b[k * n + j];
            ref[i * n + j] = s;
        }
    float *dA, *dB, *dC;
    size_t bytes = n * n * sizeof(float);
    cudaMalloc(&dA, bytes);
    cudaMalloc(&dB, bytes);
    cudaMalloc(&dC, bytes);
    cudaMemcpy(dA, a.data(), bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(dB, b.data(), bytes, cudaMemcpyHostToDevice);
    constexpr int tile = 16;
    dim3 block(tile, tile), grid((n + tile - 1) / tile, (n + tile - 1) / tile);
    matmul<tile><<<grid, block>>>(dA, dB, dC,
                                  n);
    cudaMemcpy(c.data(), dC, bytes, cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int i = 0; i < n * n; ++i) wrong += c[i] != ref[i];
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    if (cudaGetLastError() != cudaSuccess || wrong) {
        printf("FAIL: %d wrong\n", wrong);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
