// CUB's device-wide algorithms beyond the first set, each with its two calls (the first asks how
// much temporary storage, the second runs): DevicePartition (Flagged and If), DeviceRunLengthEncode
// (Encode and NonTrivialRuns), DeviceSegmentedReduce, DeviceReduce::ReduceByKey, DeviceScan by key,
// DeviceSegmentedRadixSort and DeviceMergeSort, on 0 and 1 items and on odd sizes that fill no
// tile.
// Each result is checked against a CPU loop; prints PASS, or FAILED: <what> and returns 1.
#include <algorithm>
#include <climits>
#include <cstdio>
#include <vector>

#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include "cub_checks.cuh"

// A count the device wrote, against the CPU's. The results it counts are compared only if it
// agrees, so a wrong count reports once rather than as every array after it.
static bool expect_count(int got, int want, const char* what, int n) {
    if (got == want) return true;
    std::printf("FAILED: %s (n = %d) counts %d, expected %d\n", what, n, got, want);
    ++failures;
    return false;
}

// n items in runs of 1 to 9 equal values from a small range; neighbouring runs may draw the same
// value and so join into one longer run, which the CPU references see as the device does.
static std::vector<int> make_runs(int n, unsigned seed) {
    std::vector<int> lengths = make_ints(n, seed, 1, 9), values = make_ints(n, seed + 1, 0, 5);
    std::vector<int> out;
    for (int r = 0; int(out.size()) < n; ++r)
        for (int k = 0; k < lengths[r] && int(out.size()) < n; ++k) out.push_back(values[r]);
    return out;
}

static cudaError_t count_to_host(int& count, const int* d_count) {
    return cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost);
}

// CUB 3 has no cub::Sum, cub::Max or cub::Min; functors of one's own work with every version.
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

// Orders by absolute value, largest first: -7 and 7 are equivalent, so an unstable sort may put
// either first and a stable one must keep them as they came.
struct AbsGreater {
    __host__ __device__ bool operator()(const int& a, const int& b) const {
        return (a < 0 ? -a : a) > (b < 0 ? -b : b);
    }
};

static const int kSentinel = 123456789;

// ---- DevicePartition -----------------------------------------------------------------------

// What DevicePartition documents: the selected items first, in their order, then the rejected
// ones filling the array from its end, so that they read back in reverse order.
static std::vector<int> cpu_partition(const std::vector<int>& in, const std::vector<char>& keep,
                                      int& num_selected) {
    std::vector<int> out(in.size());
    size_t front = 0, back = in.size();
    for (size_t i = 0; i < in.size(); ++i) {
        if (keep[i])
            out[front++] = in[i];
        else
            out[--back] = in[i];
    }
    num_selected = int(front);
    return out;
}

