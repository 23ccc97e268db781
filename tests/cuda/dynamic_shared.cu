// extern __shared__, declared inside a kernel and at namespace scope, sized at the launch:
// each block reverses its slice of the array through dynamic shared memory.
#include <cstdio>
#include <vector>

extern __shared__ int staged[];  // at namespace scope, as some books write it

__global__ void reverse_blocks(const int* in, int* out) {
    extern __shared__ __align__(16) unsigned char smem[];
    int* s = reinterpret_cast<int*>(smem);
    int t = threadIdx.x, base = blockIdx.x * blockDim.x;
    s[t] = in[base + t];
    __syncthreads();
    out[base + t] = s[blockDim.x - 1 - t];
}

__global__ void reverse_blocks_global(const int* in, int* out) {
    int t = threadIdx.x, base = blockIdx.x * blockDim.x;
    staged[t] = in[base + t];
    __syncthreads();
    out[base + t] = staged[blockDim.x - 1 - t];
}

int main() {
    const int block = 128, n = 4 * block;
    std::vector<int> h(n), r(n);
    for (int i = 0; i < n; ++i) h[i] = i * 3 + 1;
    int *in, *out;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&out, n * sizeof(int));
    cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    int wrong = 0;
    for (int version = 0; version < 2; ++version) {
        if (version == 0) reverse_blocks<<<n / block, block, block * sizeof(int)>>>(in, out);
        else reverse_blocks_global<<<n / block, block, block * sizeof(int)>>>(in, out);
        cudaMemcpy(r.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost);
        for (int i = 0; i < n; ++i)
            wrong += r[i] != h[i / block * block + block - 1 - i % block];
    }
    cudaFree(in);
    cudaFree(out);
    if (cudaGetLastError() != cudaSuccess || wrong) {
        printf("FAIL: %d wrong\n", wrong);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
