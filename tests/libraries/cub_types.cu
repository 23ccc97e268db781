// CUB's device-wide algorithms on mixed types: each accumulates, starts and counts in the types
// CUB's headers give, not in its items' type. Bools summed into an int64_t count the non-zeros,
// int8_ts summed into int32s do not wrap at 127, halves reduced by a functor returning float keep
// float's precision, and a functor adding ints into a long long does not overflow. One case per
// algorithm, each with its two calls (the first asks how much temporary storage, the second
// runs), checked against a CPU loop that computes what CUB does.
// Prints ok or FAILED per check, then PASS, or FAILED: <count> check(s) and returns 1.
#include <cstdint>
#include <cstdio>
#include <vector>

#include <cub/cub.cuh>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "cub_checks.cuh"

// CUB 3 dropped TransformInputIterator for Thrust's transform_iterator; code written for every
// version picks the one its CUB has.
#if CUB_VERSION >= 300000
#include <thrust/iterator/transform_iterator.h>
template <typename Value, typename Op, typename It>
using TransformIterator = thrust::transform_iterator<Op, It, Value, Value>;
#else
template <typename Value, typename Op, typename It>
using TransformIterator = cub::TransformInputIterator<Value, Op, It>;
#endif

static const int kItems = 3000;  // several tiles of every algorithm

struct NonZero {
    __host__ __device__ bool operator()(const float& x) const { return x != 0.0f; }
};

// Its result is a float whatever it adds: halves reduced with it accumulate in float.
struct AddAsFloat {
    template <typename A, typename B>
    __host__ __device__ float operator()(const A& a, const B& b) const {
        return float(a) + float(b);
    }
};

// Its result is a long long whatever it adds: ints scanned with it accumulate in long long.
struct WideAdd {
    template <typename A, typename B>
    __host__ __device__ long long operator()(const A& a, const B& b) const {
        return static_cast<long long>(a) + static_cast<long long>(b);
    }
};

// a + b as C++ gives it: two int8_ts add to an int.
struct Add {
    template <typename A, typename B>
    __host__ __device__ auto operator()(const A& a, const B& b) const {
        return a + b;
    }
};

struct IsNegative {
    __host__ __device__ bool operator()(const int8_t& x) const { return x < 0; }
};

// A third of the items zero, the rest small integers of both signs.
static std::vector<float> make_floats() {
    std::vector<float> v(kItems);
    for (int i = 0; i < kItems; ++i) v[i] = i % 3 == 0 ? 0.0f : float(i % 7) - 3.0f;
    return v;
}

static std::vector<int8_t> make_int8s(int n, unsigned seed, int lo, int hi) {
    std::vector<int> ints = make_ints(n, seed, lo, hi);
    return std::vector<int8_t>(ints.begin(), ints.end());
}

// Multiples of 0.5 whose sum (2250) is past where half counts in halves (1024): summed in half
// it would round, summed in float it is exact in any order.
static std::vector<__half> make_halves() {
    std::vector<__half> v(kItems);
    for (int i = 0; i < kItems; ++i) v[i] = __float2half(0.5f * float(i % 4));
    return v;
}

// ---- DeviceReduce --------------------------------------------------------------------------

