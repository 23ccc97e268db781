// Lesson 11: generalized ufuncs. A ufunc sees one element; a gufunc sees one *core*: a whole row
// for the layout "(n)->()", a whole matrix for "(m,n)->(m,n)". simt::guvectorize runs one device
// thread per core over the leading dimensions, like Numba's @guvectorize(target='cuda').
#include <simt/simt.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

int main() {
    // The Euclidean norm of every row: (n)->(). The output core is a scalar, written as out[0].
    auto row_norm = simt::guvectorize("(n)->()", [] __host__ __device__ (simt::span<const double> row, simt::span<double> out) {
        double s = 0;
        for (std::size_t j = 0; j < row.size(); ++j) s += row[j] * row[j];
        out[0] = std::sqrt(s);
    });

    // Every matrix doubled: (m,n)->(m,n), as in the tutorial's doubled_gufunc.
    auto doubled = simt::guvectorize("(m,n)->(m,n)", [] __host__ __device__ (simt::mdspan<const float, 2> a, simt::mdspan<float, 2> out) {
        for (std::size_t i = 0; i < a.extent(0); ++i)
            for (std::size_t j = 0; j < a.extent(1); ++j) out(i, j) = a(i, j) * 2;
    });

    const int rows = 1000, cols = 3;
    std::vector<double> points(rows * cols);
    for (int i = 0; i < rows * cols; ++i) points[i] = static_cast<double>((i * 37) % 11) - 5.0;
    auto dpoints = simt::to_device(points, {rows, cols});
    std::vector<double> norms = row_norm(dpoints).copy_to_host();  // one thread per row: 1000

    // One row on its own: a single core and no loop dimensions. Numba's result has shape (), a
    // 0-d array; simt has no 0-d arrays, and gives shape (1).
    std::vector<double> five{3, 4, 0, 0, 0};
    auto single = row_norm(simt::to_device(five, {5}));
    const double single_norm = single.copy_to_host()[0];

    std::vector<float> one{1, 2, 3, 4, 5, 6, 7, 8, 9};
    std::vector<float> one_doubled = doubled(one, {3, 3});  // a single 3x3 matrix: one thread
    std::vector<float> batch(50 * 3 * 3);
    for (std::size_t i = 0; i < batch.size(); ++i) batch[i] = static_cast<float>(i % 9);
    auto dbatch = simt::to_device(batch, {50, 3, 3});
    auto dout = simt::device_array_like(dbatch);
    doubled(dbatch, dout);  // 50 matrices: 50 threads, written into dout
    std::vector<float> batch_doubled = dout.copy_to_host();

    int bad = 0;
    for (int r = 0; r < rows; ++r) {
        double s = 0;
        for (int c = 0; c < cols; ++c) s += points[r * cols + c] * points[r * cols + c];
        bad += std::fabs(norms[r] - std::sqrt(s)) > 1e-12;
    }
    bad += single.rank() != 1 || single.extent(0) != 1 || single_norm != 5.0;
    for (std::size_t i = 0; i < one.size(); ++i) bad += one_doubled[i] != 2 * one[i];
    for (std::size_t i = 0; i < batch.size(); ++i) bad += batch_doubled[i] != 2 * batch[i];

    std::printf("-- (n)->(): the norms of %d rows of %d; row 0 = (%.0f, %.0f, %.0f) has norm %.4f\n",
                rows, cols, points[0], points[1], points[2], norms[0]);
    std::printf("-- (n)->() on one row, (3, 4, 0, 0, 0): shape (%zu), norm %.0f (in Numba: shape (), 0-d)\n",
                single.extent(0), single_norm);
    std::printf("-- (m,n)->(m,n): one 3x3 matrix doubled: %.0f %.0f %.0f / %.0f %.0f %.0f / %.0f %.0f %.0f\n",
                one_doubled[0], one_doubled[1], one_doubled[2], one_doubled[3], one_doubled[4],
                one_doubled[5], one_doubled[6], one_doubled[7], one_doubled[8]);
    std::printf("-- and a batch of 50 matrices, one thread each: %s\n", bad ? "wrong" : "right");
    double checksum = 0;
    for (double v : norms) checksum += std::round(v * 1e6);
    std::printf("checksum %.0f\n", checksum);
    if (bad) {
        std::printf("FAILED: %d results differ from the CPU reference\n", bad);
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
