// Broken: the host reads managed memory right after the launch that doubles it, before any
// cudaDeviceSynchronize(). On a GPU the read may see the value from before the kernel (or fault
// where the GPU lacks concurrent managed access). Expected: a data race between the host's read
// and the kernel the array was given, at the read's line and the launch's.
#include <cstdio>
__global__ void twice(float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2;
}
int main() {
    const int n = 1000;
    float* data;
    cudaMallocManaged(&data, n * sizeof(float));
    for (int i = 0; i < n; ++i) data[i] = i;
    twice<<<4, 256>>>(data, n);
    float first = data[1];  // BUG: no cudaDeviceSynchronize() before
    cudaDeviceSynchronize();
    float again = data[1];
    printf("%f %f\n", first, again);
    cudaFree(data);
}
