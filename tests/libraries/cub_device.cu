// CUB's device-wide algorithms with their two calls (the first asks how much temporary storage,
// the second runs): DeviceReduce, DeviceScan (in place too), DeviceSelect, DeviceRadixSort
// (pairs, descending, a range of bits, DoubleBuffer) and DeviceHistogram, on 0 and 1 items and
// on sizes that fill no tile, some of them on a stream of their own.
// Each result is checked against a CPU loop; prints PASS, or FAILED: <what> and returns 1.
#include <algorithm>
#include <cstdio>
#include <vector>

#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include "cub_checks.cuh"

// CUB 3 has no cub::Sum or cub::Max; functors of one's own work with every version.
struct Plus {
    __host__ __device__ int operator()(const int& a, const int& b) const { return a + b; }
};

struct Larger {
    __host__ __device__ int operator()(const int& a, const int& b) const { return a < b ? b : a; }
};

struct Above {
    int threshold;
    __host__ __device__ bool operator()(const int& x) const { return x > threshold; }
};

// ---- DeviceReduce --------------------------------------------------------------------------

static int test_reduce() {
    for (int n : {0, 1, 1000, 4099, 20000}) {
        std::vector<int> in = make_ints(n, 10 + n, -1000, 1000);
        int *d_in, *d_sum;
        CHECK(to_device(&d_in, in));
        CHECK(cudaMalloc(&d_sum, sizeof(int)));
        CHECK(cudaMemset(d_sum, 0xff, sizeof(int)));  // 0 items must still write the sum, 0

        // Written out once as CUB's documentation shows it.
        void* d_temp_storage = nullptr;
        size_t temp_storage_bytes = 0;
        CHECK(cub::DeviceReduce::Sum(d_temp_storage, temp_storage_bytes, d_in, d_sum, n));
        CHECK(cudaMalloc(&d_temp_storage, temp_storage_bytes));
        CHECK(cub::DeviceReduce::Sum(d_temp_storage, temp_storage_bytes, d_in, d_sum, n));
        CHECK(cudaFree(d_temp_storage));

        std::vector<int> sum(1), want(1, 0);
        CHECK(to_host(sum, d_sum));
        for (int x : in) want[0] += x;
        expect_equal(sum, want, "DeviceReduce::Sum", n);
        CHECK(cudaFree(d_in));
        CHECK(cudaFree(d_sum));
    }

    for (int n : {1, 4099}) {
        std::vector<int> in = make_ints(n, 20 + n, -1000, 1000);
        int *d_in, *d_max, *d_min;
        CHECK(to_device(&d_in, in));
        CHECK(cudaMalloc(&d_max, sizeof(int)));
        CHECK(cudaMalloc(&d_min, sizeof(int)));
        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceReduce::Max(temp, bytes, d_in, d_max, n);
        }));
        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceReduce::Min(temp, bytes, d_in, d_min, n);
        }));
        std::vector<int> largest(1), smallest(1);
        CHECK(to_host(largest, d_max));
        CHECK(to_host(smallest, d_min));
        expect_equal(largest, {*std::max_element(in.begin(), in.end())}, "DeviceReduce::Max", n);
        expect_equal(smallest, {*std::min_element(in.begin(), in.end())}, "DeviceReduce::Min", n);
        CHECK(cudaFree(d_in));
        CHECK(cudaFree(d_max));
        CHECK(cudaFree(d_min));
    }

    // The initial value takes part: with none of the items above 900 the result is 900, and with
    // 0 items it is all there is.
    for (int n : {0, 1, 4099}) {
        std::vector<int> in = make_ints(n, 30 + n, -1000, 1000);
        int *d_in, *d_out;
        CHECK(to_device(&d_in, in));
        CHECK(cudaMalloc(&d_out, sizeof(int)));
        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceReduce::Reduce(temp, bytes, d_in, d_out, n, Larger(), 900);
        }));
        std::vector<int> out(1), want(1, 900);
        CHECK(to_host(out, d_out));
        for (int x : in) want[0] = std::max(want[0], x);
        expect_equal(out, want, "DeviceReduce::Reduce with a max functor and 900 to start from", n);
        CHECK(cudaFree(d_in));
        CHECK(cudaFree(d_out));
    }
    return 0;
}

