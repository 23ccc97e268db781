// Adds two vectors of 1000 floats held in simt's device arrays (Numba's cuda.device_array and
// cuda.to_device), launched with simt::launch.
// the fix: the input made with simt::to_device.
#include <simt/simt.hpp>

#include <cstdio>
#include <vector>

__global__ void add(simt::span<const float> a, simt::span<const float> b, simt::span<float> c) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < c.size()) c[i] = a[i] + b[i];
}

int main() {
    const int n = 1000;
    std::vector<float> a(n), b(n);
    for (int i = 0; i < n; i++) {
        a[i] = i;
        b[i] = 2 * i;
    }
    auto d_a = simt::to_device(a);
    auto d_b = simt::device_array<float>(n);
    auto d_c = simt::device_array<float>(n);
    simt::launch(add, (n + 255) / 256, 256)(d_a, d_b, d_c);
    std::vector<float> c = d_c.copy_to_host();
    int right = 0;
    for (int i = 0; i < n; i++) right += c[i] == 3 * i;
    printf("right %d (expected %d)\n", right, n);
    return 0;
}
