// Kernels whose blocks share nothing but their inputs, checked: a matrix multiply (every block of
// a row reads one row of A), a 1-D stencil (each block reads its neighbours' edge elements) and
// a per-block sum. Each result is checked against the host; the program prints one line per
// kernel, then OK. tests/determinism/ runs it at several worker counts for the same output.
#include <cstdio>
#include <vector>

__global__ void multiply(const float* a, const float* b, float* c, int n) {
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n && col < n) {
        float sum = 0;
        for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
        c[row * n + col] = sum;
    }
}

__global__ void stencil(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > 0 && i < n - 1) out[i] = in[i - 1] + 2 * in[i] + in[i + 1];
}

__global__ void block_sums(const int* in, int* sums) {
    __shared__ int part[64];
    int t = threadIdx.x;
    part[t] = in[blockIdx.x * 64 + t];
    __syncthreads();
    for (int half = 32; half > 0; half /= 2) {
        if (t < half) part[t] += part[t + half];
        __syncthreads();
    }
    if (t == 0) sums[blockIdx.x] = part[0];
}

int main() {
    const int n = 48, m = 64 * 40;
    std::vector<float> a(n * n), b(n * n), c(n * n);
    for (int i = 0; i < n * n; ++i) a[i] = float(i % 7), b[i] = float(i % 5);
    std::vector<int> in(m), out(m, 0), sums(40);
    for (int i = 0; i < m; ++i) in[i] = i % 11;
    float *da, *db, *dc;
    int *din, *dout, *dsums;
    cudaMalloc(&da, n * n * sizeof(float));
    cudaMalloc(&db, n * n * sizeof(float));
    cudaMalloc(&dc, n * n * sizeof(float));
    cudaMalloc(&din, m * sizeof(int));
    cudaMalloc(&dout, m * sizeof(int));
    cudaMalloc(&dsums, 40 * sizeof(int));
    cudaMemcpy(da, a.data(), n * n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(db, b.data(), n * n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(din, in.data(), m * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(dout, 0, m * sizeof(int));

    multiply<<<dim3(n / 8, n / 8), dim3(8, 8)>>>(da, db, dc, n);
    stencil<<<m / 64, 64>>>(din, dout, m);
    block_sums<<<40, 64>>>(din, dsums);

    cudaMemcpy(c.data(), dc, n * n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(out.data(), dout, m * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(sums.data(), dsums, 40 * sizeof(int), cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int r = 0; r < n; ++r)
        for (int col = 0; col < n; ++col) {
            float want = 0;
            for (int k = 0; k < n; ++k) want += a[r * n + k] * b[k * n + col];
            wrong += c[r * n + col] != want;
        }
    std::printf("multiply %dx%d: %d wrong\n", n, n, wrong);
    wrong = 0;
    for (int i = 1; i < m - 1; ++i) wrong += out[i] != in[i - 1] + 2 * in[i] + in[i + 1];
    std::printf("stencil over %d: %d wrong\n", m, wrong);
    wrong = 0;
    for (int blk = 0; blk < 40; ++blk) {
        int want = 0;
        for (int t = 0; t < 64; ++t) want += in[blk * 64 + t];
        wrong += sums[blk] != want;
    }
    std::printf("block sums of %d blocks: %d wrong\n", 40, wrong);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    cudaFree(din);
    cudaFree(dout);
    cudaFree(dsums);
    if (wrong == 0) std::printf("OK\n");
    return 0;
}