static int test_partition() {
    for (int n : {0, 1, 1001, 9999}) {
        std::vector<int> in = make_ints(n, 200 + n, -1000, 1000);
        std::vector<char> flags(n);
        for (int i = 0; i < n; ++i) flags[i] = (in[i] % 3 == 0);
        int want_selected = 0;
        std::vector<int> want = cpu_partition(in, flags, want_selected);
        want.push_back(kSentinel);

        int *d_in, *d_out, *d_count;
        char* d_flags;
        CHECK(to_device(&d_in, in));
        CHECK(to_device(&d_flags, flags));
        // One element more than n, holding a sentinel that the partition may not overwrite.
        CHECK(to_device(&d_out, std::vector<int>(n + 1, kSentinel)));
        CHECK(cudaMalloc(&d_count, sizeof(int)));
        CHECK(cudaMemset(d_count, 0xff, sizeof(int)));  // 0 items must still write the count, 0

        // Written out once as CUB's documentation shows it.
        void* d_temp_storage = nullptr;
        size_t temp_storage_bytes = 0;
        CHECK(cub::DevicePartition::Flagged(d_temp_storage, temp_storage_bytes, d_in, d_flags,
                                            d_out, d_count, n));
        CHECK(cudaMalloc(&d_temp_storage, temp_storage_bytes));
        CHECK(cub::DevicePartition::Flagged(d_temp_storage, temp_storage_bytes, d_in, d_flags,
                                            d_out, d_count, n));
        CHECK(cudaFree(d_temp_storage));

        int count;
        std::vector<int> out(n + 1);
        CHECK(count_to_host(count, d_count));
        CHECK(to_host(out, d_out));
        if (expect_count(count, want_selected, "DevicePartition::Flagged", n))
            expect_equal(out, want,
                         "DevicePartition::Flagged: selected in order, then the rejected reversed",
                         n);
        CHECK(cudaFree(d_in));
        CHECK(cudaFree(d_flags));
        CHECK(cudaFree(d_out));
        CHECK(cudaFree(d_count));
    }

    // With a selection functor; at threshold 5000 nothing is selected and the whole output is the
    // input reversed.
    for (int threshold : {250, 5000}) {
        for (int n : {0, 1, 37, 4099}) {
            std::vector<int> in = make_ints(n, 210 + n, -1000, 1000);
            Above above{threshold};
            std::vector<char> keep(n);
            for (int i = 0; i < n; ++i) keep[i] = above(in[i]);
            int want_selected = 0;
            std::vector<int> want = cpu_partition(in, keep, want_selected);
            want.push_back(kSentinel);

            int *d_in, *d_out, *d_count;
            CHECK(to_device(&d_in, in));
            CHECK(to_device(&d_out, std::vector<int>(n + 1, kSentinel)));
            CHECK(cudaMalloc(&d_count, sizeof(int)));
            CHECK(cudaMemset(d_count, 0xff, sizeof(int)));
            CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
                return cub::DevicePartition::If(temp, bytes, d_in, d_out, d_count, n, above);
            }));
            int count;
            std::vector<int> out(n + 1);
            CHECK(count_to_host(count, d_count));
            CHECK(to_host(out, d_out));
            const char* what = threshold == 250
                                   ? "DevicePartition::If with a functor: selected in order, then "
                                     "the rejected reversed"
                                   : "DevicePartition::If selecting nothing: the input reversed";
            if (expect_count(count, want_selected, "DevicePartition::If", n))
                expect_equal(out, want, what, n);
            CHECK(cudaFree(d_in));
            CHECK(cudaFree(d_out));
            CHECK(cudaFree(d_count));
        }
    }
    return 0;
}

// ---- DeviceRunLengthEncode -----------------------------------------------------------------