static int test_reduce() {
    std::vector<float> floats = make_floats();
    std::vector<int8_t> bytes = make_int8s(kItems, 7, -100, 100);
    bytes[1234] = -128;
    bytes[2345] = -128;  // the first of equal minima is the one found
    bytes[777] = 127;
    std::vector<__half> halves = make_halves();
    float* d_floats;
    int8_t* d_bytes;
    __half* d_halves;
    CHECK(to_device(&d_floats, floats));
    CHECK(to_device(&d_bytes, bytes));
    CHECK(to_device(&d_halves, halves));
    int64_t* d_count;
    float* d_float_sum;
    int* d_int_out;
    int64_t* d_index;
    cub::KeyValuePair<int, int>* d_pair;
    CHECK(cudaMalloc(&d_count, sizeof(int64_t)));
    CHECK(cudaMalloc(&d_float_sum, sizeof(float)));
    CHECK(cudaMalloc(&d_int_out, sizeof(int)));
    CHECK(cudaMalloc(&d_index, sizeof(int64_t)));
    CHECK(cudaMalloc(&d_pair, sizeof(cub::KeyValuePair<int, int>)));

    // Sum starts from the output's value type: bools summed into an int64_t are counted.
    TransformIterator<bool, NonZero, float*> flags(d_floats, NonZero());
    CHECK(with_temp_storage([&](void* t, size_t& b) {
        return cub::DeviceReduce::Sum(t, b, flags, d_count, kItems);
    }));
    int64_t count = 0, want_count = 0;
    for (float x : floats) want_count += x != 0.0f;
    CHECK(cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost));
    expect(count == want_count,
           "DeviceReduce::Sum of bools through a transform iterator into an int64_t counts the "
           "non-zeros");

    // Reduce accumulates in what op(init, item) gives: a float, for halves.
    CHECK(with_temp_storage([&](void* t, size_t& b) {
        return cub::DeviceReduce::Reduce(t, b, d_halves, d_float_sum, kItems, AddAsFloat(), 0.0f);
    }));
    float sum = 0.0f, want_sum = 0.0f;
    for (__half h : halves) want_sum += __half2float(h);
    CHECK(cudaMemcpy(&sum, d_float_sum, sizeof sum, cudaMemcpyDeviceToHost));
    expect(sum == want_sum,
           "DeviceReduce::Reduce of halves with a functor returning float sums them in float");

    // Max starts from the lowest of the items' type, and with no items that is the result: an
    // int8_t's -128, written to the int.
    int got = 0;
    CHECK(with_temp_storage([&](void* t, size_t& b) {
        return cub::DeviceReduce::Max(t, b, d_bytes, d_int_out, 0);
    }));
    CHECK(cudaMemcpy(&got, d_int_out, sizeof got, cudaMemcpyDeviceToHost));
    expect(got == -128, "DeviceReduce::Max of no int8_ts into an int gives the int8_t's lowest");
    CHECK(with_temp_storage([&](void* t, size_t& b) {
        return cub::DeviceReduce::Max(t, b, d_bytes, d_int_out, kItems);
    }));
    CHECK(cudaMemcpy(&got, d_int_out, sizeof got, cudaMemcpyDeviceToHost));
    expect(got == 127, "DeviceReduce::Max of int8_ts into an int gives their largest");

    // ArgMin writes the minimum in the type d_min_out holds and its index as an int64_t.
    CHECK(with_temp_storage([&](void* t, size_t& b) {
        return cub::DeviceReduce::ArgMin(t, b, d_bytes, d_int_out, d_index, kItems);
    }));
    int64_t index = 0;
    CHECK(cudaMemcpy(&got, d_int_out, sizeof got, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&index, d_index, sizeof index, cudaMemcpyDeviceToHost));
    expect(got == -128 && index == 1234,
           "DeviceReduce::ArgMin of int8_ts writes the first minimum to an int and its index to "
           "an int64_t");

    // CUB 1 and 2's ArgMax writes a KeyValuePair of d_out's type, the items converted to its
    // Value; with no items, {1, the lowest of the items' type}.
    cub::KeyValuePair<int, int> pair;
    CHECK(with_temp_storage([&](void* t, size_t& b) {
        return cub::DeviceReduce::ArgMax(t, b, d_bytes, d_pair, kItems);
    }));
    CHECK(cudaMemcpy(&pair, d_pair, sizeof pair, cudaMemcpyDeviceToHost));
    expect(pair.key == 777 && pair.value == 127,
           "DeviceReduce::ArgMax of int8_ts into a KeyValuePair<int, int> gives the first maximum");
    CHECK(with_temp_storage([&](void* t, size_t& b) {
        return cub::DeviceReduce::ArgMax(t, b, d_bytes, d_pair, 0);
    }));
    CHECK(cudaMemcpy(&pair, d_pair, sizeof pair, cudaMemcpyDeviceToHost));
    expect(pair.key == 1 && pair.value == -128,
           "DeviceReduce::ArgMax of no int8_ts gives {1, the int8_t's lowest}");

    CHECK(cudaFree(d_floats));
    CHECK(cudaFree(d_bytes));
    CHECK(cudaFree(d_halves));
    CHECK(cudaFree(d_count));
    CHECK(cudaFree(d_float_sum));
    CHECK(cudaFree(d_int_out));
    CHECK(cudaFree(d_index));
    CHECK(cudaFree(d_pair));
    return 0;
}

