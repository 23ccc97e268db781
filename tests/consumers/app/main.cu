// A program from outside the simt tree: sums 0..999 with a block reduction.
#include <simt/simt.hpp>

#include <cstdio>
#include <vector>

__global__ void sum(simt::span<const int> in, simt::ptr<int> out) {
    __shared__ simt::shared<int[1024]> s;
    int t = threadIdx.x;
    s[t] = t < static_cast<int>(in.size()) ? in[t] : 0;
    __syncthreads();
    for (int stride = 512; stride > 0; stride /= 2) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) out[0] = s[0];
}

int main() {
    std::vector<int> v(1000);
    for (int i = 0; i < 1000; ++i) v[i] = i;
    auto in = simt::to_device(v);
    auto out = simt::device_array<int>(1);
    simt::launch(sum, 1, 1024)(in, out);
    std::printf("consumer: %d\n", out.copy_to_host()[0]);
}