// ---- DeviceScan ----------------------------------------------------------------------------

static std::vector<int> cpu_exclusive(const std::vector<int>& in, int init, bool larger) {
    std::vector<int> out(in.size());
    int running = init;
    for (size_t i = 0; i < in.size(); ++i) {
        out[i] = running;
        running = larger ? std::max(running, in[i]) : running + in[i];
    }
    return out;
}

static std::vector<int> cpu_inclusive(const std::vector<int>& in) {
    std::vector<int> out(in.size());
    int running = 0;
    for (size_t i = 0; i < in.size(); ++i) out[i] = running += in[i];
    return out;
}

static int test_scan() {
    for (int n : {0, 1, 1000, 4099}) {
        std::vector<int> in = make_ints(n, 40 + n, -1000, 1000);
        int *d_in, *d_excl, *d_incl;
        CHECK(to_device(&d_in, in));
        // One element more than n, holding a sentinel that no scan may overwrite.
        std::vector<int> sentinels(n + 1, 123456789);
        CHECK(to_device(&d_excl, sentinels));
        CHECK(to_device(&d_incl, sentinels));
        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceScan::ExclusiveSum(temp, bytes, d_in, d_excl, n);
        }));
        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceScan::InclusiveSum(temp, bytes, d_in, d_incl, n);
        }));
        std::vector<int> excl(n + 1), incl(n + 1);
        CHECK(to_host(excl, d_excl));
        CHECK(to_host(incl, d_incl));
        std::vector<int> want_excl = cpu_exclusive(in, 0, false), want_incl = cpu_inclusive(in);
        want_excl.push_back(123456789);
        want_incl.push_back(123456789);
        expect_equal(excl, want_excl, "DeviceScan::ExclusiveSum, nothing written past the end", n);
        expect_equal(incl, want_incl, "DeviceScan::InclusiveSum, nothing written past the end", n);
        CHECK(cudaFree(d_in));
        CHECK(cudaFree(d_excl));
        CHECK(cudaFree(d_incl));
    }

    for (int n : {1000, 20000}) {
        std::vector<int> in = make_ints(n, 50 + n, -1000, 1000);
        int *d_in, *d_plus, *d_larger;
        CHECK(to_device(&d_in, in));
        CHECK(cudaMalloc(&d_plus, n * sizeof(int)));
        CHECK(cudaMalloc(&d_larger, n * sizeof(int)));
        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceScan::ExclusiveScan(temp, bytes, d_in, d_plus, Plus(), 100, n);
        }));
        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceScan::ExclusiveScan(temp, bytes, d_in, d_larger, Larger(), -2000, n);
        }));
        std::vector<int> plus(n), larger(n);
        CHECK(to_host(plus, d_plus));
        CHECK(to_host(larger, d_larger));
        expect_equal(plus, cpu_exclusive(in, 100, false), "DeviceScan::ExclusiveScan with a + functor from 100", n);
        expect_equal(larger, cpu_exclusive(in, -2000, true), "DeviceScan::ExclusiveScan with a max functor from -2000", n);
        CHECK(cudaFree(d_in));
        CHECK(cudaFree(d_plus));
        CHECK(cudaFree(d_larger));
    }

    // In place: the output is the input.
    {
        const int n = 4099;
        std::vector<int> in = make_ints(n, 60, -1000, 1000);
        int *d_data, *d_data2;
        CHECK(to_device(&d_data, in));
        CHECK(to_device(&d_data2, in));
        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceScan::ExclusiveSum(temp, bytes, d_data, d_data, n);
        }));
        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceScan::ExclusiveScan(temp, bytes, d_data2, d_data2, Plus(), 7, n);
        }));
        std::vector<int> data(n), data2(n);
        CHECK(to_host(data, d_data));
        CHECK(to_host(data2, d_data2));
        expect_equal(data, cpu_exclusive(in, 0, false), "DeviceScan::ExclusiveSum in place", n);
        expect_equal(data2, cpu_exclusive(in, 7, false), "DeviceScan::ExclusiveScan in place with a + functor from 7", n);
        CHECK(cudaFree(d_data));
        CHECK(cudaFree(d_data2));
    }

    // On a stream of one's own: the storage is freed only after the stream is done with it.
    {
        const int n = 4099;
        std::vector<int> in = make_ints(n, 70, -1000, 1000);
        int *d_in, *d_out;
        CHECK(to_device(&d_in, in));
        CHECK(cudaMalloc(&d_out, n * sizeof(int)));
        cudaStream_t stream;
        CHECK(cudaStreamCreate(&stream));
        void* d_temp = nullptr;
        size_t bytes = 0;
        CHECK(cub::DeviceScan::InclusiveSum(d_temp, bytes, d_in, d_out, n, stream));
        CHECK(cudaMalloc(&d_temp, bytes));
        CHECK(cub::DeviceScan::InclusiveSum(d_temp, bytes, d_in, d_out, n, stream));
        std::vector<int> out(n);
        CHECK(cudaMemcpyAsync(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost, stream));
        CHECK(cudaStreamSynchronize(stream));
        expect_equal(out, cpu_inclusive(in), "DeviceScan::InclusiveSum on a stream", n);
        CHECK(cudaFree(d_temp));
        CHECK(cudaStreamDestroy(stream));
        CHECK(cudaFree(d_in));
        CHECK(cudaFree(d_out));
    }
    return 0;
}

