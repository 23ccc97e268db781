// Broken: the host reads a device_vector's element through its raw pointer. On a GPU the read
// faults; the simulator stops the program at the line (d[3] or thrust::copy would be right).
#include <cstdio>

#include <thrust/device_vector.h>

int main() {
    thrust::device_vector<float> d(16, 2.0f);
    float* p = thrust::raw_pointer_cast(d.data());
    std::printf("%.1f\n", p[3]);  // BUG: host code dereferencing device memory
    return 0;
}