static int test_run_length_encode() {
    for (int n : {0, 1, 37, 1001, 9999}) {
        std::vector<int> in = make_runs(n, 300 + n);
        std::vector<int> want_unique, want_lengths, want_offsets, want_long_lengths;
        for (int i = 0; i < n;) {
            int j = i;
            while (j < n && in[j] == in[i]) ++j;
            want_unique.push_back(in[i]);
            want_lengths.push_back(j - i);
            if (j - i > 1) {
                want_offsets.push_back(i);
                want_long_lengths.push_back(j - i);
            }
            i = j;
        }

        // The outputs are n long: a caller cannot know the number of runs before the call.
        int *d_in, *d_unique, *d_lengths, *d_offsets, *d_long_lengths, *d_runs, *d_long_runs;
        CHECK(to_device(&d_in, in));
        CHECK(cudaMalloc(&d_unique, std::max(n, 1) * sizeof(int)));
        CHECK(cudaMalloc(&d_lengths, std::max(n, 1) * sizeof(int)));
        CHECK(cudaMalloc(&d_offsets, std::max(n, 1) * sizeof(int)));
        CHECK(cudaMalloc(&d_long_lengths, std::max(n, 1) * sizeof(int)));
        CHECK(cudaMalloc(&d_runs, sizeof(int)));
        CHECK(cudaMalloc(&d_long_runs, sizeof(int)));
        CHECK(cudaMemset(d_runs, 0xff, sizeof(int)));
        CHECK(cudaMemset(d_long_runs, 0xff, sizeof(int)));
        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceRunLengthEncode::Encode(temp, bytes, d_in, d_unique, d_lengths,
                                                      d_runs, n);
        }));
        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceRunLengthEncode::NonTrivialRuns(temp, bytes, d_in, d_offsets,
                                                              d_long_lengths, d_long_runs, n);
        }));

        int runs, long_runs;
        CHECK(count_to_host(runs, d_runs));
        CHECK(count_to_host(long_runs, d_long_runs));
        if (expect_count(runs, int(want_unique.size()), "DeviceRunLengthEncode::Encode", n)) {
            std::vector<int> unique(runs), lengths(runs);
            CHECK(to_host(unique, d_unique));
            CHECK(to_host(lengths, d_lengths));
            expect_equal(unique, want_unique, "DeviceRunLengthEncode::Encode: each run's value", n);
            expect_equal(lengths, want_lengths, "DeviceRunLengthEncode::Encode: each run's length",
                         n);
        }
        if (expect_count(long_runs, int(want_offsets.size()),
                         "DeviceRunLengthEncode::NonTrivialRuns", n)) {
            std::vector<int> offsets(long_runs), long_lengths(long_runs);
            CHECK(to_host(offsets, d_offsets));
            CHECK(to_host(long_lengths, d_long_lengths));
            expect_equal(
                offsets, want_offsets,
                "DeviceRunLengthEncode::NonTrivialRuns: where each run longer than 1 starts", n);
            expect_equal(long_lengths, want_long_lengths,
                         "DeviceRunLengthEncode::NonTrivialRuns: each such run's length", n);
        }
        CHECK(cudaFree(d_in));
        CHECK(cudaFree(d_unique));
        CHECK(cudaFree(d_lengths));
        CHECK(cudaFree(d_offsets));
        CHECK(cudaFree(d_long_lengths));
        CHECK(cudaFree(d_runs));
        CHECK(cudaFree(d_long_runs));
    }
    return 0;
}

// ---- DeviceSegmentedReduce -----------------------------------------------------------------

// Segment lengths from 0 to 300 until n items are used: the second segment is empty, the third
// has one item (while any are left), and one more empty segment ends the list at offset n.
static std::vector<int> make_lengths(int n, unsigned seed) {
    std::vector<int> lengths;
    std::vector<int> draws = make_ints(64, seed, 0, 300);
    int used = 0;
    for (int k = 0; used < n || k < 3; ++k) {
        int len = k == 1 ? 0 : std::min(k == 2 ? 1 : draws[k % 64], n - used);
        lengths.push_back(len);
        used += len;
    }
    lengths.push_back(0);
    return lengths;
}

// The CPU's reduction of each segment: the functor folds every item into init, so an empty
// segment gives init itself.
template <typename Op>
static std::vector<int> cpu_segmented_reduce(const std::vector<int>& in,
                                             const std::vector<int>& begins,
                                             const std::vector<int>& ends, Op op, int init) {
    std::vector<int> out(begins.size());
    for (size_t s = 0; s < begins.size(); ++s) {
        int acc = init;
        for (int i = begins[s]; i < ends[s]; ++i) acc = op(acc, in[i]);
        out[s] = acc;
    }
    return out;
}

// For the CPU's side only: DeviceSegmentedReduce::Min takes no functor.
struct Smaller {
    int operator()(int a, int b) const { return b < a ? b : a; }
};

