// The kernels behind simt's CUB device-wide algorithms (<cub/device/*.cuh>): plain CUDA kernels
// over the program's iterators, compiled in its translation unit, so that every element they read
// or write is checked like the program's own, and a report names the program's call
// ("in cub::DeviceScan::ExclusiveSum called at scan.cu:31").
//
// Each algorithm is reduce-then-scan over tiles of 1024 items (256 threads x 4), with CUB's
// block collectives in the block's dynamic shared memory, and a result that does not depend on
// the schedule (every partial result is combined in a fixed order). CUB's two-phase use of
// temporary storage is kept: a null d_temp_storage asks for the bytes, and too few bytes is
// cudaErrorInvalidValue, with a message.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp> and <cub/cub.cuh>, not the simulator's headers"
#endif
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/util_type.cuh>

#include <algorithm>
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "simt/sim/api/launch_api.hpp"
#include "simt/sim/library/cub_types.hpp"
#include "simt/sim/location.hpp"

namespace simt::sim::detail::cub_device {

inline constexpr int threads = 256;
inline constexpr int items = 4;
inline constexpr long long tile = threads * items;
/// Blocks of the reductions: enough for every worker, few enough that their partial results are
/// combined by one block.
inline constexpr long long max_blocks = 1024;

inline long long tiles_for(long long n) { return n <= 0 ? 0 : (n + tile - 1) / tile; }

/// Carves `d_temp` into sections of `sizes` bytes (each 256-byte aligned, as CUB's), or, when
/// `d_temp` is null, says how many bytes that takes (at least 1, so that cudaMalloc gives a
/// pointer). Returns cudaErrorInvalidValue when `bytes` is too few.
template <int N>
cudaError_t carve(void* d_temp, std::size_t& bytes, const std::size_t (&sizes)[N],
                  void* (&sections)[N], LibraryCall call) {
    std::size_t offsets[N], total = 0;
    for (int i = 0; i < N; ++i) {
        offsets[i] = total;
        total += (sizes[i] + 255) / 256 * 256;
    }
    if (total == 0) total = 1;
    if (!d_temp) {
        bytes = total;
        return cudaSuccess;
    }
    if (bytes < total)
        return cuda_fail(cudaErrorInvalidValue,
                         std::string(call.function) + " at " + call.site.file_name() + ":" +
                             std::to_string(call.site.line()) + " was given " +
                             std::to_string(bytes) + " bytes of temporary storage and needs " +
                             std::to_string(total) +
                             ": call it first with d_temp_storage = nullptr to learn the size");
    for (int i = 0; i < N; ++i) sections[i] = static_cast<char*>(d_temp) + offsets[i];
    return cudaSuccess;
}

/// Queues `body` (one CUDA thread's work) on `stream`, its launch site the program's call.
template <class F>
void launch(long long blocks, int block, std::size_t shared_bytes, cudaStream_t stream,
            LibraryCall call, F&& body) {
    simt::detail::cuda_launch(dim3(static_cast<unsigned>(blocks)), dim3(block), shared_bytes,
                              stream, library_call_site(call.site, call.function))(
        std::forward<F>(body));
}

template <class Collective>
typename Collective::TempStorage& shared_temp() {
    return *extern_shared<typename Collective::TempStorage>();
}

/// What a thread of block b reads in a grid of `grid` blocks over n items: item k of tiles b,
/// b + grid, ..., at tile * 1024 + k * 256 + threadIdx.x. Calls f(i) in that order.
template <class F>
void for_each_item(long long n, long long grid, F f) {
    for (long long t = blockIdx.x; t * tile < n; t += grid)
        for (int k = 0; k < items; ++k) {
            long long i = t * tile + k * threads + threadIdx.x;
            if (i < n) f(i);
        }
}

/// op over in[0..n) into *out, after `init` (op(init, reduction)); init alone when n is 0. Items
/// are converted to Accum (the algorithm's accumulator_t) before op sees them, as CUB loads them.
template <class Accum, class In, class Out, class Op, class Init>
cudaError_t reduce(void* d_temp, std::size_t& bytes, In in, Out out, long long n, Op op,
                   Init init, cudaStream_t stream, LibraryCall call) {
    using BR = cub::BlockReduce<Accum, threads>;
    long long grid = std::min(tiles_for(n), max_blocks);
    const std::size_t sizes[1] = {sizeof(Accum) * static_cast<std::size_t>(grid)};
    void* sections[1];
    if (cudaError_t e = carve(d_temp, bytes, sizes, sections, call); e != cudaSuccess || !d_temp)
        return e;
    if (cudaError_t e = cuda_sticky_error(); e != cudaSuccess) return e;
    Accum* partial = static_cast<Accum*>(sections[0]);
    if (n <= 0) {
        launch(1, 1, 0, stream, call, [=] { *out = init; });
        return cudaSuccess;
    }
    launch(grid, threads, sizeof(typename BR::TempStorage), stream, call, [=] {
        Accum sum{};
        bool any = false;
        for_each_item(n, grid, [&](long long i) {
            sum = any ? Accum(op(sum, Accum(in[i]))) : Accum(in[i]);
            any = true;
        });
        int valid = static_cast<int>(std::min<long long>(threads, n - blockIdx.x * tile));
        Accum total = BR(shared_temp<BR>()).Reduce(sum, op, valid);
        if (threadIdx.x == 0) partial[blockIdx.x] = total;
    });
    launch(1, threads, sizeof(typename BR::TempStorage), stream, call, [=] {
        Accum sum{};
        for (long long b = threadIdx.x; b < grid; b += threads)
            sum = b < threads ? partial[b] : Accum(op(sum, partial[b]));
        int valid = static_cast<int>(std::min<long long>(threads, grid));
        Accum total = BR(shared_temp<BR>()).Reduce(sum, op, valid);
        if (threadIdx.x == 0) *out = op(init, total);
    });
    return cudaSuccess;
}

/// The prefix every tile's outputs start from: `init` (an exclusive scan's initial value) or,
/// for an inclusive scan's tile 0, nothing.
template <class Accum>
struct TilePrefix {
    Accum value;
    __forceinline__ Accum operator()(const Accum&) const { return value; }
};

/// A scan of in[0..n) into out[0..n) (in place when in == out): tile totals, their exclusive scan
/// on one thread, then each tile scanned from its prefix. `exclusive` scans start from `init`.
template <class Accum, bool exclusive, class In, class Out, class Op>
cudaError_t scan(void* d_temp, std::size_t& bytes, In in, Out out, long long n, Op op,
                 Accum init, cudaStream_t stream, LibraryCall call) {
    using BR = cub::BlockReduce<Accum, threads>;
    using BS = cub::BlockScan<Accum, threads>;
    long long tiles = tiles_for(n);
    const std::size_t sizes[2] = {sizeof(Accum) * static_cast<std::size_t>(tiles),
                                  sizeof(Accum) * static_cast<std::size_t>(tiles)};
    void* sections[2];
    if (cudaError_t e = carve(d_temp, bytes, sizes, sections, call); e != cudaSuccess || !d_temp)
        return e;
    if (cudaError_t e = cuda_sticky_error(); e != cudaSuccess) return e;
    if (n <= 0) return cudaSuccess;
    Accum* totals = static_cast<Accum*>(sections[0]);
    Accum* prefixes = static_cast<Accum*>(sections[1]);

    // The tile's items in a blocked arrangement; past the end, copies of the tile's first item
    // (any op may take them; their results are never stored).
    auto load = [=](Accum (&v)[items], int& valid) {
        long long base = blockIdx.x * tile;
        valid = static_cast<int>(std::min<long long>(tile, n - base));
        Accum first = Accum(in[base]);
        for (int k = 0; k < items; ++k) {
            int at = static_cast<int>(threadIdx.x) * items + k;
            v[k] = at < valid ? Accum(in[base + at]) : first;
        }
    };
    launch(tiles, threads, sizeof(typename BR::TempStorage), stream, call, [=] {
        Accum v[items];
        int valid;
        load(v, valid);
        int mine = std::clamp(valid - static_cast<int>(threadIdx.x) * items, 0, items);
        Accum sum = v[0];
        for (int k = 1; k < mine; ++k) sum = op(sum, v[k]);
        int threads_valid = (valid + items - 1) / items;
        Accum total = BR(shared_temp<BR>()).Reduce(sum, op, threads_valid);
        if (threadIdx.x == 0) totals[blockIdx.x] = total;
    });
    launch(1, 1, 0, stream, call, [=] {
        Accum running = init;
        for (long long t = 0; t < tiles; ++t) {
            if (exclusive || t > 0) prefixes[t] = running;
            running = (exclusive || t > 0) ? Accum(op(running, totals[t])) : totals[t];
        }
    });
    launch(tiles, threads, sizeof(typename BS::TempStorage), stream, call, [=] {
        Accum v[items];
        int valid;
        load(v, valid);
        BS scan(shared_temp<BS>());
        if (!exclusive && blockIdx.x == 0) {
            scan.InclusiveScan(v, v, op);
        } else {
            TilePrefix<Accum> prefix{prefixes[blockIdx.x]};
            if constexpr (exclusive)
                scan.ExclusiveScan(v, v, op, prefix);
            else
                scan.InclusiveScan(v, v, op, prefix);
        }
        long long base = blockIdx.x * tile;
        for (int k = 0; k < items; ++k) {
            int at = static_cast<int>(threadIdx.x) * items + k;
            if (at < valid) out[base + at] = v[k];
        }
    });
    return cudaSuccess;
}

/// A stable compaction: the items i of in[0..n) for which selected(i), in order, to out, and
/// their count to *num_selected.
template <class In, class Out, class Count, class Selected>
cudaError_t select(void* d_temp, std::size_t& bytes, In in, Out out, Count num_selected,
                   long long n, Selected selected, cudaStream_t stream, LibraryCall call) {
    using BR = cub::BlockReduce<int, threads>;
    using BS = cub::BlockScan<int, threads>;
    long long tiles = tiles_for(n);
    const std::size_t sizes[2] = {sizeof(long long) * static_cast<std::size_t>(tiles),
                                  sizeof(long long) * static_cast<std::size_t>(tiles)};
    void* sections[2];
    if (cudaError_t e = carve(d_temp, bytes, sizes, sections, call); e != cudaSuccess || !d_temp)
        return e;
    if (cudaError_t e = cuda_sticky_error(); e != cudaSuccess) return e;
    // The count is a number of items, written in the type num_selected holds.
    using CountT = output_t<Count, long long>;
    if (n <= 0) {
        launch(1, 1, 0, stream, call, [=] { *num_selected = CountT(0); });
        return cudaSuccess;
    }
    long long* counts = static_cast<long long*>(sections[0]);
    long long* offsets = static_cast<long long*>(sections[1]);
    // The thread's items (blocked) that are selected, as bits.
    auto flags = [=] {
        unsigned bits = 0;
        long long base = blockIdx.x * tile + threadIdx.x * items;
        for (int k = 0; k < items; ++k)
            if (base + k < n && selected(base + k)) bits |= 1u << k;
        return bits;
    };
    launch(tiles, threads, sizeof(typename BR::TempStorage), stream, call, [=] {
        int total = BR(shared_temp<BR>()).Sum(__builtin_popcount(flags()));
        if (threadIdx.x == 0) counts[blockIdx.x] = total;
    });
    launch(1, 1, 0, stream, call, [=] {
        long long running = 0;
        for (long long t = 0; t < tiles; ++t) {
            offsets[t] = running;
            running += counts[t];
        }
        *num_selected = CountT(running);
    });
    launch(tiles, threads, sizeof(typename BS::TempStorage), stream, call, [=] {
        unsigned bits = flags();
        int before;
        BS(shared_temp<BS>()).ExclusiveSum(__builtin_popcount(bits), before);
        long long at = offsets[blockIdx.x] + before;
        long long base = blockIdx.x * tile + threadIdx.x * items;
        for (int k = 0; k < items; ++k)
            if (bits & (1u << k)) out[at++] = in[base + k];
    });
    return cudaSuccess;
}

inline constexpr int radix_bits = 8;
inline constexpr int radix_digits = 1 << radix_bits;

/// One stable pass of the radix sort over bits [bit, bit + count) of the keys: per-tile digit
/// counts (shared-memory atomics), their exclusive scan digit-major on one thread, then each
/// tile's items scattered in order by one thread of its own.
template <class Key, class Value>
void radix_pass(const Key* keys_in, Key* keys_out, const Value* values_in, Value* values_out,
                long long n, int bit, int count, bool descending, unsigned* counts,
                cudaStream_t stream, LibraryCall call) {
    long long tiles = tiles_for(n);
    launch(tiles, radix_digits, radix_digits * sizeof(unsigned), stream, call, [=] {
        unsigned* histogram = extern_shared<unsigned>();
        histogram[threadIdx.x] = 0;
        __syncthreads();
        for (int k = 0; k < items; ++k) {
            long long i = blockIdx.x * tile + k * radix_digits + threadIdx.x;
            if (i >= n) continue;
            atomicAdd(&histogram[cub::detail::radix_digit(keys_in[i], bit, count, descending)], 1u);
        }
        __syncthreads();
        counts[threadIdx.x * tiles + blockIdx.x] = histogram[threadIdx.x];
    });
    launch(1, 1, 0, stream, call, [=] {
        unsigned running = 0;
        for (long long c = 0; c < radix_digits * tiles; ++c) {
            unsigned here = counts[c];
            counts[c] = running;
            running += here;
        }
    });
    launch(tiles, 1, 0, stream, call, [=] {
        long long end = std::min(n, (blockIdx.x + 1) * tile);
        for (long long i = blockIdx.x * tile; i < end; ++i) {
            unsigned d = cub::detail::radix_digit(keys_in[i], bit, count, descending);
            unsigned at = counts[d * tiles + blockIdx.x]++;
            keys_out[at] = keys_in[i];
            if (values_in) values_out[at] = values_in[i];
        }
    });
}

/// Sorts n keys (and values, when values_in is not null) by bits [begin_bit, end_bit). With
/// `double_buffer`, keys and values ping-pong between their two buffers and `selector` ends where
/// the result is; otherwise the result lands in keys_out and values_out, through buffers in the
/// temporary storage.
template <class Key, class Value>
cudaError_t radix_sort(void* d_temp, std::size_t& bytes, cub::DoubleBuffer<Key>& keys,
                       cub::DoubleBuffer<Value>& values, bool with_values, bool double_buffer,
                       long long n, int begin_bit, int end_bit, bool descending,
                       cudaStream_t stream, LibraryCall call) {
    long long tiles = tiles_for(n);
    std::size_t key_bytes = double_buffer ? 0 : sizeof(Key) * static_cast<std::size_t>(n);
    std::size_t value_bytes =
        double_buffer || !with_values ? 0 : sizeof(Value) * static_cast<std::size_t>(n);
    const std::size_t sizes[3] = {
        sizeof(unsigned) * radix_digits * static_cast<std::size_t>(tiles), key_bytes, value_bytes};
    void* sections[3];
    if (cudaError_t e = carve(d_temp, bytes, sizes, sections, call); e != cudaSuccess || !d_temp)
        return e;
    if (cudaError_t e = cuda_sticky_error(); e != cudaSuccess) return e;
    if (begin_bit < 0 || end_bit > static_cast<int>(sizeof(Key) * 8) || begin_bit > end_bit)
        return cuda_fail(cudaErrorInvalidValue,
                         std::string(call.function) + " at " + call.site.file_name() + ":" +
                             std::to_string(call.site.line()) + " was given bits [" +
                             std::to_string(begin_bit) + ", " + std::to_string(end_bit) +
                             "), outside the key's " + std::to_string(sizeof(Key) * 8) + " bits");
    if (n <= 0) return cudaSuccess;
    int passes = (end_bit - begin_bit + radix_bits - 1) / radix_bits;
    unsigned* counts = static_cast<unsigned*>(sections[0]);
    Key* key_temp = static_cast<Key*>(sections[1]);
    Value* value_temp = static_cast<Value*>(sections[2]);
    // The copying form reads the program's input first and ends in its output: pass p writes
    // the output when passes - 1 - p is even, the temporary buffer otherwise.
    const Key* key_src = keys.Current();
    const Value* value_src = with_values ? values.Current() : nullptr;
    if (!double_buffer && passes == 0) {
        Key* key_dst = keys.Alternate();
        Value* value_dst = values.Alternate();
        launch(tiles, threads, 0, stream, call, [=] {
            for_each_item(n, tiles, [&](long long i) {
                key_dst[i] = key_src[i];
                if (value_src) value_dst[i] = value_src[i];
            });
        });
        return cudaSuccess;
    }
    for (int p = 0; p < passes; ++p) {
        int bit = begin_bit + p * radix_bits;
        int count = std::min(radix_bits, end_bit - bit);
        Key* key_dst;
        Value* value_dst;
        if (double_buffer) {
            key_dst = keys.Alternate();
            value_dst = with_values ? values.Alternate() : nullptr;
        } else {
            bool to_output = (passes - 1 - p) % 2 == 0;
            key_dst = to_output ? keys.Alternate() : key_temp;
            value_dst = with_values ? (to_output ? values.Alternate() : value_temp) : nullptr;
        }
        radix_pass(key_src, key_dst, value_src, value_dst, n, bit, count, descending, counts,
                   stream, call);
        key_src = key_dst;
        value_src = value_dst;
        if (double_buffer) {
            keys.selector ^= 1;
            if (with_values) values.selector ^= 1;
        }
    }
    return cudaSuccess;
}

/// Counts of samples per bin into histogram[0..bins): zeroed, then each block's counts kept in
/// shared memory (when they fit) and added to the histogram with atomics.
template <class Samples, class Counter, class BinOf>
cudaError_t histogram(void* d_temp, std::size_t& bytes, Samples samples, Counter* histogram,
                      int bins, long long n, BinOf bin_of, cudaStream_t stream,
                      LibraryCall call) {
    const std::size_t sizes[1] = {0};
    void* sections[1];
    if (cudaError_t e = carve(d_temp, bytes, sizes, sections, call); e != cudaSuccess || !d_temp)
        return e;
    if (cudaError_t e = cuda_sticky_error(); e != cudaSuccess) return e;
    if (bins < 1)
        return cuda_fail(cudaErrorInvalidValue,
                         std::string(call.function) + " at " + call.site.file_name() + ":" +
                             std::to_string(call.site.line()) +
                             " was given fewer than 2 levels: num_levels is the number of bin "
                             "boundaries, one more than the bins");
    launch((bins + threads - 1) / threads, threads, 0, stream, call, [=] {
        int b = blockIdx.x * threads + threadIdx.x;
        if (b < bins) histogram[b] = Counter(0);
    });
    if (n <= 0) return cudaSuccess;
    long long grid = std::min(tiles_for(n), max_blocks);
    bool privatized = bins * sizeof(unsigned) <= 32 * 1024;
    launch(grid, threads, privatized ? bins * sizeof(unsigned) : 0, stream, call, [=] {
        unsigned* local = privatized ? extern_shared<unsigned>() : nullptr;
        if (privatized) {
            for (int b = threadIdx.x; b < bins; b += threads) local[b] = 0;
            __syncthreads();
        }
        for_each_item(n, grid, [&](long long i) {
            int b = bin_of(samples[i]);
            if (b < 0) return;
            if (privatized)
                atomicAdd(&local[b], 1u);
            else
                atomicAdd(&histogram[b], Counter(1));
        });
        if (privatized) {
            __syncthreads();
            for (int b = threadIdx.x; b < bins; b += threads)
                if (local[b]) atomicAdd(&histogram[b], Counter(local[b]));
        }
    });
    return cudaSuccess;
}

// --- Runs, segments and keys ------------------------------------------------------------------
// The algorithms over runs of equal keys find the runs' heads first (a stable compaction of the
// indices i where a run starts, with select above), then give each run, or each segment, a thread
// of its own that walks it in order: parallel over runs and segments, and in a fixed order within
// each, so that results do not depend on the schedule.

/// The index i at position i: what select compacts to find the heads of runs.
struct Indices {
    __forceinline__ long long operator[](long long i) const { return i; }
};

/// Finds the heads of runs among n items (is_head(i)) into heads[], their number into *runs, then
/// calls then(heads, runs, extra) to queue what follows on the same stream. The temporary storage
/// holds select's own, the heads, their count and `more` bytes for the caller (`extra`); a null
/// d_temp asks for its size.
template <class IsHead, class Then>
cudaError_t with_heads(void* d_temp, std::size_t& bytes, long long n, IsHead is_head,
                       std::size_t more, cudaStream_t stream, LibraryCall call, Then then) {
    std::size_t select_bytes = 0;
    long long* none = nullptr;
    select(nullptr, select_bytes, Indices{}, none, none, n, is_head, stream, call);
    const std::size_t sizes[4] = {select_bytes,
                                  sizeof(long long) * static_cast<std::size_t>(n > 0 ? n : 1),
                                  sizeof(long long), more};
    void* sections[4];
    if (cudaError_t e = carve(d_temp, bytes, sizes, sections, call); e != cudaSuccess || !d_temp)
        return e;
    long long* heads = static_cast<long long*>(sections[1]);
    long long* runs = static_cast<long long*>(sections[2]);
    if (cudaError_t e = select(sections[0], select_bytes, Indices{}, heads, runs, n, is_head,
                               stream, call);
        e != cudaSuccess)
        return e;
    then(heads, runs, sections[3]);
    return cudaSuccess;
}

/// Runs body(j, first, end) for each run j of the heads found by with_heads, one thread each
/// (end: the next run's head, or n).
template <class Body>
void for_each_run(const long long* heads, const long long* runs, long long n, cudaStream_t stream,
                  LibraryCall call, Body body) {
    if (n <= 0) return;
    launch((n + threads - 1) / threads, threads, 0, stream, call, [=] {
        long long j = static_cast<long long>(blockIdx.x) * threads + threadIdx.x;
        long long count = *runs;
        if (j >= count) return;
        body(j, heads[j], j + 1 < count ? heads[j + 1] : n);
    });
}

/// Runs body(s) for each segment s < segments, one thread each.
template <class Body>
void for_each_segment(long long segments, cudaStream_t stream, LibraryCall call, Body body) {
    if (segments <= 0) return;
    launch((segments + threads - 1) / threads, threads, 0, stream, call, [=] {
        long long s = static_cast<long long>(blockIdx.x) * threads + threadIdx.x;
        if (s < segments) body(s);
    });
}

/// The answer to a temporary-storage query of an algorithm that needs none of its own.
inline cudaError_t no_temp(void* d_temp, std::size_t& bytes, LibraryCall call) {
    const std::size_t sizes[1] = {0};
    void* sections[1];
    return carve(d_temp, bytes, sizes, sections, call);
}

/// Sorts positions [first, end) of keys (and values) stably by `less`, on the thread that calls
/// it (a segment's, or a merge sort's one thread): read into the heap (a fiber's stack is small),
/// sorted, written back in order to keys_out (and values_out).
template <class KeysIn, class KeysOut, class ValuesIn, class ValuesOut, class Less>
void sort_range(KeysIn keys_in, KeysOut keys_out, ValuesIn values_in, ValuesOut values_out,
                bool with_values, long long first, long long end, Less less) {
    if (end <= first) return;
    using Key = std::decay_t<decltype(keys_in[0])>;
    std::vector<Key> keys;
    keys.reserve(static_cast<std::size_t>(end - first));
    for (long long i = first; i < end; ++i) keys.push_back(keys_in[i]);
    std::vector<long long> order(static_cast<std::size_t>(end - first));
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = static_cast<long long>(k);
    std::stable_sort(order.begin(), order.end(),
                     [&](long long a, long long b) { return less(keys[a], keys[b]); });
    if (with_values) {
        using Value = std::decay_t<decltype(values_in[0])>;
        std::vector<Value> values;
        values.reserve(order.size());
        for (long long i = first; i < end; ++i) values.push_back(values_in[i]);
        for (std::size_t k = 0; k < order.size(); ++k)
            values_out[first + static_cast<long long>(k)] = values[order[k]];
    }
    for (std::size_t k = 0; k < order.size(); ++k)
        keys_out[first + static_cast<long long>(k)] = keys[order[k]];
}

}  // namespace simt::sim::detail::cub_device
