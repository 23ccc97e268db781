// Lesson 05: an add kernel written twice. First with the start and stride computed by hand from
// threadIdx, blockIdx, blockDim and gridDim; then as the one-line loop CUDA code uses everywhere.
// A grid-stride loop lets any grid size cover any array size.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

// Stop at the runtime call that failed, with its line (lesson 01).
#define CHECK(call) check((call), #call, __FILE__, __LINE__)
void check(cudaError_t err, const char* call, const char* file, int line) {
    if (err == cudaSuccess) return;
    std::fprintf(stderr, "%s:%d: %s: %s\n", file, line, call, cudaGetErrorString(err));
    std::exit(EXIT_FAILURE);
}

__global__ void add_manual(const float* x, const float* y, float* out, int n) {
    int tx = threadIdx.x;          // this thread within its block
    int bx = blockIdx.x;           // this block within the grid
    int block_size = blockDim.x;   // threads per block
    int grid_size = gridDim.x;     // blocks in the grid
    int start = tx + bx * block_size;
    int stride = block_size * grid_size;  // every thread of the grid, once
    for (int i = start; i < n; i += stride) out[i] = x[i] + y[i];
}

// Numba's cuda.grid(1) is the start, cuda.gridsize(1) the stride.
__global__ void add_grid_stride(const float* x, const float* y, float* out, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        out[i] = x[i] + y[i];
}

int main() {
    const int n = 100000;
    const size_t bytes = n * sizeof(float);
    std::vector<float> x(n), y(n), expect(n);
    for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i), y[i] = 2.0f * i, expect[i] = 3.0f * i;

    float *d_x, *d_y, *d_out1, *d_out2, *d_out3;
    CHECK(cudaMalloc(&d_x, bytes));
    CHECK(cudaMalloc(&d_y, bytes));
    CHECK(cudaMalloc(&d_out1, bytes));
    CHECK(cudaMalloc(&d_out2, bytes));
    CHECK(cudaMalloc(&d_out3, bytes));
    CHECK(cudaMemcpy(d_x, x.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_y, y.data(), bytes, cudaMemcpyHostToDevice));

    // 30 blocks of 128 threads: 3840 threads for 100000 elements, about 26 elements each.
    const int blocks = 30, threads = 128;
    add_manual<<<blocks, threads>>>(d_x, d_y, d_out1, n);
    CHECK(cudaGetLastError());
    add_grid_stride<<<blocks, threads>>>(d_x, d_y, d_out2, n);
    CHECK(cudaGetLastError());
    add_grid_stride<<<1, 32>>>(d_x, d_y, d_out3, n);  // one block of 32 threads: slow, still right
    CHECK(cudaGetLastError());

    std::vector<float> r1(n), r2(n), r3(n);
    CHECK(cudaMemcpy(r1.data(), d_out1, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(r2.data(), d_out2, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(r3.data(), d_out3, bytes, cudaMemcpyDeviceToHost));
    for (float* d : {d_x, d_y, d_out1, d_out2, d_out3}) CHECK(cudaFree(d));

    std::printf("-- out = x + y over %d elements with %d blocks of %d threads\n", n, blocks,
                threads);
    std::printf("first elements: %.0f %.0f %.0f %.0f ... last: %.0f\n", r2[0], r2[1], r2[2], r2[3],
                r2[n - 1]);
    int bad = 0;
    double checksum = 0;
    for (int i = 0; i < n; ++i) {
        bad += (r1[i] != expect[i]) + (r2[i] != expect[i]) + (r3[i] != expect[i]);
        checksum += r2[i];
    }
    std::printf("manual, grid-stride and one-block results match the CPU: %s\n",
                bad ? "no" : "yes");
    std::printf("checksum %.1f\n", checksum);
    if (bad) {
        std::printf("FAILED: %d results differ from the CPU reference\n", bad);
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
