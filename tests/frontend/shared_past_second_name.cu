// Two shared arrays in one declaration: the second is checked storage of its own, so a read one
// past its end is reported under its name and at its line.
#include <cstdio>

__global__ void rotate_left(const int* in, int* out) {
    __shared__ int staged[32], rotated[32];
    const int t = threadIdx.x;
    staged[t] = in[t];
    __syncthreads();
    rotated[t] = staged[(t + 1) % 32];
    __syncthreads();
    out[t] = rotated[t + 1];  // the last thread reads rotated[32]
}

int main() {
    int host[32];
    for (int i = 0; i < 32; ++i) host[i] = i;
    int* d_in = nullptr;
    int* d_out = nullptr;
    cudaMalloc(&d_in, sizeof(host));
    cudaMalloc(&d_out, sizeof(host));
    cudaMemcpy(d_in, host, sizeof(host), cudaMemcpyHostToDevice);
    rotate_left<<<1, 32>>>(d_in, d_out);
    cudaMemcpy(host, d_out, sizeof(host), cudaMemcpyDeviceToHost);
    printf("out[0] = %d\n", host[0]);
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
