// Broken twin of a row-copy kernel: each thread copies one row with memcpy, one element too
// many. Expected: out of bounds at the memcpy in the last row, and a race where each other row
// spills into the first element of the next, which another thread writes.
#include <cstdio>
#include <cstring>

__global__ void copy_rows(const float* in, float* out, int rows, int cols) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) memcpy(out + r * cols, in + r * cols, (cols + 1) * sizeof(float));  // BUG: cols
}

int main() {
    const int rows = 64, cols = 100;
    float *d_in, *d_out;
    cudaMalloc(&d_in, rows * cols * sizeof(float));
    cudaMalloc(&d_out, rows * cols * sizeof(float));
    cudaMemset(d_in, 0, rows * cols * sizeof(float));
    copy_rows<<<2, 32>>>(d_in, d_out, rows, cols);
    cudaDeviceSynchronize();
    cudaFree(d_in);
    cudaFree(d_out);
    printf("done\n");
    return 0;
}