// ---- DeviceSelect --------------------------------------------------------------------------

// Compares the first `count` items of the device output with what the CPU kept.
static int check_selected(const int* d_out, const int* d_count, const std::vector<int>& want,
                          const char* what, int n) {
    std::vector<int> count(1);
    CHECK(to_host(count, d_count));
    char text[160];
    std::snprintf(text, sizeof text, "%s selects %zu (n = %d)", what, want.size(), n);
    if (count[0] != int(want.size())) {
        std::printf("FAILED: %s (it says %d)\n", text, count[0]);
        ++failures;
        return 0;
    }
    std::vector<int> out(want.size());
    CHECK(to_host(out, d_out));
    expect(out == want, text);
    return 0;
}

static int test_select() {
    for (int n : {0, 1000}) {
        std::vector<int> in = make_ints(n, 80 + n, -1000, 1000);
        std::vector<char> flags(n);
        std::vector<int> want;
        for (int i = 0; i < n; ++i) {
            flags[i] = (in[i] % 3 == 0);
            if (flags[i]) want.push_back(in[i]);
        }
        int *d_in, *d_out, *d_count;
        char* d_flags;
        CHECK(to_device(&d_in, in));
        CHECK(to_device(&d_flags, flags));
        CHECK(cudaMalloc(&d_out, std::max(n, 1) * sizeof(int)));
        CHECK(cudaMalloc(&d_count, sizeof(int)));
        CHECK(cudaMemset(d_count, 0xff, sizeof(int)));  // 0 items must still write the count
        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceSelect::Flagged(temp, bytes, d_in, d_flags, d_out, d_count, n);
        }));
        if (check_selected(d_out, d_count, want, "DeviceSelect::Flagged", n)) return 1;
        CHECK(cudaFree(d_in));
        CHECK(cudaFree(d_flags));
        CHECK(cudaFree(d_out));
        CHECK(cudaFree(d_count));
    }

    {
        const int n = 4099;
        std::vector<int> in = make_ints(n, 90, -1000, 1000);
        Above above_250{250};
        std::vector<int> want;
        for (int x : in)
            if (above_250(x)) want.push_back(x);
        int *d_in, *d_out, *d_count;
        CHECK(to_device(&d_in, in));
        CHECK(cudaMalloc(&d_out, n * sizeof(int)));
        CHECK(cudaMalloc(&d_count, sizeof(int)));
        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceSelect::If(temp, bytes, d_in, d_out, d_count, n, above_250);
        }));
        if (check_selected(d_out, d_count, want, "DeviceSelect::If with a functor", n)) return 1;
        CHECK(cudaFree(d_in));
        CHECK(cudaFree(d_out));
        CHECK(cudaFree(d_count));
    }

    // Runs of equal values of random lengths; Unique keeps the first of each run.
    {
        const int n = 4099;
        std::vector<int> lengths = make_ints(n, 100, 1, 9), values = make_ints(n, 101, 0, 5);
        std::vector<int> in;
        for (int r = 0; int(in.size()) < n; ++r)
            for (int k = 0; k < lengths[r] && int(in.size()) < n; ++k) in.push_back(values[r]);
        std::vector<int> want;
        for (int i = 0; i < n; ++i)
            if (i == 0 || in[i] != in[i - 1]) want.push_back(in[i]);
        int *d_in, *d_out, *d_count;
        CHECK(to_device(&d_in, in));
        CHECK(cudaMalloc(&d_out, n * sizeof(int)));
        CHECK(cudaMalloc(&d_count, sizeof(int)));
        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceSelect::Unique(temp, bytes, d_in, d_out, d_count, n);
        }));
        if (check_selected(d_out, d_count, want, "DeviceSelect::Unique", n)) return 1;
        CHECK(cudaFree(d_in));
        CHECK(cudaFree(d_out));
        CHECK(cudaFree(d_count));
    }
    return 0;
}

