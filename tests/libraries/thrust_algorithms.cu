// Thrust as a course uses it: device_vector and host_vector, transform with a functor (saxpy),
// sequence, fill, reduce, transform_reduce, count, sort, sort_by_key, remove, copy_if, inclusive
// scan, copies both ways, a device_vector's raw pointer handed to a kernel of one's own, and a
// cudaMalloc array sorted and reduced in place through a device_ptr.
// Each result is checked against a host loop; prints PASS.
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/extrema.h>
#include <thrust/fill.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/remove.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>

static int failures = 0;

static void expect(bool ok, const char* what) {
    std::printf("%s: %s\n", ok ? "ok" : "FAILED", what);
    if (!ok) ++failures;
}

struct saxpy {
    float a;
    __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};

struct square {
    __host__ __device__ long long operator()(int x) const { return (long long)x * x; }
};

struct is_odd {
    __host__ __device__ bool operator()(int x) const { return x % 2 != 0; }
};

__global__ void add_index(int* v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] += i;
}

int main() {
    const int n = 1000;

    thrust::device_vector<float> x(n), y(n, 1.0f);
    thrust::sequence(x.begin(), x.end());
    thrust::transform(x.begin(), x.end(), y.begin(), y.begin(), saxpy{2.0f});
    thrust::host_vector<float> hy = y;
    bool same = true;
    for (int i = 0; i < n; ++i) same = same && hy[i] == 2.0f * i + 1.0f;
    expect(same, "transform computes saxpy on device_vectors");
    float sum = thrust::reduce(y.begin(), y.end());
    expect(sum == 1000000.0f, "reduce sums the saxpy result");

    // Pseudo-random keys, sorted and compared with std::sort's order.
    std::vector<int> keys(n);
    unsigned s = 7;
    for (int& k : keys) {
        s = s * 1664525u + 1013904223u;
        k = int(s >> 20);
    }
    thrust::device_vector<int> d_keys(keys.begin(), keys.end());
    thrust::device_vector<int> d_values(n);
    thrust::sequence(d_values.begin(), d_values.end());
    thrust::sort_by_key(d_keys.begin(), d_keys.end(), d_values.begin());
    thrust::host_vector<int> sorted_keys = d_keys, order = d_values;
    bool by_key = true;
    for (int i = 0; i < n; ++i) by_key = by_key && keys[order[i]] == sorted_keys[i];
    for (int i = 1; i < n; ++i) by_key = by_key && sorted_keys[i - 1] <= sorted_keys[i];
    expect(by_key, "sort_by_key sorts the keys and carries the values along");

    thrust::device_vector<int> v(n);
    thrust::sequence(v.begin(), v.end(), 1);
    long long squares =
        thrust::transform_reduce(v.begin(), v.end(), square(), 0LL, thrust::plus<long long>());
    expect(squares == 333833500LL, "transform_reduce sums the squares of 1..1000");
    expect(thrust::count_if(v.begin(), v.end(), is_odd()) == n / 2,
           "count_if counts the odd numbers");

    thrust::device_vector<int> odd(n);
    auto odd_end = thrust::copy_if(v.begin(), v.end(), odd.begin(), is_odd());
    expect(odd_end - odd.begin() == n / 2 && odd[0] == 1 && odd[n / 2 - 1] == n - 1,
           "copy_if keeps the odd numbers in order");
    auto kept_end = thrust::remove(v.begin(), v.end(), 500);
    expect(kept_end - v.begin() == n - 1 && v[499] == 501, "remove closes the gap it leaves");

    thrust::device_vector<int> ones(n);
    thrust::fill(ones.begin(), ones.end(), 1);
    thrust::inclusive_scan(ones.begin(), ones.end(), ones.begin());
    expect(ones[0] == 1 && ones[n - 1] == n, "inclusive_scan of ones counts 1..n");

    thrust::device_vector<int> mine(n, 0);
    add_index<<<(n + 255) / 256, 256>>>(thrust::raw_pointer_cast(mine.data()), n);
    cudaDeviceSynchronize();
    std::vector<int> back(n);
    thrust::copy(mine.begin(), mine.end(), back.begin());
    expect(back[0] == 0 && back[n - 1] == n - 1,
           "a kernel writes a device_vector through its raw pointer");

    // A cudaMalloc array wrapped in a device_ptr: Thrust's algorithms work on it in place.
    int* raw;
    cudaMalloc(&raw, n * sizeof(int));
    thrust::device_ptr<int> p(raw);
    thrust::sequence(p, p + n, n, -1);  // n, n-1, ..., 1
    thrust::sort(p, p + n);
    int total = thrust::reduce(p, p + n);
    int* top = thrust::max_element(thrust::device, raw, raw + n);
    expect(p[0] == 1 && p[n - 1] == n && total == n * (n + 1) / 2 && top == raw + n - 1,
           "sort, reduce and max_element work on a cudaMalloc array through device_ptr");
    cudaFree(raw);

    std::printf(failures == 0 ? "PASS\n" : "FAILED: %d checks\n", failures);
    return failures == 0 ? 0 : 1;
}
