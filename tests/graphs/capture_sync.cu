// Waiting for a stream while it is being captured: a capture records work and runs none of it,
// so CUDA refuses the wait (cudaErrorStreamCaptureUnsupported) and the capture becomes invalid:
// cudaStreamIsCapturing says so, and cudaStreamEndCapture returns
// cudaErrorStreamCaptureInvalidated with no graph. A capture after that works as usual.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void add_one(int* x) { x[threadIdx.x] += 1; }

int main() {
    int* d_x;
    cudaMalloc(&d_x, 32 * sizeof(int));
    cudaMemset(d_x, 0, 32 * sizeof(int));
    cudaStream_t s;
    cudaStreamCreate(&s);

    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    add_one<<<1, 32, 0, s>>>(d_x);
    printf("synchronize while capturing: %s\n", cudaGetErrorName(cudaStreamSynchronize(s)));
    cudaStreamCaptureStatus status;
    cudaStreamIsCapturing(s, &status);
    printf("invalidated: %s\n", status == cudaStreamCaptureStatusInvalidated ? "yes" : "no");
    cudaGraph_t graph = nullptr;
    printf("end capture: %s, graph %s\n", cudaGetErrorName(cudaStreamEndCapture(s, &graph)),
           graph ? "made" : "null");
    cudaGetLastError();

    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    add_one<<<1, 32, 0, s>>>(d_x);
    cudaError_t e = cudaStreamEndCapture(s, &graph);
    cudaGraphExec_t exec;
    cudaGraphInstantiate(&exec, graph, 0);
    cudaGraphLaunch(exec, s);
    cudaStreamSynchronize(s);
    int h = 0;
    cudaMemcpy(&h, d_x, sizeof(int), cudaMemcpyDeviceToHost);
    printf("a new capture: %s, x[0] = %d (expected 1)\n", cudaGetErrorName(e), h);
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaStreamDestroy(s);
    cudaFree(d_x);
    return 0;
}