// ---- DeviceRadixSort -------------------------------------------------------------------------

// The order a stable sort by `key_of` gives, as positions in the input.
template <typename Key>
static std::vector<int> stable_order(int n, Key key_of) {
    std::vector<int> order(n);
    for (int i = 0; i < n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return key_of(a) < key_of(b); });
    return order;
}

static int test_radix_sort() {
    // Signed keys, negatives first.
    for (int n : {0, 1, 4099}) {
        std::vector<int> keys = make_ints(n, 110 + n, -100000, 100000);
        int *d_keys_in, *d_keys_out;
        CHECK(to_device(&d_keys_in, keys));
        CHECK(cudaMalloc(&d_keys_out, std::max(n, 1) * sizeof(int)));
        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceRadixSort::SortKeys(temp, bytes, d_keys_in, d_keys_out, n);
        }));
        std::vector<int> out(n), want(keys);
        CHECK(to_host(out, d_keys_out));
        std::sort(want.begin(), want.end());
        expect_equal(out, want, "DeviceRadixSort::SortKeys on ints", n);
        CHECK(cudaFree(d_keys_in));
        CHECK(cudaFree(d_keys_out));
    }

    // Unsigned keys with many repeats, their positions as values: the sort is stable. Then the
    // same sorted by bits 4 to 11 only, the rest of each key ignored but kept.
    {
        const int n = 1000;
        std::vector<int> small = make_ints(n, 120, 0, 60);
        std::vector<unsigned> keys(n);
        for (int i = 0; i < n; ++i) keys[i] = unsigned(small[i]) * 70000000u + unsigned(i % 16);
        std::vector<int> positions(n);
        for (int i = 0; i < n; ++i) positions[i] = i;
        unsigned *d_keys_in, *d_keys_out;
        int *d_values_in, *d_values_out;
        CHECK(to_device(&d_keys_in, keys));
        CHECK(to_device(&d_values_in, positions));
        CHECK(cudaMalloc(&d_keys_out, n * sizeof(unsigned)));
        CHECK(cudaMalloc(&d_values_out, n * sizeof(int)));
        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceRadixSort::SortPairs(temp, bytes, d_keys_in, d_keys_out, d_values_in,
                                                   d_values_out, n);
        }));
        std::vector<unsigned> out_keys(n), want_keys(n);
        std::vector<int> out_values(n);
        CHECK(to_host(out_keys, d_keys_out));
        CHECK(to_host(out_values, d_values_out));
        std::vector<int> order = stable_order(n, [&](int i) { return keys[i]; });
        for (int i = 0; i < n; ++i) want_keys[i] = keys[order[i]];
        expect_equal(out_keys, want_keys, "DeviceRadixSort::SortPairs sorts unsigned keys", n);
        expect_equal(out_values, order, "DeviceRadixSort::SortPairs carries the values, stably", n);

        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceRadixSort::SortPairs(temp, bytes, d_keys_in, d_keys_out, d_values_in,
                                                   d_values_out, n, 4, 12);
        }));
        CHECK(to_host(out_keys, d_keys_out));
        CHECK(to_host(out_values, d_values_out));
        order = stable_order(n, [&](int i) { return (keys[i] >> 4) & 0xffu; });
        for (int i = 0; i < n; ++i) want_keys[i] = keys[order[i]];
        expect_equal(out_keys, want_keys, "DeviceRadixSort::SortPairs on bits 4 to 11 keeps whole keys", n);
        expect_equal(out_values, order, "DeviceRadixSort::SortPairs on bits 4 to 11 orders by them alone, stably", n);
        CHECK(cudaFree(d_keys_in));
        CHECK(cudaFree(d_keys_out));
        CHECK(cudaFree(d_values_in));
        CHECK(cudaFree(d_values_out));
    }

    // Floats both sides of zero (but not zero itself, whose sign CUB ignores), largest first.
    {
        const int n = 1000;
        std::vector<int> ints = make_ints(n, 130, -5000, 5000);
        std::vector<float> keys(n);
        for (int i = 0; i < n; ++i) keys[i] = float(ints[i]) * 0.37f + (ints[i] >= 0 ? 0.5f : -0.5f);
        float *d_keys_in, *d_keys_out;
        CHECK(to_device(&d_keys_in, keys));
        CHECK(cudaMalloc(&d_keys_out, n * sizeof(float)));
        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceRadixSort::SortKeysDescending(temp, bytes, d_keys_in, d_keys_out, n);
        }));
        std::vector<float> out(n), want(keys);
        CHECK(to_host(out, d_keys_out));
        std::sort(want.begin(), want.end(), [](float a, float b) { return a > b; });
        expect_equal(out, want, "DeviceRadixSort::SortKeysDescending on floats with negatives", n);
        CHECK(cudaFree(d_keys_in));
        CHECK(cudaFree(d_keys_out));
    }

    // DoubleBuffer: CUB sorts back and forth between the two arrays and says which one holds
    // the result. On a stream of one's own.
    {
        const int n = 4099;
        std::vector<int> keys = make_ints(n, 140, -100000, 100000);
        int *d_key_buf, *d_key_alt_buf;
        CHECK(to_device(&d_key_buf, keys));
        CHECK(cudaMalloc(&d_key_alt_buf, n * sizeof(int)));
        cub::DoubleBuffer<int> d_keys(d_key_buf, d_key_alt_buf);
        cudaStream_t stream;
        CHECK(cudaStreamCreate(&stream));
        void* d_temp = nullptr;
        size_t bytes = 0;
        CHECK(cub::DeviceRadixSort::SortKeys(d_temp, bytes, d_keys, n, 0, int(sizeof(int) * 8), stream));
        CHECK(cudaMalloc(&d_temp, bytes));
        CHECK(cub::DeviceRadixSort::SortKeys(d_temp, bytes, d_keys, n, 0, int(sizeof(int) * 8), stream));
        std::vector<int> out(n), want(keys);
        CHECK(cudaMemcpyAsync(out.data(), d_keys.Current(), n * sizeof(int), cudaMemcpyDeviceToHost, stream));
        CHECK(cudaStreamSynchronize(stream));
        std::sort(want.begin(), want.end());
        expect_equal(out, want, "DeviceRadixSort::SortKeys with a DoubleBuffer, read from Current(), on a stream", n);
        CHECK(cudaFree(d_temp));
        CHECK(cudaStreamDestroy(stream));
        CHECK(cudaFree(d_key_buf));
        CHECK(cudaFree(d_key_alt_buf));
    }
    return 0;
}

