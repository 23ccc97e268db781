// Lesson 18, the libraries: the same scans with Thrust, which ships with the CUDA toolkit. On a
// GPU its scans are CUB's single-pass decoupled look-back; reach for them before writing the
// chain yourself. Run it with `./lab run lessons/18_scan/libraries.cu`.
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/scan.h>
#include <thrust/transform_scan.h>

constexpr int TILE = 256;  // the lesson's block size: the segmented scan restarts at each tile

// 1 for an element that stream compaction keeps, 0 for one it drops.
struct kept {
    __host__ __device__ int operator()(int x) const { return x >= 4 ? 1 : 0; }
};

// Copies a result back and counts the elements that differ from the CPU's.
static int wrong_elements(const thrust::device_vector<int>& d, const std::vector<int>& expect,
                          std::vector<int>& back) {
    thrust::copy(d.begin(), d.end(), back.begin());
    int wrong = 0;
    for (std::size_t i = 0; i < expect.size(); ++i) wrong += back[i] != expect[i];
    return wrong;
}

int main() {
    const int n = 64 * TILE;
    std::vector<int> host(n), keys(n);
    for (int i = 0; i < n; ++i) {
        host[i] = i % 7;     // the input of scan.cu
        keys[i] = i / TILE;  // one key per tile of 256
    }

    // The CPU's answers, one loop each.
    std::vector<int> inclusive(n), exclusive(n), tiled(n), places(n);
    int sum = 0, tile_sum = 0, place = 0;
    for (int i = 0; i < n; ++i) {
        exclusive[i] = sum;
        inclusive[i] = sum += host[i];
        if (i % TILE == 0) tile_sum = 0;
        tiled[i] = tile_sum += host[i];
        places[i] = place;
        place += kept{}(host[i]);
    }

    thrust::device_vector<int> d_in(host.begin(), host.end());
    thrust::device_vector<int> d_keys(keys.begin(), keys.end());
    thrust::device_vector<int> d_out(n);
    std::vector<int> back(n);
    int failures = 0;
    auto report = [&](const char* name, const std::vector<int>& expect, const char* what) {
        int wrong = wrong_elements(d_out, expect, back);
        if (wrong == 0)
            std::printf("%-34s %5d %s right\n", name, n, what);
        else
            std::printf("%-34s %5d of %d %s WRONG\n", name, wrong, n, what);
        failures += wrong != 0;
    };

    std::printf("-- scans of %d ints with Thrust, against the CPU's\n", n);

    // Element i is the sum of elements 0..i: the lesson's chained scan, in one call.
    thrust::inclusive_scan(d_in.begin(), d_in.end(), d_out.begin());
    report("thrust::inclusive_scan", inclusive, "sums");
    const int total = back[n - 1];
    long long checksum = 0;
    for (int v : back) checksum += v;

    // Element i is the sum of the elements before it; the initial value (the identity of the
    // operation) is element 0's.
    thrust::exclusive_scan(d_in.begin(), d_in.end(), d_out.begin(), 0, thrust::plus<int>());
    report("thrust::exclusive_scan", exclusive, "sums");

    // A segmented scan: it restarts where the key changes, here at every tile of 256, which is
    // what the lesson's block scans compute.
    thrust::inclusive_scan_by_key(d_keys.begin(), d_keys.end(), d_in.begin(), d_out.begin());
    report("thrust::inclusive_scan_by_key", tiled, "sums");

    // Stream compaction's first half: the exclusive scan of the flags "keep this element" is
    // each kept element's place in the output. The transform makes the flags on the fly.
    thrust::transform_exclusive_scan(d_in.begin(), d_in.end(), d_out.begin(), kept{}, 0,
                                     thrust::plus<int>());
    report("thrust::transform_exclusive_scan", places, "places");
    std::printf("kept %d of %d\n", back[n - 1] + kept{}(host[n - 1]), n);

    std::printf("total %d\n", total);
    std::printf("checksum %lld\n", checksum);
    if (failures) {
        std::printf("FAILED: %d scans differ from the CPU's\n", failures);
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
