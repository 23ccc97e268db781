// Lesson 13: a kernel run by a single thread (a bubble sort), how a kernel's parameter types are
// its signature, and how to step through a CUDA thread with gdb: in the simulator a kernel is
// ordinary C++ running on a fiber, so breakpoints, `bt` and `print` work as they do on the CPU.
#include <simt/simt.hpp>

#include <algorithm>
#include <cstdio>
#include <vector>

// A __device__ function: called from kernels, inlined on the GPU.
__device__ void swap_elements(simt::span<int> a, unsigned i, unsigned j) {
    int t = a[i];
    a[i] = a[j];
    a[j] = t;
}

// One thread does all the work: correct, and a fine way to debug logic, but it leaves every
// other core of the device idle.
__global__ void bubblesort(simt::span<int> a) {
    for (unsigned pass = 0; pass < a.size(); ++pass)
        for (unsigned j = 0; j + 1 < a.size() - pass; ++j)
            if (a[j] > a[j + 1]) swap_elements(a, j, j + 1);  // try: break bubblesort.cu:22
}

// The signature is the parameter list: this kernel takes doubles and a float factor. Passing a
// DeviceArray<float> where span<double> is expected does not compile; a value converts as in C++.
__global__ void increment_by(simt::span<double> a, float step) {
    int i = simt::grid<1>();
    if (i < static_cast<int>(a.size())) a[i] += step;
}

int main() {
    std::vector<int> data{29, 3, 71, 18, 5, 42, 11, 64, 0, 37, 90, 23, 8, 56, 14, 77};
    auto d = simt::to_device(data);
    simt::launch(bubblesort, 1, 1)(d);  // one block of one thread
    std::vector<int> sorted = d.copy_to_host();

    std::vector<double> v(10, 1.0);
    auto dv = simt::to_device(v);
    simt::launch(increment_by, 1, 32)(dv, 0.5f);
    std::vector<double> inc = dv.copy_to_host();

    std::printf("-- bubble sort in one GPU thread\n");
    for (int x : sorted) std::printf("%d ", x);
    std::printf("\n");
    std::vector<int> expect = data;
    std::sort(expect.begin(), expect.end());
    bool ok = sorted == expect && inc == std::vector<double>(10, 1.5);
    long checksum = 0;
    for (std::size_t i = 0; i < sorted.size(); ++i) checksum += static_cast<long>(i + 1) * sorted[i];
    std::printf("-- increment_by(span<double>, float): %.1f ... %.1f\n", inc.front(), inc.back());
    std::printf("checksum %ld\n", checksum);
    if (!ok) {
        std::printf("FAILED: the results differ from the CPU reference\n");
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
