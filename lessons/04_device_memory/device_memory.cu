// Lesson 04: host memory and device memory. A kernel can be given host std::vectors (simt copies
// them in and back out around every launch, as Numba does with NumPy arrays) or DeviceArrays that
// stay on the device between launches. The second way copies once; the first, every time.
#include <simt/simt.hpp>

#include <chrono>
#include <cstdio>
#include <vector>

__global__ void add(simt::span<const float> x, simt::span<const float> y, simt::span<float> out) {
    for (unsigned i = simt::grid<1>(); i < out.size(); i += simt::gridsize<1>()) out[i] = x[i] + y[i];
}

double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

int main() {
    const int n = 1 << 20, launches = 10;
    std::vector<float> x(n), y(n), out(n);
    for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i % 1000), y[i] = 0.25f;

    std::printf("-- %d launches over %d floats\n", launches, n);
    // 1. Host vectors: before each launch x, y and out are copied in; after it, out comes back
    //    (x and y are const parameters, so they are not copied back).
    auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < launches; ++k) simt::launch(add, 64, 256)(x, y, out);
    double implicit = ms_since(t0);
    std::vector<float> implicit_result = out;

    // 2. Device arrays: copy the inputs once, allocate the output on the device, copy back once.
    t0 = std::chrono::steady_clock::now();
    auto dx = simt::to_device(x);                 // host -> device, initialised
    auto dy = simt::to_device(y);
    auto dout = simt::device_array<float>(n);     // device memory, uninitialised (like cuda.device_array)
    for (int k = 0; k < launches; ++k) simt::launch(add, 64, 256)(dx, dy, dout);
    std::vector<float> explicit_result = dout.copy_to_host();  // waits for the kernels, then copies
    double managed = ms_since(t0);

    std::printf("host vectors, copied around every launch:  %9.2f ms\n", implicit);
    std::printf("device arrays, copied once each way:        %9.2f ms\n", managed);
    std::printf("dout has %zu elements in %d dimension(s); device_array_like(dx) would match dx\n",
                dout.size(), dout.rank());

    int bad = 0;
    double checksum = 0;
    for (int i = 0; i < n; ++i) {
        float expect = x[i] + y[i];
        bad += (implicit_result[i] != expect) + (explicit_result[i] != expect);
        checksum += explicit_result[i];
    }
    std::printf("both ways match the CPU: %s\n", bad ? "no" : "yes");
    std::printf("checksum %.2f\n", checksum);
    if (bad) {
        std::printf("FAILED: %d results differ from the CPU reference\n", bad);
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
