// CUB's lower-level pieces as public code uses them: cache-modified loads and stores
// (ThreadLoad, ThreadStore, CacheModifiedInputIterator), the warp shuffles of util_ptx
// (ShuffleUp, ShuffleDown, ShuffleIndex), and an ArgIndexInputIterator fed to DeviceReduce with
// an arg-max operator. Prints PASS, or FAILED: <what> and returns 1.
#include <cstdio>
#include <vector>

#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include "cub_checks.cuh"

typedef cub::KeyValuePair<int, float> IndexedValue;

// The greater value; of equal values, the lower index (as cub::ArgMax).
struct GreaterValue {
    __host__ __device__ IndexedValue operator()(const IndexedValue& a,
                                                const IndexedValue& b) const {
        return (b.value > a.value || (b.value == a.value && b.key < a.key)) ? b : a;
    }
};

// Each lane adds its neighbours' doubled values: the one below (its own at lane 0), the one
// above (its own at lane 31) and lane 0's.
__global__ void neighbours(const float* in, float* out) {
    cub::CacheModifiedInputIterator<cub::LOAD_LDG, float> it(in);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = it[i] + cub::ThreadLoad<cub::LOAD_CG>(in + i);
    float below = cub::ShuffleUp<32>(v, 1, 0, 0xffffffffu);
    float above = cub::ShuffleDown<32>(v, 1, 31, 0xffffffffu);
    float first = cub::ShuffleIndex<32>(v, 0, 0xffffffffu);
    cub::ThreadStore<cub::STORE_CG>(out + i, below + above + first);
}

int main() {
    const int n = 256;
    std::vector<float> h_in(n);
    for (int i = 0; i < n; ++i) h_in[i] = float((i * 37) % 101);
    float *d_in, *d_out;
    CHECK(to_device(&d_in, h_in));
    CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    neighbours<<<n / 32, 32>>>(d_in, d_out);
    CHECK(cudaGetLastError());
    std::vector<float> got(n), want(n);
    CHECK(to_host(got, d_out));
    for (int i = 0; i < n; ++i) {
        int lane = i % 32, warp0 = i - lane;
        float below = 2 * h_in[lane > 0 ? i - 1 : i], above = 2 * h_in[lane < 31 ? i + 1 : i];
        want[i] = below + above + 2 * h_in[warp0];
    }
    expect_equal(got, want, "ThreadLoad, CacheModifiedInputIterator and the shuffles");

    IndexedValue* d_best;
    CHECK(cudaMalloc(&d_best, sizeof(IndexedValue)));
    cub::ArgIndexInputIterator<float*, int> indexed(d_in);
    const IndexedValue start(-1, -1.0f);
    CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
        return cub::DeviceReduce::Reduce(temp, bytes, indexed, d_best, n, GreaterValue(), start);
    }));
    IndexedValue best;
    CHECK(cudaMemcpy(&best, d_best, sizeof best, cudaMemcpyDeviceToHost));
    int want_key = 0;
    for (int i = 1; i < n; ++i)
        if (h_in[i] > h_in[want_key]) want_key = i;
    expect(best.key == want_key && best.value == h_in[want_key],
           "ArgIndexInputIterator with DeviceReduce::Reduce finds the first greatest item");

    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_best));
    if (failures) return 1;
    std::printf("PASS\n");
    return 0;
}
