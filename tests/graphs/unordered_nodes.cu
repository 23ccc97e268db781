// Two kernel nodes that no edge orders both write one array: a graph orders its nodes by its
// edges alone, so they race as kernels on two streams would (the edge is missing on purpose).
#include <cstdio>

__global__ void write_ones(int* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = 1;
}

__global__ void write_twos(int* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = 2;
}

int main() {
    const int n = 256;
    int* d_a;
    cudaMalloc(&d_a, n * sizeof(int));
    cudaGraph_t graph;
    cudaGraphCreate(&graph, 0);
    int size = n;
    void* args[] = {&d_a, &size};
    cudaKernelNodeParams p = {0};
    p.gridDim = dim3(1);
    p.blockDim = dim3(n);
    p.kernelParams = args;
    cudaGraphNode_t first, second;
    p.func = (void*)write_ones;
    cudaGraphAddKernelNode(&first, graph, nullptr, 0, &p);
    p.func = (void*)write_twos;
    cudaGraphAddKernelNode(&second, graph, nullptr, 0, &p);  // BUG: no dependency on `first`
    cudaGraphExec_t exec;
    cudaGraphInstantiate(&exec, graph, 0);
    cudaGraphLaunch(exec, 0);
    cudaDeviceSynchronize();
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaFree(d_a);
    std::printf("done\n");
    return 0;
}