static int test_segmented_reduce() {
    for (int n : {0, 1, 1001, 4099}) {
        std::vector<int> in = make_ints(n, 400 + n, -1000, 1000);
        std::vector<int> lengths = make_lengths(n, 410 + n);
        const int segments = int(lengths.size());

        // Contiguous segments as one array of segments + 1 offsets, its begins at d_offsets and its
        // ends one further on.
        std::vector<int> offsets(1, 0);
        for (int len : lengths) offsets.push_back(offsets.back() + len);
        std::vector<int> begins(offsets.begin(), offsets.end() - 1),
            ends(offsets.begin() + 1, offsets.end());

        // The same lengths with gaps of 0 to 3 items between them, in separate begin and end
        // arrays: the items in a gap belong to no segment, and the input is longer by the gaps.
        std::vector<int> gaps = make_ints(segments, 420 + n, 0, 3);
        std::vector<int> gap_begins(segments), gap_ends(segments);
        int at = 0;
        for (int s = 0; s < segments; ++s) {
            gap_begins[s] = at;
            gap_ends[s] = at + lengths[s];
            at = gap_ends[s] + gaps[s];
        }
        std::vector<int> gapped = make_ints(at, 430 + n, -1000, 1000);
        // A lone item below -100 in the one-item segment, so that it loses to the init of the
        // Reduce below.
        if (segments > 2 && lengths[2] == 1) gapped[gap_begins[2]] = -700;

        int *d_in, *d_offsets, *d_gapped, *d_begins, *d_ends, *d_sum, *d_max, *d_min, *d_reduce;
        CHECK(to_device(&d_in, in));
        CHECK(to_device(&d_offsets, offsets));
        CHECK(to_device(&d_gapped, gapped));
        CHECK(to_device(&d_begins, gap_begins));
        CHECK(to_device(&d_ends, gap_ends));
        CHECK(cudaMalloc(&d_sum, segments * sizeof(int)));
        CHECK(cudaMalloc(&d_max, segments * sizeof(int)));
        CHECK(cudaMalloc(&d_min, segments * sizeof(int)));
        CHECK(cudaMalloc(&d_reduce, segments * sizeof(int)));
        // Every output starts as garbage: an empty segment's result must be written, not left.
        CHECK(cudaMemset(d_sum, 0x5a, segments * sizeof(int)));
        CHECK(cudaMemset(d_max, 0x5a, segments * sizeof(int)));
        CHECK(cudaMemset(d_min, 0x5a, segments * sizeof(int)));
        CHECK(cudaMemset(d_reduce, 0x5a, segments * sizeof(int)));

        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceSegmentedReduce::Sum(temp, bytes, d_in, d_sum, segments, d_offsets,
                                                   d_offsets + 1);
        }));
        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceSegmentedReduce::Max(temp, bytes, d_gapped, d_max, segments, d_begins,
                                                   d_ends);
        }));
        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceSegmentedReduce::Min(temp, bytes, d_gapped, d_min, segments, d_begins,
                                                   d_ends);
        }));
        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceSegmentedReduce::Reduce(temp, bytes, d_gapped, d_reduce, segments,
                                                      d_begins, d_ends, Larger(), -100);
        }));

        std::vector<int> sum(segments), largest(segments), smallest(segments), reduced(segments);
        CHECK(to_host(sum, d_sum));
        CHECK(to_host(largest, d_max));
        CHECK(to_host(smallest, d_min));
        CHECK(to_host(reduced, d_reduce));
        // Sum starts from 0, Max from the lowest int and Min from the highest, which is what an
        // empty segment gets.
        expect_equal(sum, cpu_segmented_reduce(in, begins, ends, Plus(), 0),
                     "DeviceSegmentedReduce::Sum over offsets and offsets + 1, empty segments 0",
                     n);
        expect_equal(largest, cpu_segmented_reduce(gapped, gap_begins, gap_ends, Larger(), INT_MIN),
                     "DeviceSegmentedReduce::Max with gaps, empty segments the lowest int", n);
        expect_equal(smallest,
                     cpu_segmented_reduce(gapped, gap_begins, gap_ends, Smaller(), INT_MAX),
                     "DeviceSegmentedReduce::Min with gaps, empty segments the highest int", n);
        expect_equal(
            reduced, cpu_segmented_reduce(gapped, gap_begins, gap_ends, Larger(), -100),
            "DeviceSegmentedReduce::Reduce with a max functor and -100 to start each segment from",
            n);
        CHECK(cudaFree(d_in));
        CHECK(cudaFree(d_offsets));
        CHECK(cudaFree(d_gapped));
        CHECK(cudaFree(d_begins));
        CHECK(cudaFree(d_ends));
        CHECK(cudaFree(d_sum));
        CHECK(cudaFree(d_max));
        CHECK(cudaFree(d_min));
        CHECK(cudaFree(d_reduce));
    }
    return 0;
}

// ---- DeviceReduce::ReduceByKey -------------------------------------------------------------

