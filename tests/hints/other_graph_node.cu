// A graph of two kernels: the first fills an array with its indices, the second doubles it.
// the fix: the first node given as the second's dependency.
#include <cstdio>

__global__ void fill(int* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = i;
}

__global__ void twice(int* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] *= 2;
}

int main() {
    int n = 256, h_a[256];
    int* d_a;
    cudaMalloc(&d_a, n * sizeof(int));
    void* args[] = {&d_a, &n};
    cudaKernelNodeParams params = {};
    params.gridDim = dim3(1);
    params.blockDim = dim3(n);
    params.kernelParams = args;
    cudaGraph_t graph;
    cudaGraphCreate(&graph, 0);
    cudaGraphNode_t fill_node, twice_node;
    params.func = (void*)fill;
    cudaGraphAddKernelNode(&fill_node, graph, nullptr, 0, &params);
    params.func = (void*)twice;
    cudaGraphAddKernelNode(&twice_node, graph, nullptr, 0, &params);
    cudaGraphExec_t exec;
    cudaGraphInstantiate(&exec, graph, 0);
    cudaGraphLaunch(exec, 0);
    cudaDeviceSynchronize();
    cudaMemcpy(h_a, d_a, sizeof h_a, cudaMemcpyDeviceToHost);
    int right = 0;
    for (int i = 0; i < n; i++) right += h_a[i] == 2 * i;
    printf("right %d (expected %d)\n", right, n);
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaFree(d_a);
    return 0;
}
