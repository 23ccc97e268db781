// Lesson 08: an out-of-bounds write in a histogram, how the simulator reports it, and the fix.
// Values in [0, 1] go into `nbins` equal bins. The value 1.0 is a legal input, and it is the bug:
// int(1.0 * nbins) is nbins, one past the last bin.
#include <simt/simt.hpp>

#include <cstdio>
#include <vector>

__global__ void histogram_buggy(simt::span<const float> x, simt::span<int> bins) {
    for (unsigned i = simt::grid<1>(); i < x.size(); i += simt::gridsize<1>()) {
        int bin = static_cast<int>(x[i] * bins.size());
        atomicAdd(&bins[bin], 1);  // the bug: bin == bins.size() when x[i] == 1.0
    }
}

__global__ void histogram_fixed(simt::span<const float> x, simt::span<int> bins) {
    const int last = static_cast<int>(bins.size()) - 1;
    for (unsigned i = simt::grid<1>(); i < x.size(); i += simt::gridsize<1>()) {
        int bin = static_cast<int>(x[i] * bins.size());
        atomicAdd(&bins[bin < last ? bin : last], 1);  // 1.0 belongs to the last bin
    }
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

    auto dx = simt::to_device(x);
    std::printf("-- the buggy histogram (watch for the out-of-bounds report)\n");
    auto buggy = simt::to_device(std::vector<int>(nbins, 0));
    simt::launch(histogram_buggy, 8, 128)(dx, buggy);
    std::vector<int> b = buggy.copy_to_host();
    int missing = 0;
    for (int k = 0; k < nbins; ++k) missing += expect[k] - b[k];
    std::printf("buggy: %d value(s) of 1.0 went past the last bin and were not counted\n", missing);

    std::printf("-- the fixed histogram\n");
    auto fixed = simt::to_device(std::vector<int>(nbins, 0));
    simt::launch(histogram_fixed, 8, 128)(dx, fixed);
    std::vector<int> f = fixed.copy_to_host();
    long checksum = 0;
    for (int k = 0; k < nbins; ++k) {
        std::printf("bin %2d [%.4f, %.4f%c: %d\n", k, k / double(nbins), (k + 1) / double(nbins),
                    k == nbins - 1 ? ']' : ')', f[k]);
        checksum += static_cast<long>(k + 1) * f[k];
    }
    std::printf("checksum %ld\n", checksum);
    if (f != expect) {
        std::printf("FAILED: the fixed histogram differs from the CPU reference\n");
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