static int test_reduce_by_key() {
    for (int n : {0, 1, 37, 1001, 4099}) {
        std::vector<int> keys = make_runs(n, 500 + n), values = make_ints(n, 510 + n, -1000, 1000);
        // A key that comes back after a run of another starts a run of its own.
        std::vector<int> want_keys, want_sums, want_maxima;
        for (int i = 0; i < n; ++i) {
            if (i == 0 || keys[i] != keys[i - 1]) {
                want_keys.push_back(keys[i]);
                want_sums.push_back(values[i]);
                want_maxima.push_back(values[i]);
            } else {
                want_sums.back() += values[i];
                want_maxima.back() = std::max(want_maxima.back(), values[i]);
            }
        }

        int *d_keys, *d_values, *d_unique, *d_sums, *d_unique2, *d_maxima, *d_runs, *d_runs2;
        CHECK(to_device(&d_keys, keys));
        CHECK(to_device(&d_values, values));
        CHECK(cudaMalloc(&d_unique, std::max(n, 1) * sizeof(int)));
        CHECK(cudaMalloc(&d_sums, std::max(n, 1) * sizeof(int)));
        CHECK(cudaMalloc(&d_unique2, std::max(n, 1) * sizeof(int)));
        CHECK(cudaMalloc(&d_maxima, std::max(n, 1) * sizeof(int)));
        CHECK(cudaMalloc(&d_runs, sizeof(int)));
        CHECK(cudaMalloc(&d_runs2, sizeof(int)));
        CHECK(cudaMemset(d_runs, 0xff, sizeof(int)));
        CHECK(cudaMemset(d_runs2, 0xff, sizeof(int)));
        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceReduce::ReduceByKey(temp, bytes, d_keys, d_unique, d_values, d_sums,
                                                  d_runs, Plus(), n);
        }));
        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceReduce::ReduceByKey(temp, bytes, d_keys, d_unique2, d_values,
                                                  d_maxima, d_runs2, Larger(), n);
        }));

        int runs, runs2;
        CHECK(count_to_host(runs, d_runs));
        CHECK(count_to_host(runs2, d_runs2));
        if (expect_count(runs, int(want_keys.size()), "DeviceReduce::ReduceByKey with a + functor",
                         n)) {
            std::vector<int> unique(runs), sums(runs);
            CHECK(to_host(unique, d_unique));
            CHECK(to_host(sums, d_sums));
            expect_equal(unique, want_keys, "DeviceReduce::ReduceByKey: each run's key", n);
            expect_equal(sums, want_sums,
                         "DeviceReduce::ReduceByKey with a + functor: each run's sum", n);
        }
        if (expect_count(runs2, int(want_keys.size()),
                         "DeviceReduce::ReduceByKey with a max functor", n)) {
            std::vector<int> unique(runs2), maxima(runs2);
            CHECK(to_host(unique, d_unique2));
            CHECK(to_host(maxima, d_maxima));
            expect_equal(unique, want_keys,
                         "DeviceReduce::ReduceByKey with a max functor: each run's key", n);
            expect_equal(maxima, want_maxima,
                         "DeviceReduce::ReduceByKey with a max functor: each run's maximum", n);
        }
        CHECK(cudaFree(d_keys));
        CHECK(cudaFree(d_values));
        CHECK(cudaFree(d_unique));
        CHECK(cudaFree(d_sums));
        CHECK(cudaFree(d_unique2));
        CHECK(cudaFree(d_maxima));
        CHECK(cudaFree(d_runs));
        CHECK(cudaFree(d_runs2));
    }
    return 0;
}

// ---- DeviceScan by key ---------------------------------------------------------------------

// A scan that starts again, from init, wherever the key changes.
template <typename Op>
static std::vector<int> cpu_scan_by_key(const std::vector<int>& keys,
                                        const std::vector<int>& values, Op op, int init,
                                        bool inclusive) {
    std::vector<int> out(values.size());
    int running = init;
    for (size_t i = 0; i < values.size(); ++i) {
        bool head = i == 0 || keys[i] != keys[i - 1];
        if (inclusive) {
            running = head ? values[i] : op(running, values[i]);
            out[i] = running;
        } else {
            if (head) running = init;
            out[i] = running;
            running = op(running, values[i]);
        }
    }
    return out;
}

