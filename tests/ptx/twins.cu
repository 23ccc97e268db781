// Kernels written with simt's views, each next to its raw-pointer twin. compare_twins.cmake
// compiles this file to PTX and requires every pair to have the same instructions: under nvcc,
// ptr is T*, and span, mdspan and shared add no work to the address arithmetic a CUDA
// programmer writes by hand. The twins index as the simt side does: simt::grid<N>() gives int
// coordinates, and views index with 64-bit arithmetic.
#include <simt/simt.hpp>

#include <cstddef>

// simt::ptr<T> is T*: the same kernel, spelled both ways.
extern "C" __global__ void saxpy_simt(simt::ptr<const float> x, simt::ptr<float> y, float a, int n) {
    int i = simt::grid<1>();
    if (i < n) y[i] = a * x[i] + y[i];
}
extern "C" __global__ void saxpy_raw(const float* x, float* y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

// span: a pointer and a size, read through size().
extern "C" __global__ void scale_simt(simt::span<const float> x, simt::span<float> y) {
    for (std::size_t i = simt::grid<1>(); i < x.size(); i += simt::gridsize<1>()) y[i] = 2.0f * x[i];
}
extern "C" __global__ void scale_raw(const float* x, std::size_t nx, float* y, std::size_t ny) {
    for (std::size_t i = int(blockIdx.x * blockDim.x + threadIdx.x); i < nx; i += int(gridDim.x * blockDim.x))
        y[i] = 2.0f * x[i];
}

// mdspan: row-major indexing with the extents it carries.
extern "C" __global__ void transpose_simt(simt::mdspan<const float, 2> in, simt::mdspan<float, 2> out) {
    auto [x, y] = simt::grid<2>();
    if (y < in.extent(0) && x < in.extent(1)) out(x, y) = in(y, x);
}
extern "C" __global__ void transpose_raw(const float* in, std::size_t rows, std::size_t cols,
                                         float* out, std::size_t out_rows, std::size_t out_cols) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (y < rows && x < cols)
        out[std::ptrdiff_t(x) * std::ptrdiff_t(out_cols) + y] = in[std::ptrdiff_t(y) * std::ptrdiff_t(cols) + x];
}

// mdspan of rank 3: a 7-point stencil's neighbours.
extern "C" __global__ void stencil_simt(simt::mdspan<const float, 3> in, simt::mdspan<float, 3> out) {
    auto [x, y, z] = simt::grid<3>();
    if (z < 1 || y < 1 || x < 1 || z + 1 >= in.extent(0) || y + 1 >= in.extent(1) || x + 1 >= in.extent(2)) return;
    out(z, y, x) = in(z - 1, y, x) + in(z + 1, y, x) + in(z, y - 1, x) + in(z, y + 1, x) +
                   in(z, y, x - 1) + in(z, y, x + 1) - 6.0f * in(z, y, x);
}
extern "C" __global__ void stencil_raw(const float* in, std::size_t n0, std::size_t n1, std::size_t n2,
                                       float* out, std::size_t m0, std::size_t m1, std::size_t m2) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y,
        z = blockIdx.z * blockDim.z + threadIdx.z;
    if (z < 1 || y < 1 || x < 1 || z + 1 >= n0 || y + 1 >= n1 || x + 1 >= n2) return;
    auto at = [](std::ptrdiff_t i, std::ptrdiff_t j, std::ptrdiff_t k, std::size_t e1, std::size_t e2) {
        return (i * std::ptrdiff_t(e1) + j) * std::ptrdiff_t(e2) + k;
    };
    out[at(z, y, x, m1, m2)] = in[at(z - 1, y, x, n1, n2)] + in[at(z + 1, y, x, n1, n2)] +
                               in[at(z, y - 1, x, n1, n2)] + in[at(z, y + 1, x, n1, n2)] +
                               in[at(z, y, x - 1, n1, n2)] + in[at(z, y, x + 1, n1, n2)] -
                               6.0f * in[at(z, y, x, n1, n2)];
}

// shared: the tiled transpose of lesson 09, with simt::shared and with a plain __shared__ array.
extern "C" __global__ void tiled_simt(simt::mdspan<const int, 2> in, simt::mdspan<int, 2> out) {
    __shared__ simt::shared<int[32][33]> tile;
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in(y + j, x);
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) out(y + j, x) = tile[threadIdx.x][threadIdx.y + j];
}
extern "C" __global__ void tiled_raw(const int* in, std::size_t rows, std::size_t cols, int* out,
                                     std::size_t out_rows, std::size_t out_cols) {
    __shared__ int tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[std::ptrdiff_t(y + j) * std::ptrdiff_t(cols) + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) out[std::ptrdiff_t(y + j) * std::ptrdiff_t(out_cols) + x] = tile[threadIdx.x][threadIdx.y + j];
}

// shared with atomics, and dynamic shared memory: a block histogram and a block sum.
extern "C" __global__ void histogram_simt(simt::span<const unsigned char> data, simt::span<unsigned> bins) {
    __shared__ simt::shared<unsigned[256]> local;
    local[threadIdx.x] = 0;
    __syncthreads();
    for (std::size_t i = simt::grid<1>(); i < data.size(); i += simt::gridsize<1>()) atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}
extern "C" __global__ void histogram_raw(const unsigned char* data, std::size_t n, unsigned* bins, std::size_t nbins) {
    __shared__ unsigned local[256];
    local[threadIdx.x] = 0;
    __syncthreads();
    for (std::size_t i = int(blockIdx.x * blockDim.x + threadIdx.x); i < n; i += int(gridDim.x * blockDim.x))
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

extern "C" __global__ void block_sum_simt(simt::span<const float> in, simt::span<float> out) {
    simt::span<float> s = simt::dynamic_shared<float>();
    unsigned t = threadIdx.x;
    s[t] = in[simt::grid<1>()];
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}
extern "C" __global__ void block_sum_raw(const float* in, std::size_t n, float* out, std::size_t m) {
    extern __shared__ float s[];
    unsigned t = threadIdx.x;
    s[t] = in[int(blockIdx.x * blockDim.x + threadIdx.x)];
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}