// ReduceByKey accumulates in what op(value, value) gives: int8_ts added by a + b, in int.
static int test_reduce_by_key() {
    const int run = 40, runs = kItems / run;
    std::vector<int> keys(kItems);
    for (int i = 0; i < kItems; ++i) keys[i] = i / run;
    std::vector<int8_t> values = make_int8s(kItems, 11, 50, 120);
    int* d_keys;
    int8_t* d_values;
    CHECK(to_device(&d_keys, keys));
    CHECK(to_device(&d_values, values));
    int *d_unique, *d_sums;
    int64_t* d_runs;
    CHECK(cudaMalloc(&d_unique, runs * sizeof(int)));
    CHECK(cudaMalloc(&d_sums, runs * sizeof(int)));
    CHECK(cudaMalloc(&d_runs, sizeof(int64_t)));
    CHECK(with_temp_storage([&](void* t, size_t& b) {
        return cub::DeviceReduce::ReduceByKey(t, b, d_keys, d_unique, d_values, d_sums, d_runs,
                                              Add(), kItems);
    }));
    std::vector<int> want(runs, 0), sums(runs);
    for (int i = 0; i < kItems; ++i) want[i / run] += values[i];
    int64_t got_runs = 0;
    CHECK(cudaMemcpy(&got_runs, d_runs, sizeof got_runs, cudaMemcpyDeviceToHost));
    CHECK(to_host(sums, d_sums));
    expect(got_runs == runs, "DeviceReduce::ReduceByKey writes its number of runs to an int64_t");
    expect_equal(sums, want,
                 "DeviceReduce::ReduceByKey adds int8_ts in int, past what an int8_t holds");
    CHECK(cudaFree(d_keys));
    CHECK(cudaFree(d_values));
    CHECK(cudaFree(d_unique));
    CHECK(cudaFree(d_sums));
    CHECK(cudaFree(d_runs));
    return 0;
}

// ---- DeviceScan ----------------------------------------------------------------------------