static int test_scan_by_key() {
    for (int n : {0, 1, 37, 1001, 4099}) {
        std::vector<int> keys = make_runs(n, 600 + n), values = make_ints(n, 610 + n, -1000, 1000);
        // Each output is one element longer than n, holding a sentinel that no scan may overwrite.
        std::vector<int> sentinels(n + 1, kSentinel);
        int *d_keys, *d_values, *d_excl_sum, *d_incl_sum, *d_excl_max, *d_incl_max;
        CHECK(to_device(&d_keys, keys));
        CHECK(to_device(&d_values, values));
        CHECK(to_device(&d_excl_sum, sentinels));
        CHECK(to_device(&d_incl_sum, sentinels));
        CHECK(to_device(&d_excl_max, sentinels));
        CHECK(to_device(&d_incl_max, sentinels));
        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceScan::ExclusiveSumByKey(temp, bytes, d_keys, d_values, d_excl_sum, n);
        }));
        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceScan::InclusiveSumByKey(temp, bytes, d_keys, d_values, d_incl_sum, n);
        }));
        // -300 as init is above many values, so it shows both where each segment restarts from it
        // and that it takes part in the max.
        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceScan::ExclusiveScanByKey(temp, bytes, d_keys, d_values, d_excl_max,
                                                       Larger(), -300, n);
        }));
        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceScan::InclusiveScanByKey(temp, bytes, d_keys, d_values, d_incl_max,
                                                       Larger(), n);
        }));

        std::vector<int> excl_sum(n + 1), incl_sum(n + 1), excl_max(n + 1), incl_max(n + 1);
        CHECK(to_host(excl_sum, d_excl_sum));
        CHECK(to_host(incl_sum, d_incl_sum));
        CHECK(to_host(excl_max, d_excl_max));
        CHECK(to_host(incl_max, d_incl_max));
        std::vector<int> want_excl_sum = cpu_scan_by_key(keys, values, Plus(), 0, false);
        std::vector<int> want_incl_sum = cpu_scan_by_key(keys, values, Plus(), 0, true);
        std::vector<int> want_excl_max = cpu_scan_by_key(keys, values, Larger(), -300, false);
        std::vector<int> want_incl_max = cpu_scan_by_key(keys, values, Larger(), 0, true);
        for (std::vector<int>* want :
             {&want_excl_sum, &want_incl_sum, &want_excl_max, &want_incl_max})
            want->push_back(kSentinel);
        expect_equal(excl_sum, want_excl_sum,
                     "DeviceScan::ExclusiveSumByKey restarts at 0 with each key, nothing written "
                     "past the end",
                     n);
        expect_equal(
            incl_sum, want_incl_sum,
            "DeviceScan::InclusiveSumByKey restarts with each key, nothing written past the end",
            n);
        expect_equal(
            excl_max, want_excl_max,
            "DeviceScan::ExclusiveScanByKey with a max functor restarts from -300 with each key",
            n);
        expect_equal(incl_max, want_incl_max,
                     "DeviceScan::InclusiveScanByKey with a max functor restarts with each key", n);
        CHECK(cudaFree(d_keys));
        CHECK(cudaFree(d_values));
        CHECK(cudaFree(d_excl_sum));
        CHECK(cudaFree(d_incl_sum));
        CHECK(cudaFree(d_excl_max));
        CHECK(cudaFree(d_incl_max));
    }
    return 0;
}

// ---- DeviceSegmentedRadixSort --------------------------------------------------------------

