// A project's own CUB bug, found by checks that came with the targets (the installed CUB
// headers included): a BlockReduce's TempStorage reused for a second sum with no __syncthreads()
// between, a data race on its shared memory at both calls.
#include <cub/cub.cuh>
#include <cstdio>

__global__ void sums(const int* in, int* out) {
    typedef cub::BlockReduce<int, 128> BlockReduce;
    __shared__ typename BlockReduce::TempStorage temp;
    int x = in[threadIdx.x];
    int sum = BlockReduce(temp).Sum(x);
    int squares = BlockReduce(temp).Sum(x * x);
    if (threadIdx.x == 0) out[0] = sum, out[1] = squares;
}

int main() {
    int *in, *out;
    cudaMallocManaged(&in, 128 * sizeof(int));
    cudaMallocManaged(&out, 2 * sizeof(int));
    for (int i = 0; i < 128; ++i) in[i] = i % 3;
    sums<<<1, 128>>>(in, out);
    cudaDeviceSynchronize();
    printf("sum %d, squares %d\n", out[0], out[1]);
    cudaFree(in);
    cudaFree(out);
    return 0;
}