// ---- DeviceHistogram -----------------------------------------------------------------------

static int test_histogram() {
    // Ten bins of width 1 over [0, 10). Samples sit a quarter of a bin or more from every edge,
    // and some fall outside the range, which counts them nowhere.
    {
        const int n = 4099, bins = 10;
        std::vector<int> steps = make_ints(n, 150, 0, 47);
        std::vector<float> samples(n);
        std::vector<int> want(bins, 0);
        for (int i = 0; i < n; ++i) {
            samples[i] = float(steps[i]) * 0.25f - 0.875f;  // -0.875 to 10.875
            if (samples[i] >= 0.0f && samples[i] < 10.0f) ++want[int(samples[i])];
        }
        float* d_samples;
        int* d_histogram;
        CHECK(to_device(&d_samples, samples));
        CHECK(cudaMalloc(&d_histogram, bins * sizeof(int)));
        CHECK(cudaMemset(d_histogram, 0xff, bins * sizeof(int)));  // CUB clears the counters itself
        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceHistogram::HistogramEven(temp, bytes, d_samples, d_histogram, bins + 1,
                                                       0.0f, 10.0f, n);
        }));
        std::vector<int> histogram(bins);
        CHECK(to_host(histogram, d_histogram));
        expect_equal(histogram, want, "DeviceHistogram::HistogramEven, ten bins over [0, 10)", n);
        CHECK(cudaFree(d_samples));
        CHECK(cudaFree(d_histogram));
    }

    // Five bins of unequal widths; a sample on a level belongs to the bin it starts.
    {
        const int n = 1000;
        std::vector<int> levels = {0, 5, 10, 50, 100, 1000};
        const int bins = int(levels.size()) - 1;
        std::vector<int> samples = make_ints(n, 160, -10, 1200);
        samples[0] = 5;
        samples[1] = 1000;
        std::vector<int> want(bins, 0);
        for (int x : samples)
            for (int b = 0; b < bins; ++b)
                if (levels[b] <= x && x < levels[b + 1]) ++want[b];
        int *d_samples, *d_levels, *d_histogram;
        CHECK(to_device(&d_samples, samples));
        CHECK(to_device(&d_levels, levels));
        CHECK(cudaMalloc(&d_histogram, bins * sizeof(int)));
        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceHistogram::HistogramRange(temp, bytes, d_samples, d_histogram, bins + 1,
                                                        d_levels, n);
        }));
        std::vector<int> histogram(bins);
        CHECK(to_host(histogram, d_histogram));
        expect_equal(histogram, want, "DeviceHistogram::HistogramRange, five bins of unequal widths", n);
        CHECK(cudaFree(d_samples));
        CHECK(cudaFree(d_levels));
        CHECK(cudaFree(d_histogram));
    }
    return 0;
}

int main() {
    int err = 0;
    err |= test_reduce();
    err |= test_scan();
    err |= test_select();
    err |= test_radix_sort();
    err |= test_histogram();
    if (err || failures) {
        if (failures) std::printf("FAILED: %d check(s)\n", failures);
        return 1;
    }
    std::printf("PASS\n");
    return 0;
}
