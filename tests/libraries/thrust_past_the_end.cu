// Broken: a functor given to thrust::transform reads one element past a device_vector. Thrust's
// transform is a kernel in the simulator, so the read is reported with its thread and line.
#include <cstdio>

#include <thrust/device_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform.h>

struct next_value {
    const float* v;
    __host__ __device__ float operator()(int i) const { return v[i + 1]; }  // BUG: v[n] at the end
};

int main() {
    const int n = 512;
    thrust::device_vector<float> in(n, 1.0f), out(n);
    thrust::transform(thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(n),
                      out.begin(), next_value{thrust::raw_pointer_cast(in.data())});
    std::printf("out[0] = %.1f\n", float(out[0]));
    return 0;
}
