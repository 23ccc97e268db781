// Lesson 03: ufuncs. simt::vectorize turns a function of scalars into a function of arrays that
// runs one device thread per element, like Numba's @vectorize(target='cuda'). Three of them: a
// hypotenuse, a gaussian probability density, and a polar distance built from __device__ helpers.
#include <simt/simt.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

// Device functions, called from the ufunc's lambda. The lambda is __host__ __device__ (nvcc must
// see it on both sides), so its helpers must be too: a __host__ __device__ function may only call
// functions that exist on the side it is compiled for.
__host__ __device__ float polar_to_x(float rho, float theta) { return rho * std::cos(theta); }
__host__ __device__ float polar_to_y(float rho, float theta) { return rho * std::sin(theta); }

int main() {
    const int n = 100000;
    const float pi = 3.14159265f;

    // 1. hypot over two arrays.
    auto hypot = simt::vectorize([] __host__ __device__ (float a, float b) { return std::sqrt(a * a + b * b); });
    std::vector<float> a(n), b(n);
    for (int i = 0; i < n; ++i) a[i] = static_cast<float>(i % 7), b[i] = static_cast<float>(i % 5);
    std::vector<float> h = hypot(a, b);  // host vectors in, host vector out

    // 2. The gaussian density; mean and sigma are scalars, broadcast to every element.
    auto gaussian_pdf = simt::vectorize([] __host__ __device__ (float x, float mean, float sigma) {
        const float inv_sqrt_2pi = 0.3989422804014327f;
        float z = (x - mean) / sigma;
        return inv_sqrt_2pi / sigma * std::exp(-0.5f * z * z);
    });
    std::vector<float> xs(n);
    for (int i = 0; i < n; ++i) xs[i] = -5.0f + 10.0f * i / n;
    auto dx = simt::to_device(xs);             // keep the data on the device...
    auto density = simt::device_array<float>(n);
    gaussian_pdf(dx, 0.0f, 1.0f, simt::out(density));  // ...and write into an output array there
    std::vector<float> pdf = density.copy_to_host();

    // 3. The distance between two points given in polar coordinates, in double and in float.
    auto polar_distance = simt::vectorize([] __host__ __device__ (float rho1, float theta1, float rho2, float theta2) {
        float dx = polar_to_x(rho1, theta1) - polar_to_x(rho2, theta2);
        float dy = polar_to_y(rho1, theta1) - polar_to_y(rho2, theta2);
        return std::sqrt(dx * dx + dy * dy);
    });
    auto polar_distance_d = simt::vectorize([] __host__ __device__ (double r1, double t1, double r2, double t2) {
        double dx = r1 * std::cos(t1) - r2 * std::cos(t2), dy = r1 * std::sin(t1) - r2 * std::sin(t2);
        return std::sqrt(dx * dx + dy * dy);
    });
    std::vector<float> r1(n, 1.0f), t1(n), r2(n, 2.0f), t2(n, 0.0f);
    for (int i = 0; i < n; ++i) t1[i] = 2 * pi * i / n;
    std::vector<float> dist = polar_distance(r1, t1, r2, t2);
    std::vector<double> r1d(r1.begin(), r1.end()), t1d(t1.begin(), t1.end()), r2d(r2.begin(), r2.end()),
        t2d(t2.begin(), t2.end());
    std::vector<double> dist_d = polar_distance_d(r1d, t1d, r2d, t2d);

    // The CPU references, with tolerances for float arithmetic.
    int bad = 0;
    double worst_float = 0;
    for (int i = 0; i < n; ++i) {
        bad += std::fabs(h[i] - std::hypot(a[i], b[i])) > 1e-5f;
        double g = 0.3989422804014327 * std::exp(-0.5 * double(xs[i]) * xs[i]);
        bad += std::fabs(pdf[i] - g) > 1e-6;
        double d = std::sqrt(5.0 - 4.0 * std::cos(double(t1[i])));  // law of cosines
        bad += std::fabs(dist_d[i] - d) > 1e-12;
        worst_float = std::max(worst_float, std::fabs(dist[i] - d));
        bad += std::fabs(dist[i] - d) > 1e-5;
    }
    std::printf("-- ufuncs over %d elements\n", n);
    std::printf("hypot(3, 4) = %.1f; hypot(a[9], b[9]) = hypot(2, 4) = %.4f\n",
                double(hypot(std::vector<float>{3}, std::vector<float>{4})[0]), double(h[9]));
    std::printf("gaussian pdf at 0: %.6f (1/sqrt(2 pi) = 0.398942)\n", pdf[n / 2]);
    std::printf("polar distance: float's worst error %.2g, double's within 1e-12\n", worst_float);
    double checksum = 0;
    for (int i = 0; i < n; i += 100) checksum += std::round(pdf[i] * 1e4) + std::round(dist_d[i] * 1e4);
    std::printf("checksum %.0f\n", checksum);
    if (bad) {
        std::printf("FAILED: %d results differ from the CPU reference\n", bad);
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
