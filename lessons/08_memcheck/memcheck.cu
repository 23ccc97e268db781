// Lesson 08: an out-of-bounds write in a histogram, how the simulator reports it, and the fix.
// Values in [0, 1] go into `nbins` equal bins. The value 1.0 is a legal input, and it is the bug:
// int(1.0 * nbins) is nbins, one past the last bin.
// Part 2: the same bug in two histograms that share one allocation. A raw pointer runs from row 0
// into row 1 unreported; simt's views (simt::span, simt::mdspan) know each row's extent.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>
#include <simt/simt.hpp>  // part 2 only: simt's views and DeviceArray

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t err_ = (call);                                                       \
        if (err_ != cudaSuccess) {                                                       \
            std::fprintf(stderr, "%s:%d: %s (%s)\n", __FILE__, __LINE__,                 \
                         cudaGetErrorString(err_), cudaGetErrorName(err_));              \
            std::exit(EXIT_FAILURE);                                                     \
        }                                                                                \
    } while (0)

// Part 1: raw pointers, as most CUDA code is written.

__global__ void histogram_buggy(const float* x, int n, int* bins, int nbins) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int bin = static_cast<int>(x[i] * nbins);
        atomicAdd(&bins[bin], 1);  // the bug: bin == nbins when x[i] == 1.0
    }
}

__global__ void histogram_fixed(const float* x, int n, int* bins, int nbins) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int bin = static_cast<int>(x[i] * nbins);
        atomicAdd(&bins[bin < nbins - 1 ? bin : nbins - 1], 1);  // 1.0 belongs to the last bin
    }
}

// Part 2: two rows of values, two histograms, one allocation of 2 x nbins counters.

// Row 0's bin nbins is row 1's bin 0: inside the allocation, so nothing can tell it is wrong.
__global__ void histograms_raw(const float* x, int n, int* bins, int nbins) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        for (int row = 0; row < 2; ++row) {
            int bin = static_cast<int>(x[row * n + i] * nbins);
            atomicAdd(&bins[row * nbins + bin], 1);  // row 0's bin 16 lands in row 1
        }
}

// The same kernel over views: each index is checked against its own extent, so (0, 16) is
// caught although the element it would reach exists.
__global__ void histograms_view(simt::mdspan<const float, 2> x, simt::mdspan<int, 2> bins) {
    const int n = static_cast<int>(x.extent(1)), nbins = static_cast<int>(bins.extent(1));
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        for (int row = 0; row < 2; ++row) {
            int bin = static_cast<int>(x(row, i) * nbins);
            atomicAdd(&bins(row, bin), 1);  // the view catches bin == bins.extent(1)
        }
}

// Counts x (n values on the device) into nbins zeroed bins with `kernel`.
std::vector<int> histogram(void (*kernel)(const float*, int, int*, int), const float* d_x, int n,
                           int nbins) {
    int* d_bins;
    CHECK(cudaMalloc(&d_bins, nbins * sizeof(int)));
    CHECK(cudaMemset(d_bins, 0, nbins * sizeof(int)));
    kernel<<<8, 128>>>(d_x, n, d_bins, nbins);
    CHECK(cudaGetLastError());
    std::vector<int> bins(nbins);
    CHECK(cudaMemcpy(bins.data(), d_bins, nbins * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_bins));
    return bins;
}

