// The device half of split_host.cpp's program: the kernel and the one function that launches it.
__global__ void scale(float* data, int n, float factor) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] *= factor;
}

void scale_on_device(float* d_data, int n, float factor) {
    scale<<<(n + 127) / 128, 128>>>(d_data, n, factor);
}
