// Device 1 reads what a kernel on device 0 writes, with no synchronisation between them: the
// devices run at once, so this is a race (the missing cudaDeviceSynchronize is the bug).
#include <cstdio>

__global__ void produce(int* data, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = i;
}

__global__ void consume(const int* data, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2 * data[i];
}

int main() {
    const int n = 256;
    int *d_data, *d_out;
    cudaSetDevice(0);
    cudaMalloc(&d_data, n * sizeof(int));
    cudaSetDevice(1);
    cudaMalloc(&d_out, n * sizeof(int));
    cudaSetDevice(0);
    produce<<<1, n>>>(d_data, n);
    cudaSetDevice(1);
    cudaDeviceEnablePeerAccess(0, 0);
    consume<<<1, n>>>(d_data, d_out, n);  // BUG: device 0's kernel may still be running
    cudaDeviceSynchronize();
    cudaSetDevice(0);
    cudaDeviceSynchronize();
    std::printf("done\n");
    cudaFree(d_data);
    cudaFree(d_out);
    return 0;
}