static int test_scan() {
    std::vector<float> floats = make_floats();
    std::vector<int8_t> bytes = make_int8s(kItems, 13, 0, 100);
    std::vector<__half> halves = make_halves();
    std::vector<int> bigs(kItems);
    for (int i = 0; i < kItems; ++i) bigs[i] = 1000000000 + i;
    float* d_floats;
    int8_t* d_bytes;
    __half* d_halves;
    int* d_bigs;
    CHECK(to_device(&d_floats, floats));
    CHECK(to_device(&d_bytes, bytes));
    CHECK(to_device(&d_halves, halves));
    CHECK(to_device(&d_bigs, bigs));
    int64_t* d_int64s;
    int* d_ints;
    float* d_float_out;
    long long* d_longs;
    CHECK(cudaMalloc(&d_int64s, kItems * sizeof(int64_t)));
    CHECK(cudaMalloc(&d_ints, kItems * sizeof(int)));
    CHECK(cudaMalloc(&d_float_out, kItems * sizeof(float)));
    CHECK(cudaMalloc(&d_longs, kItems * sizeof(long long)));

    // ExclusiveSum of bools adds them as bool + bool does, in int: each non-zero's rank.
    TransformIterator<bool, NonZero, float*> flags(d_floats, NonZero());
    CHECK(with_temp_storage([&](void* t, size_t& b) {
        return cub::DeviceScan::ExclusiveSum(t, b, flags, d_int64s, kItems);
    }));
    std::vector<int64_t> ranks(kItems), want_ranks(kItems);
    int64_t running = 0;
    for (int i = 0; i < kItems; ++i) {
        want_ranks[i] = running;
        running += floats[i] != 0.0f;
    }
    CHECK(to_host(ranks, d_int64s));
    expect_equal(ranks, want_ranks,
                 "DeviceScan::ExclusiveSum of bools through a transform iterator into int64_ts "
                 "ranks the non-zeros");

    // InclusiveSum of int8_ts adds them in int.
    CHECK(with_temp_storage([&](void* t, size_t& b) {
        return cub::DeviceScan::InclusiveSum(t, b, d_bytes, d_ints, kItems);
    }));
    std::vector<int> prefix(kItems), want_prefix(kItems);
    int total = 0;
    for (int i = 0; i < kItems; ++i) want_prefix[i] = total += bytes[i];
    CHECK(to_host(prefix, d_ints));
    expect_equal(prefix, want_prefix,
                 "DeviceScan::InclusiveSum of int8_ts into ints adds them in int");

    // ExclusiveScan accumulates in what op(init, item) gives: a float, for halves.
    CHECK(with_temp_storage([&](void* t, size_t& b) {
        return cub::DeviceScan::ExclusiveScan(t, b, d_halves, d_float_out, AddAsFloat(), 0.0f,
                                              kItems);
    }));
    std::vector<float> scanned(kItems), want_scanned(kItems);
    float acc = 0.0f;
    for (int i = 0; i < kItems; ++i) {
        want_scanned[i] = acc;
        acc += __half2float(halves[i]);
    }
    CHECK(to_host(scanned, d_float_out));
    expect_equal(scanned, want_scanned,
                 "DeviceScan::ExclusiveScan of halves with a functor returning float sums them in "
                 "float");

    // InclusiveScan accumulates in what op(item, item) gives: a long long, for ints.
    CHECK(with_temp_storage([&](void* t, size_t& b) {
        return cub::DeviceScan::InclusiveScan(t, b, d_bigs, d_longs, WideAdd(), kItems);
    }));
    std::vector<long long> wide(kItems), want_wide(kItems);
    long long wide_total = 0;
    for (int i = 0; i < kItems; ++i) want_wide[i] = wide_total += bigs[i];
    CHECK(to_host(wide, d_longs));
    expect_equal(wide, want_wide,
                 "DeviceScan::InclusiveScan of ints with a functor returning long long does not "
                 "overflow");

    CHECK(cudaFree(d_floats));
    CHECK(cudaFree(d_bytes));
    CHECK(cudaFree(d_halves));
    CHECK(cudaFree(d_bigs));
    CHECK(cudaFree(d_int64s));
    CHECK(cudaFree(d_ints));
    CHECK(cudaFree(d_float_out));
    CHECK(cudaFree(d_longs));
    return 0;
}

// The scans by key accumulate as the scans do: int8_ts summed in int, ints by WideAdd in long long.
static int test_scan_by_key() {
    const int run = 40;
    std::vector<int> keys(kItems), bigs(kItems);
    for (int i = 0; i < kItems; ++i) {
        keys[i] = i / run;
        bigs[i] = 2000000000 - i;
    }
    std::vector<int8_t> bytes = make_int8s(kItems, 17, 50, 120);
    int *d_keys, *d_bigs, *d_ints;
    int8_t* d_bytes;
    long long* d_longs;
    CHECK(to_device(&d_keys, keys));
    CHECK(to_device(&d_bigs, bigs));
    CHECK(to_device(&d_bytes, bytes));
    CHECK(cudaMalloc(&d_ints, kItems * sizeof(int)));
    CHECK(cudaMalloc(&d_longs, kItems * sizeof(long long)));

    CHECK(with_temp_storage([&](void* t, size_t& b) {
        return cub::DeviceScan::ExclusiveSumByKey(t, b, d_keys, d_bytes, d_ints, kItems);
    }));
    std::vector<int> sums(kItems), want_sums(kItems);
    int running = 0;
    for (int i = 0; i < kItems; ++i) {
        if (i % run == 0) running = 0;
        want_sums[i] = running;
        running += bytes[i];
    }
    CHECK(to_host(sums, d_ints));
    expect_equal(sums, want_sums,
                 "DeviceScan::ExclusiveSumByKey of int8_ts into ints adds each run in int");

    CHECK(with_temp_storage([&](void* t, size_t& b) {
        return cub::DeviceScan::InclusiveScanByKey(t, b, d_keys, d_bigs, d_longs, WideAdd(),
                                                   kItems);
    }));
    std::vector<long long> wide(kItems), want_wide(kItems);
    long long wide_running = 0;
    for (int i = 0; i < kItems; ++i) {
        if (i % run == 0) wide_running = 0;
        want_wide[i] = wide_running += bigs[i];
    }
    CHECK(to_host(wide, d_longs));
    expect_equal(wide, want_wide,
                 "DeviceScan::InclusiveScanByKey of ints with a functor returning long long does "
                 "not overflow");

    CHECK(cudaFree(d_keys));
    CHECK(cudaFree(d_bigs));
    CHECK(cudaFree(d_bytes));
    CHECK(cudaFree(d_ints));
    CHECK(cudaFree(d_longs));
    return 0;
}

