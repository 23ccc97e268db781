// Broken twin of memory_3d: a kernel over a cudaMallocPitch image guards its column with the
// pitch instead of the width, so the threads past column 99 write into each row's padding. On a
// GPU nothing complains (the padding is allocated); expected: an out-of-bounds write at the
// store's line, naming the row, the byte within it, the width and the pitch.
#include <cstdio>

__global__ void fill(float* img, size_t pitch, int height) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    float* row = (float*)((char*)img + y * pitch);
    if (x < pitch / sizeof(float) && y < height)  // BUG: the width, 100, is the bound
        row[x] = 1.0f;
}

int main() {
    const int width = 100, height = 8;
    float* d_img;
    size_t pitch;
    cudaMallocPitch(&d_img, &pitch, width * sizeof(float), height);
    fill<<<dim3(1, height), 128>>>(d_img, pitch, height);
    printf("after the launch: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(d_img);
    return 0;
}