static int test_segmented_radix_sort() {
    // Contiguous segments as offsets and offsets + 1, one of them empty and one of one item.
    for (int n : {0, 1, 1001, 4099}) {
        std::vector<int> keys = make_ints(n, 700 + n, -100000, 100000);
        std::vector<int> lengths = make_lengths(n, 710 + n);
        const int segments = int(lengths.size());
        std::vector<int> offsets(1, 0);
        for (int len : lengths) offsets.push_back(offsets.back() + len);

        int *d_keys_in, *d_keys_out, *d_keys_desc, *d_offsets;
        CHECK(to_device(&d_keys_in, keys));
        CHECK(to_device(&d_offsets, offsets));
        CHECK(cudaMalloc(&d_keys_out, std::max(n, 1) * sizeof(int)));
        CHECK(cudaMalloc(&d_keys_desc, std::max(n, 1) * sizeof(int)));
        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceSegmentedRadixSort::SortKeys(temp, bytes, d_keys_in, d_keys_out, n,
                                                           segments, d_offsets, d_offsets + 1);
        }));
        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceSegmentedRadixSort::SortKeysDescending(
                temp, bytes, d_keys_in, d_keys_desc, n, segments, d_offsets, d_offsets + 1);
        }));
        std::vector<int> out(n), desc(n), want(keys), want_desc(keys);
        CHECK(to_host(out, d_keys_out));
        CHECK(to_host(desc, d_keys_desc));
        for (int s = 0; s < segments; ++s) {
            std::sort(want.begin() + offsets[s], want.begin() + offsets[s + 1]);
            std::sort(want_desc.begin() + offsets[s], want_desc.begin() + offsets[s + 1],
                      [](int a, int b) { return a > b; });
        }
        expect_equal(out, want, "DeviceSegmentedRadixSort::SortKeys sorts each segment of ints", n);
        expect_equal(
            desc, want_desc,
            "DeviceSegmentedRadixSort::SortKeysDescending sorts each segment, largest first", n);
        CHECK(cudaFree(d_keys_in));
        CHECK(cudaFree(d_keys_out));
        CHECK(cudaFree(d_keys_desc));
        CHECK(cudaFree(d_offsets));
    }

    // Pairs: keys with many repeats and their positions as values, so each segment's sort must be
    // stable. The segments have gaps between them, in separate begin and end arrays; CUB 3
    // documents that it neither reads nor writes an item outside every segment, so the outputs'
    // sentinels there must survive.
    for (int n : {1, 1001, 4099}) {
        std::vector<int> keys = make_ints(n, 720 + n, -40, 40);
        std::vector<int> lengths = make_lengths(n, 730 + n);
        const int segments = int(lengths.size());
        std::vector<int> gaps = make_ints(segments, 740 + n, 0, 3);
        std::vector<int> begins(segments), ends(segments);
        int at = 0;
        for (int s = 0; s < segments; ++s) {
            begins[s] = std::min(at, n);
            ends[s] = std::min(at + lengths[s], n);
            at = ends[s] + gaps[s];
        }
        std::vector<int> positions(n);
        for (int i = 0; i < n; ++i) positions[i] = i;

        int *d_keys_in, *d_keys_out, *d_values_in, *d_values_out, *d_begins, *d_ends;
        CHECK(to_device(&d_keys_in, keys));
        CHECK(to_device(&d_values_in, positions));
        CHECK(to_device(&d_keys_out, std::vector<int>(n, kSentinel)));
        CHECK(to_device(&d_values_out, std::vector<int>(n, kSentinel)));
        CHECK(to_device(&d_begins, begins));
        CHECK(to_device(&d_ends, ends));
        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceSegmentedRadixSort::SortPairs(temp, bytes, d_keys_in, d_keys_out,
                                                            d_values_in, d_values_out, n, segments,
                                                            d_begins, d_ends);
        }));
        std::vector<int> out_keys(n), out_values(n);
        CHECK(to_host(out_keys, d_keys_out));
        CHECK(to_host(out_values, d_values_out));

        std::vector<int> want_keys(n, kSentinel), want_values(n, kSentinel);
        for (int s = 0; s < segments; ++s) {
            std::vector<int> order;
            for (int i = begins[s]; i < ends[s]; ++i) order.push_back(i);
            std::stable_sort(order.begin(), order.end(),
                             [&](int a, int b) { return keys[a] < keys[b]; });
            for (size_t k = 0; k < order.size(); ++k) {
                want_keys[begins[s] + k] = keys[order[k]];
                want_values[begins[s] + k] = order[k];
            }
        }
        expect_equal(
            out_keys, want_keys,
            "DeviceSegmentedRadixSort::SortPairs sorts each segment's keys, the gaps untouched", n);
        expect_equal(
            out_values, want_values,
            "DeviceSegmentedRadixSort::SortPairs carries the values stably, the gaps untouched", n);
        CHECK(cudaFree(d_keys_in));
        CHECK(cudaFree(d_keys_out));
        CHECK(cudaFree(d_values_in));
        CHECK(cudaFree(d_values_out));
        CHECK(cudaFree(d_begins));
        CHECK(cudaFree(d_ends));
    }
    return 0;
}

