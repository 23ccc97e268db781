// Broken twin of tiled_matmul: the barrier at the end of the loop body is missing, so a fast
// thread overwrites a tile that slower threads still read. Expected: a data race on 'As' between
// the tile load and the inner product, carried into the next iteration.
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
        // BUG: no __syncthreads() here
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
    printf("%d wrong\n", wrong);  // the simulator runs threads in order: often right anyway
    return 0;
}
