// Broken twin of warp_reduce: a warp sum over the lanes a ballot picked, with the usual offsets
// 16, 8, 4, 2, 1: with 8 lanes in the mask, the first steps read lanes the mask leaves out,
// whose values CUDA leaves undefined (NVIDIA's reduction sample had this bug). Expected: a
// warp-mask finding at the shuffle's line, naming the lane read and the mask.
#include <cstdio>

__global__ void sum_low_lanes(const int* in, int* out) {
    unsigned lane = threadIdx.x % 32;
    unsigned mask = __ballot_sync(0xffffffffu, lane < 8);
    if (lane < 8) {
        int v = in[lane];
        for (int offset = 16; offset > 0; offset /= 2)
            v += __shfl_down_sync(mask, v, offset);  // BUG: offsets 16 and 8 leave the mask
        if (lane == 0) *out = v;
    }
}

int main() {
    int h[32];
    for (int i = 0; i < 32; ++i) h[i] = 1;
    int *d_in, *d_out, sum = 0;
    cudaMalloc(&d_in, sizeof h);
    cudaMalloc(&d_out, sizeof(int));
    cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice);
    sum_low_lanes<<<1, 32>>>(d_in, d_out);
    cudaMemcpy(&sum, d_out, sizeof(int), cudaMemcpyDeviceToHost);
    printf("sum of 8 ones: %d\n", sum);
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