// ---- DeviceSegmentedReduce ----------------------------------------------------------------

// Every segment starts from the output's value type: int8_ts summed into ints add in int, and
// Max of an empty segment is the int8_t's lowest, written to the int.
static int test_segmented_reduce() {
    const int segments = 30;
    std::vector<int8_t> bytes = make_int8s(kItems, 19, 60, 120);
    std::vector<int> begins(segments), ends(segments);
    for (int s = 0; s < segments; ++s) {
        begins[s] = s * 100;
        ends[s] = s % 7 == 3 ? begins[s] : begins[s] + 100;  // some segments empty
    }
    int8_t* d_bytes;
    int *d_begins, *d_ends, *d_out;
    CHECK(to_device(&d_bytes, bytes));
    CHECK(to_device(&d_begins, begins));
    CHECK(to_device(&d_ends, ends));
    CHECK(cudaMalloc(&d_out, segments * sizeof(int)));

    CHECK(with_temp_storage([&](void* t, size_t& b) {
        return cub::DeviceSegmentedReduce::Sum(t, b, d_bytes, d_out, segments, d_begins, d_ends);
    }));
    std::vector<int> got(segments), want(segments, 0);
    for (int s = 0; s < segments; ++s)
        for (int i = begins[s]; i < ends[s]; ++i) want[s] += bytes[i];
    CHECK(to_host(got, d_out));
    expect_equal(got, want,
                 "DeviceSegmentedReduce::Sum of int8_ts into ints adds each segment in int");

    CHECK(with_temp_storage([&](void* t, size_t& b) {
        return cub::DeviceSegmentedReduce::Max(t, b, d_bytes, d_out, segments, d_begins, d_ends);
    }));
    for (int s = 0; s < segments; ++s) {
        want[s] = -128;
        for (int i = begins[s]; i < ends[s]; ++i) want[s] = std::max<int>(want[s], bytes[i]);
    }
    CHECK(to_host(got, d_out));
    expect_equal(got, want,
                 "DeviceSegmentedReduce::Max of int8_ts into ints gives an empty segment the "
                 "int8_t's lowest");

    CHECK(cudaFree(d_bytes));
    CHECK(cudaFree(d_begins));
    CHECK(cudaFree(d_ends));
    CHECK(cudaFree(d_out));
    return 0;
}

// ---- DeviceRunLengthEncode ----------------------------------------------------------------