// ---- DeviceMergeSort -----------------------------------------------------------------------

static bool ordered_by_abs(const std::vector<int>& v) {
    AbsGreater comes_before;
    for (size_t i = 1; i < v.size(); ++i)
        if (comes_before(v[i], v[i - 1])) return false;
    return true;
}

static bool same_items(std::vector<int> a, std::vector<int> b) {
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    return a == b;
}

static int test_merge_sort() {
    for (int n : {0, 1, 37, 1001, 4099}) {
        // -50 to 50: every absolute value comes many times, with both signs.
        std::vector<int> keys = make_ints(n, 800 + n, -50, 50);
        std::vector<int> positions(n);
        for (int i = 0; i < n; ++i) positions[i] = i;

        // The sorts work in place.
        int *d_keys, *d_pair_keys, *d_pair_values, *d_stable;
        CHECK(to_device(&d_keys, keys));
        CHECK(to_device(&d_pair_keys, keys));
        CHECK(to_device(&d_pair_values, positions));
        CHECK(to_device(&d_stable, keys));
        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceMergeSort::SortKeys(temp, bytes, d_keys, n, AbsGreater());
        }));
        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceMergeSort::SortPairs(temp, bytes, d_pair_keys, d_pair_values, n,
                                                   AbsGreater());
        }));
        CHECK(with_temp_storage([&](void* temp, size_t& bytes) {
            return cub::DeviceMergeSort::StableSortKeys(temp, bytes, d_stable, n, AbsGreater());
        }));
        std::vector<int> out(n), pair_keys(n), pair_values(n), stable(n);
        CHECK(to_host(out, d_keys));
        CHECK(to_host(pair_keys, d_pair_keys));
        CHECK(to_host(pair_values, d_pair_values));
        CHECK(to_host(stable, d_stable));

        // SortKeys and SortPairs promise no order among equivalent keys: only that the result is
        // ordered and holds the same items, and that each value still goes with its key.
        expect(
            ordered_by_abs(out) && same_items(out, keys),
            "DeviceMergeSort::SortKeys orders by absolute value, largest first, keeping every key",
            n);
        bool pairs_kept = same_items(pair_values, positions);
        for (int i = 0; i < n && pairs_kept; ++i) pairs_kept = keys[pair_values[i]] == pair_keys[i];
        expect(ordered_by_abs(pair_keys) && pairs_kept,
               "DeviceMergeSort::SortPairs orders the keys and each value goes with its key", n);

        std::vector<int> want(keys);
        std::stable_sort(want.begin(), want.end(), AbsGreater());
        expect_equal(stable, want,
                     "DeviceMergeSort::StableSortKeys keeps -x and x in the order they came", n);
        CHECK(cudaFree(d_keys));
        CHECK(cudaFree(d_pair_keys));
        CHECK(cudaFree(d_pair_values));
        CHECK(cudaFree(d_stable));
    }
    return 0;
}

int main() {
    int err = 0;
    err |= test_partition();
    err |= test_run_length_encode();
    err |= test_segmented_reduce();
    err |= test_reduce_by_key();
    err |= test_scan_by_key();
    err |= test_segmented_radix_sort();
    err |= test_merge_sort();
    if (err || failures) {
        if (failures) std::printf("FAILED: %d check(s)\n", failures);
        return 1;
    }
    std::printf("PASS\n");
    return 0;
}
