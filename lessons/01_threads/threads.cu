// Lesson 01: the thread hierarchy. Every thread finds its element from threadIdx, blockIdx and
// blockDim, guards against running past the end, and does one element's work. With the argument
// `swapped` it also launches with the two numbers swapped, <<<threads, blocks>>>, and shows what
// that does.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

// Every runtime call returns an error code. Checking each one stops the program at the call
// that failed, with its line, instead of at some later call that only inherits the failure.
// (NVIDIA's samples spell this checkCudaErrors, in helper_cuda.h.)
#define CHECK(call) check((call), #call, __FILE__, __LINE__)
void check(cudaError_t err, const char* call, const char* file, int line) {
    if (err == cudaSuccess) return;
    std::fprintf(stderr, "%s:%d: %s: %s\n", file, line, call, cudaGetErrorString(err));
    std::exit(EXIT_FAILURE);
}

// Each thread prints where it sits in the hierarchy (a tiny grid, so the output stays short).
__global__ void whoami() {
    int global = blockIdx.x * blockDim.x + threadIdx.x;
    printf("block %u of %u, thread %u of %u -> global index %d\n", blockIdx.x, gridDim.x,
           threadIdx.x, blockDim.x, global);
}

// One thread per element. The grid is rounded up to whole blocks, so the last block may have
// threads past the end: they must do nothing.
__global__ void increment(double* io, int n) {
    int pos = blockIdx.x * blockDim.x + threadIdx.x;
    if (pos < n) io[pos] += 1;
}

// The same position, one piece at a time.
__global__ void doubled(double* io, int n) {
    int tx = threadIdx.x;   // thread within the block
    int bx = blockIdx.x;    // block within the grid
    int bw = blockDim.x;    // threads per block
    int pos = tx + bx * bw;
    if (pos < n) io[pos] *= 2;
}

// A 2-D grid over a matrix stored row after row: x runs along columns, y along rows, so that
// neighbouring threads of a block touch neighbouring elements of a row.
__global__ void double_2d(double* m, int rows, int cols) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols) m[row * cols + col] *= 2;
}

// The common slip: increment<<<threads, blocks>>> for <<<blocks, threads>>>. The grid has the
// same number of threads either way, so with the bounds check every element is still done, as
// long as the launch is accepted: `blocks` becomes the block size, and above 1024 the launch is
// refused. The error is printed rather than stopping the program, to show it.
void swapped_launch(int n) {
    const int threads = 256, blocks = (n + threads - 1) / threads;
    std::vector<double> v(n, 1.0);
    double* d;
    CHECK(cudaMalloc(&d, n * sizeof(double)));
    CHECK(cudaMemcpy(d, v.data(), n * sizeof(double), cudaMemcpyHostToDevice));
    increment<<<threads, blocks>>>(d, n);  // swapped: 256 blocks of `blocks` threads
    cudaError_t err = cudaGetLastError();
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(v.data(), d, n * sizeof(double), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d));
    int done = 0;
    for (double x : v) done += x == 2.0;
    std::printf("n = %d: <<<%d, %d>>> swapped to <<<%d, %d>>>: %s; %d of %d elements incremented\n",
                n, blocks, threads, threads, blocks,
                err == cudaSuccess ? "accepted" : cudaGetErrorName(err), done, n);
}

int main(int argc, char** argv) {
    std::printf("-- who am I: 2 blocks of 4 threads\n");
    whoami<<<2, 4>>>();
    CHECK(cudaGetLastError());       // a launch returns nothing: a bad configuration shows here
    CHECK(cudaDeviceSynchronize());  // the launch only queued the kernel; wait for its printf

    // 1000 elements with 256 threads per block need ceil(1000 / 256) = 4 blocks; the last block
    // has 24 threads with nothing to do, which is why the kernels test pos < n.
    const int n = 1000, threads = 256, blocks = (n + threads - 1) / threads;
    std::vector<double> v(n, 1.0);
    double* d_data;
    CHECK(cudaMalloc(&d_data, n * sizeof(double)));
    CHECK(cudaMemcpy(d_data, v.data(), n * sizeof(double), cudaMemcpyHostToDevice));
    increment<<<blocks, threads>>>(d_data, n);  // 1 -> 2
    CHECK(cudaGetLastError());
    doubled<<<blocks, threads>>>(d_data, n);    // 2 -> 4, after increment: same stream, in order
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(v.data(), d_data, n * sizeof(double), cudaMemcpyDeviceToHost));

    const int rows = 300, cols = 200;
    std::vector<double> m(rows * cols, 1.0);
    double* d_mat;
    CHECK(cudaMalloc(&d_mat, rows * cols * sizeof(double)));
    CHECK(cudaMemcpy(d_mat, m.data(), rows * cols * sizeof(double), cudaMemcpyHostToDevice));
    dim3 block2(16, 16);
    dim3 grid2((cols + block2.x - 1) / block2.x, (rows + block2.y - 1) / block2.y);
    double_2d<<<grid2, block2>>>(d_mat, rows, cols);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(m.data(), d_mat, rows * cols * sizeof(double), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_data));
    CHECK(cudaFree(d_mat));

    int bad_1d = 0, bad_2d = 0;  // counted apart, so that each line reports its own kernels
    double checksum = 0;
    for (double x : v) bad_1d += x != 4.0, checksum += x;
    for (double x : m) bad_2d += x != 2.0, checksum += x;
    int bad = bad_1d + bad_2d;
    std::printf("-- increment then double over %d elements in %d blocks of %d: all 4.0? %s\n", n,
                blocks, threads, bad_1d ? "no" : "yes");
    std::printf("-- double_2d over a %dx%d matrix in a %ux%u grid of %ux%u blocks: all 2.0? %s\n",
                rows, cols, grid2.x, grid2.y, block2.x, block2.y, bad_2d ? "no" : "yes");
    if (argc > 1 && std::strcmp(argv[1], "swapped") == 0) {
        std::printf("-- the launch's two numbers swapped: <<<threads, blocks>>>\n");
        swapped_launch(1000);     // 256 blocks of 4 threads: right, with 4 lanes of each warp busy
        swapped_launch(1000000);  // a block of 3907 threads: refused, nothing runs
    }
    std::printf("checksum %.6f\n", checksum);
    if (bad) {
        std::printf("FAILED: %d elements differ from the CPU reference\n", bad);
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