// Runs of int8_ts, some longer than an int8_t counts: the items written to ints, the lengths and
// the offsets to int64_ts, the numbers of runs to int64_ts.
static int test_run_length_encode() {
    std::vector<int8_t> items;
    std::vector<int> lengths = make_ints(60, 23, 1, 300);
    for (size_t r = 0; r < lengths.size() && int(items.size()) < kItems; ++r)
        for (int k = 0; k < lengths[r] && int(items.size()) < kItems; ++k)
            items.push_back(int8_t(r % 2 ? -int(r) : int(r)));
    const int n = int(items.size());
    int8_t* d_items;
    CHECK(to_device(&d_items, items));
    int* d_unique;
    int64_t *d_lengths, *d_offsets, *d_runs;
    CHECK(cudaMalloc(&d_unique, n * sizeof(int)));
    CHECK(cudaMalloc(&d_lengths, n * sizeof(int64_t)));
    CHECK(cudaMalloc(&d_offsets, n * sizeof(int64_t)));
    CHECK(cudaMalloc(&d_runs, sizeof(int64_t)));

    std::vector<int> want_unique;
    std::vector<int64_t> want_lengths, want_offsets, want_nontrivial;
    for (int i = 0; i < n; ++i) {
        if (i == 0 || items[i] != items[i - 1]) {
            want_unique.push_back(items[i]);
            want_lengths.push_back(0);
            want_offsets.push_back(i);
        }
        ++want_lengths.back();
    }
    std::vector<int64_t> want_nontrivial_offsets;
    for (size_t r = 0; r < want_lengths.size(); ++r)
        if (want_lengths[r] > 1) {
            want_nontrivial_offsets.push_back(want_offsets[r]);
            want_nontrivial.push_back(want_lengths[r]);
        }

    CHECK(with_temp_storage([&](void* t, size_t& b) {
        return cub::DeviceRunLengthEncode::Encode(t, b, d_items, d_unique, d_lengths, d_runs, n);
    }));
    int64_t runs = 0;
    CHECK(cudaMemcpy(&runs, d_runs, sizeof runs, cudaMemcpyDeviceToHost));
    std::vector<int> unique(want_unique.size());
    std::vector<int64_t> got_lengths(want_lengths.size());
    CHECK(to_host(unique, d_unique));
    CHECK(to_host(got_lengths, d_lengths));
    expect(runs == int64_t(want_unique.size()),
           "DeviceRunLengthEncode::Encode writes its number of runs to an int64_t");
    expect_equal(unique, want_unique, "DeviceRunLengthEncode::Encode writes int8_t runs to ints");
    expect_equal(got_lengths, want_lengths,
                 "DeviceRunLengthEncode::Encode writes lengths past an int8_t's to int64_ts");

    CHECK(with_temp_storage([&](void* t, size_t& b) {
        return cub::DeviceRunLengthEncode::NonTrivialRuns(t, b, d_items, d_offsets, d_lengths,
                                                          d_runs, n);
    }));
    CHECK(cudaMemcpy(&runs, d_runs, sizeof runs, cudaMemcpyDeviceToHost));
    std::vector<int64_t> offsets(want_nontrivial.size()), nontrivial(want_nontrivial.size());
    CHECK(to_host(offsets, d_offsets));
    CHECK(to_host(nontrivial, d_lengths));
    expect(runs == int64_t(want_nontrivial.size()),
           "DeviceRunLengthEncode::NonTrivialRuns writes its number of runs to an int64_t");
    expect_equal(offsets, want_nontrivial_offsets,
                 "DeviceRunLengthEncode::NonTrivialRuns writes offsets to int64_ts");
    expect_equal(nontrivial, want_nontrivial,
                 "DeviceRunLengthEncode::NonTrivialRuns writes lengths to int64_ts");

    CHECK(cudaFree(d_items));
    CHECK(cudaFree(d_unique));
    CHECK(cudaFree(d_lengths));
    CHECK(cudaFree(d_offsets));
    CHECK(cudaFree(d_runs));
    return 0;
}

// ---- DeviceSelect and DevicePartition -----------------------------------------------------

// int8_ts selected into ints, by bool flags from a transform iterator or by a functor, counted
// into int64_ts.
static int test_select_and_partition() {
    std::vector<float> floats = make_floats();
    std::vector<int8_t> bytes = make_int8s(kItems, 29, -128, 127);
    float* d_floats;
    int8_t* d_bytes;
    CHECK(to_device(&d_floats, floats));
    CHECK(to_device(&d_bytes, bytes));
    int* d_out;
    int64_t* d_count;
    CHECK(cudaMalloc(&d_out, kItems * sizeof(int)));
    CHECK(cudaMalloc(&d_count, sizeof(int64_t)));

    TransformIterator<bool, NonZero, float*> flags(d_floats, NonZero());
    CHECK(with_temp_storage([&](void* t, size_t& b) {
        return cub::DeviceSelect::Flagged(t, b, d_bytes, flags, d_out, d_count, kItems);
    }));
    std::vector<int> want;
    for (int i = 0; i < kItems; ++i)
        if (floats[i] != 0.0f) want.push_back(bytes[i]);
    int64_t count = 0;
    CHECK(cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost));
    std::vector<int> got(want.size());
    CHECK(to_host(got, d_out));
    expect(count == int64_t(want.size()),
           "DeviceSelect::Flagged by bools from a transform iterator counts into an int64_t");
    expect_equal(got, want, "DeviceSelect::Flagged writes the selected int8_ts to ints");

    CHECK(with_temp_storage([&](void* t, size_t& b) {
        return cub::DevicePartition::If(t, b, d_bytes, d_out, d_count, kItems, IsNegative());
    }));
    std::vector<int> want_parts(kItems);
    size_t front = 0, back = kItems;
    for (int i = 0; i < kItems; ++i) {
        if (bytes[i] < 0)
            want_parts[front++] = bytes[i];
        else
            want_parts[--back] = bytes[i];
    }
    std::vector<int> parts(kItems);
    CHECK(cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost));
    CHECK(to_host(parts, d_out));
    expect(count == int64_t(front), "DevicePartition::If counts the selected into an int64_t");
    expect_equal(parts, want_parts, "DevicePartition::If writes the int8_ts to ints");

    CHECK(cudaFree(d_floats));
    CHECK(cudaFree(d_bytes));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_count));
    return 0;
}

