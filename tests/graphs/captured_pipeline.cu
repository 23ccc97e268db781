// A course's CUDA graph exercise: three kernels captured from a stream, instantiated
// once and launched many times; then the same pipeline built node by node, with a child graph.
#include <cstdio>
#include <vector>

#include "../cuda/check_cuda.h"

__global__ void fill(float* x, float v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = v;
}

__global__ void scale(float* x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}

__global__ void add(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += x[i];
}

int main() {
    const int n = 1000, threads = 128, blocks = (n + threads - 1) / threads;
    float *d_x, *d_y;
    CHECK(cudaMalloc(&d_x, n * sizeof(float)));
    CHECK(cudaMalloc(&d_y, n * sizeof(float)));
    CHECK(cudaMemset(d_y, 0, n * sizeof(float)));

    cudaStream_t stream;
    CHECK(cudaStreamCreate(&stream));
    cudaGraph_t graph;
    CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    fill<<<blocks, threads, 0, stream>>>(d_x, 1.0f, n);
    scale<<<blocks, threads, 0, stream>>>(d_x, 2.0f, n);
    add<<<blocks, threads, 0, stream>>>(d_x, d_y, n);
    CHECK(cudaStreamEndCapture(stream, &graph));

    size_t count = 0;
    CHECK(cudaGraphGetNodes(graph, nullptr, &count));
    std::printf("captured nodes: %zu\n", count);

    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    for (int launch = 0; launch < 5; ++launch) CHECK(cudaGraphLaunch(exec, stream));
    CHECK(cudaStreamSynchronize(stream));
    std::vector<float> y(n);
    CHECK(cudaMemcpy(y.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost));
    std::printf("captured: y[0] = %g, y[%d] = %g (expected 10)\n", y[0], n - 1, y[n - 1]);

    // The same work as explicit nodes: a child graph (fill, then scale) before add.
    cudaGraph_t child, parent;
    CHECK(cudaGraphCreate(&child, 0));
    CHECK(cudaGraphCreate(&parent, 0));
    float one = 1.0f, two = 2.0f;
    int size = n;
    void* fill_args[] = {&d_x, &one, &size};
    void* scale_args[] = {&d_x, &two, &size};
    void* add_args[] = {&d_x, &d_y, &size};
    cudaKernelNodeParams p = {0};
    p.gridDim = dim3(blocks);
    p.blockDim = dim3(threads);
    p.sharedMemBytes = 0;
    cudaGraphNode_t fill_node, scale_node, child_node, add_node, memset_node;
    p.func = (void*)fill;
    p.kernelParams = fill_args;
    CHECK(cudaGraphAddKernelNode(&fill_node, child, nullptr, 0, &p));
    p.func = (void*)scale;
    p.kernelParams = scale_args;
    CHECK(cudaGraphAddKernelNode(&scale_node, child, &fill_node, 1, &p));
    cudaMemsetParams m = {0};
    m.dst = d_y;
    m.value = 0;
    m.elementSize = sizeof(float);
    m.width = n;
    m.height = 1;
    CHECK(cudaGraphAddMemsetNode(&memset_node, parent, nullptr, 0, &m));
    CHECK(cudaGraphAddChildGraphNode(&child_node, parent, nullptr, 0, child));
    cudaGraphNode_t before_add[] = {memset_node, child_node};
    p.func = (void*)add;
    p.kernelParams = add_args;
    CHECK(cudaGraphAddKernelNode(&add_node, parent, before_add, 2, &p));
    cudaGraphNodeType type;
    CHECK(cudaGraphNodeGetType(child_node, &type));
    CHECK(cudaGraphGetNodes(parent, nullptr, &count));
    std::printf("explicit nodes: %zu, the child's type: %s\n", count,
                type == cudaGraphNodeTypeGraph ? "graph" : "other");
    cudaGraphExec_t exec2;
    CHECK(cudaGraphInstantiate(&exec2, parent, 0));
    CHECK(cudaGraphLaunch(exec2, stream));
    CHECK(cudaStreamSynchronize(stream));
    CHECK(cudaMemcpy(y.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost));
    std::printf("explicit: y[0] = %g, y[%d] = %g (expected 2)\n", y[0], n - 1, y[n - 1]);

    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphExecDestroy(exec2));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaGraphDestroy(child));
    CHECK(cudaGraphDestroy(parent));
    CHECK(cudaStreamDestroy(stream));
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_y));
    std::printf("PASS\n");
    return 0;
}
