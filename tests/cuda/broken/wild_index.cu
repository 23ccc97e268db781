#include <cstdio>

// Every thread of the grid reads the element after its own, but the array has only 101: the
// threads past its end read the red zone, and those far past it read inside the next array.
__global__ void next_index(const int* nindex, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = nindex[i + 1];  // BUG: nothing keeps i + 1 below 101
}

int main() {
    const int n = 101, threads = 64 * 256;
    int *d_nindex, *d_out;
    cudaMalloc(&d_nindex, n * sizeof(int));
    cudaMalloc(&d_out, threads * sizeof(int));
    cudaMemset(d_nindex, 0, n * sizeof(int));
    cudaMemset(d_out, 0, threads * sizeof(int));
    next_index<<<64, 256>>>(d_nindex, d_out);
    cudaDeviceSynchronize();
    cudaFree(d_nindex);
    cudaFree(d_out);
    std::printf("done\n");
    return 0;
}