// ---- DeviceHistogram ----------------------------------------------------------------------

// HistogramEven bins int8_ts by int levels, in int (their common type); HistogramRange bins
// halves by float levels, each sample converted to float first.
static int test_histogram() {
    std::vector<int8_t> bytes = make_int8s(kItems, 31, -128, 127);
    std::vector<__half> halves(kItems);
    std::vector<float> half_values(kItems);
    for (int i = 0; i < kItems; ++i) {
        half_values[i] = 0.25f * float(i % 40) - 2.0f;  // -2 to 7.75, exact in half
        halves[i] = __float2half(half_values[i]);
    }
    int8_t* d_bytes;
    __half* d_halves;
    CHECK(to_device(&d_bytes, bytes));
    CHECK(to_device(&d_halves, halves));
    const int bins = 8;
    int* d_histogram;
    CHECK(cudaMalloc(&d_histogram, bins * sizeof(int)));

    // Bins of 20 between -100 and 60: the rest of the int8_t range is counted nowhere.
    CHECK(with_temp_storage([&](void* t, size_t& b) {
        return cub::DeviceHistogram::HistogramEven(t, b, d_bytes, d_histogram, bins + 1, -100, 60,
                                                   kItems);
    }));
    std::vector<int> got(bins), want(bins, 0);
    for (int8_t x : bytes)
        if (x >= -100 && x < 60) ++want[(x + 100) / 20];
    CHECK(to_host(got, d_histogram));
    expect_equal(got, want, "DeviceHistogram::HistogramEven bins int8_ts by int levels");

    std::vector<float> levels = {-1.5f, -1.0f, 0.0f, 0.5f, 1.0f, 2.5f, 4.0f, 6.0f, 7.0f};
    float* d_levels;
    CHECK(to_device(&d_levels, levels));
    CHECK(with_temp_storage([&](void* t, size_t& b) {
        return cub::DeviceHistogram::HistogramRange(t, b, d_halves, d_histogram, bins + 1,
                                                    d_levels, kItems);
    }));
    std::fill(want.begin(), want.end(), 0);
    for (float x : half_values)
        for (int k = 0; k < bins; ++k)
            if (x >= levels[k] && x < levels[k + 1]) ++want[k];
    CHECK(to_host(got, d_histogram));
    expect_equal(got, want, "DeviceHistogram::HistogramRange bins halves by float levels");

    CHECK(cudaFree(d_bytes));
    CHECK(cudaFree(d_halves));
    CHECK(cudaFree(d_histogram));
    CHECK(cudaFree(d_levels));
    return 0;
}

int main() {
    int err = 0;
    err |= test_reduce();
    err |= test_reduce_by_key();
    err |= test_scan();
    err |= test_scan_by_key();
    err |= test_segmented_reduce();
    err |= test_run_length_encode();
    err |= test_select_and_partition();
    err |= test_histogram();
    if (err || failures) {
        if (failures) std::printf("FAILED: %d check(s)\n", failures);
        return 1;
    }
    std::printf("PASS\n");
    return 0;
}
