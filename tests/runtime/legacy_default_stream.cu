// A kernel on a stream of one's own, then a kernel on stream 0 that reads what the first wrote:
// the legacy default stream waits for every blocking stream, so this is correct CUDA. The same
// with a cudaStreamNonBlocking stream is a race (run with the argument "nonblocking").
#include <cstdio>
#include <cstring>

__global__ void produce(int* data, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = i;
}

__global__ void consume(const int* data, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2 * data[i];
}

int main(int argc, char** argv) {
    const bool nonblocking = argc > 1 && std::strcmp(argv[1], "nonblocking") == 0;
    const int n = 4096;
    int *d_data, *d_out;
    cudaMalloc(&d_data, n * sizeof(int));
    cudaMalloc(&d_out, n * sizeof(int));
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, nonblocking ? cudaStreamNonBlocking : cudaStreamDefault);
    produce<<<n / 256, 256, 0, s>>>(d_data, n);
    consume<<<n / 256, 256>>>(d_data, d_out, n);
    int last = 0;
    cudaMemcpy(&last, d_out + n - 1, sizeof last, cudaMemcpyDeviceToHost);
    std::printf("out[%d] = %d\n", n - 1, last);
    cudaStreamDestroy(s);
    cudaFree(d_data);
    cudaFree(d_out);
    return 0;
}