int main() {
    const int n = 100000, nbins = 16;
    std::vector<float> x(n);
    for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i % 1001) / 1000.0f;  // 0.000 .. 1.000

    // The CPU reference, with the edge handled.
    std::vector<int> expect(nbins, 0);
    for (float v : x) {
        int bin = static_cast<int>(v * nbins);
        ++expect[bin < nbins - 1 ? bin : nbins - 1];
    }

    float* d_x;
    CHECK(cudaMalloc(&d_x, n * sizeof(float)));
    CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));

    std::printf("-- the buggy histogram (watch for the out-of-bounds report)\n");
    std::vector<int> b = histogram(histogram_buggy, d_x, n, nbins);
    int missing = 0;
    for (int k = 0; k < nbins; ++k) missing += expect[k] - b[k];
    std::printf("buggy: %d value(s) of 1.0 went past the last bin and were not counted\n", missing);

    std::printf("-- the fixed histogram\n");
    std::vector<int> f = histogram(histogram_fixed, d_x, n, nbins);
    long checksum = 0;
    for (int k = 0; k < nbins; ++k) {
        std::printf("bin %2d [%.4f, %.4f%c: %d\n", k, k / double(nbins), (k + 1) / double(nbins),
                    k == nbins - 1 ? ']' : ')', f[k]);
        checksum += static_cast<long>(k + 1) * f[k];
    }
    CHECK(cudaFree(d_x));

    // Part 2. Row 0 is x again; row 1 holds values below 1 only, so its own bins stay in range.
    std::vector<float> rows(2 * n);
    for (int i = 0; i < n; ++i) rows[i] = x[i], rows[n + i] = (i % 1000) / 1000.0f;
    int row1_bin0 = 0;  // what row 1's bin 0 should hold
    for (int i = 0; i < n; ++i) row1_bin0 += static_cast<int>(rows[n + i] * nbins) == 0;
    std::vector<int> zeros(2 * nbins, 0);

    std::printf("-- two histograms in one allocation, the same bug\n");
    float* d_rows;
    int* d_two;
    CHECK(cudaMalloc(&d_rows, 2 * n * sizeof(float)));
    CHECK(cudaMalloc(&d_two, 2 * nbins * sizeof(int)));
    CHECK(cudaMemcpy(d_rows, rows.data(), 2 * n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_two, 0, 2 * nbins * sizeof(int)));
    histograms_raw<<<8, 128>>>(d_rows, n, d_two, nbins);
    CHECK(cudaGetLastError());
    std::vector<int> raw(2 * nbins);
    CHECK(cudaMemcpy(raw.data(), d_two, 2 * nbins * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_rows));
    CHECK(cudaFree(d_two));
    std::printf("int*:   row 1's bin 0 holds %d, %d more than its own values\n", raw[nbins],
                raw[nbins] - row1_bin0);

    // simt::DeviceArray owns device memory and knows its shape; it converts to the views.
    simt::DeviceArray<float> rows_dev = simt::to_device(rows, {2, std::size_t(n)});
    simt::DeviceArray<int> two_dev = simt::to_device(zeros, {2, std::size_t(nbins)});
    simt::mdspan<const float, 2> rows_view = rows_dev;
    simt::mdspan<int, 2> two_view = two_dev;
    histograms_view<<<8, 128>>>(rows_view, two_view);
    CHECK(cudaGetLastError());
    std::vector<int> viewed = two_dev.copy_to_host();  // freed with two_dev at the end of main
    std::printf("mdspan: row 1's bin 0 holds %d, %d more than its own values\n", viewed[nbins],
                viewed[nbins] - row1_bin0);

    // Part 2's results, checked: the raw kernel puts row 0's values of 1.0 into row 1's bin 0;
    // the checked view does not perform that add. (A GPU build's views are plain pointers, and
    // there the add lands in row 1 as with int*, unless built with SIMT_CUDA_BOUNDS_CHECK.)
#if defined(__CUDACC__)
    const int view_extra = missing;
#else
    const int view_extra = 0;
#endif
    std::vector<int> row0_raw(raw.begin(), raw.begin() + nbins);
    std::vector<int> row0_view(viewed.begin(), viewed.begin() + nbins);
    bool part2 = row0_raw == b && row0_view == b && raw[nbins] == row1_bin0 + missing &&
                 viewed[nbins] == row1_bin0 + view_extra;
    std::printf("part 2 matches the CPU's counts: %s\n", part2 ? "yes" : "no");

    std::printf("checksum %ld\n", checksum);
    if (f != expect || !part2) {
        std::printf("FAILED: a histogram differs from the CPU reference\n");
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
