// <cub/device/device_run_length_encode.cuh> in a simulator build: cub::DeviceRunLengthEncode
// over simt's checked kernels (sim/include/simt/sim/library/cub_device.hpp): the heads of runs
// of equal items, then a thread per run.
#pragma once
#include <cuda_runtime.h>
#include <simt/sim/library/cub_device.hpp>

namespace cub {

struct DeviceRunLengthEncode {
    // The types follow CUB's rules (the toolkit's cub/device/device_run_length_encode.cuh and
    // dispatch/dispatch_rle.cuh): a length is counted in the lengths' output value type (int
    // where that is void), offsets and the number of runs as int, each written in the type its
    // output holds. output_t is in simt/sim/library/cub_types.hpp.
    /// Each run's item and length, and the number of runs.
    template <typename InputIteratorT, typename UniqueOutputIteratorT,
              typename LengthsOutputIteratorT, typename NumRunsOutputIteratorT,
              typename NumItemsT>
    static cudaError_t Encode(void* d_temp_storage, size_t& temp_storage_bytes,
                              InputIteratorT d_in, UniqueOutputIteratorT d_unique_out,
                              LengthsOutputIteratorT d_counts_out,
                              NumRunsOutputIteratorT d_num_runs_out, NumItemsT num_items,
                              cudaStream_t stream = 0, bool = false,
                              detail::Loc site = detail::Loc::current()) {
        namespace device = ::simt::sim::detail::cub_device;
        const ::simt::sim::detail::LibraryCall call{site, "cub::DeviceRunLengthEncode::Encode"};
        const long long n = static_cast<long long>(num_items);
        using Length = device::output_t<LengthsOutputIteratorT, int>;
        using Count = device::output_t<NumRunsOutputIteratorT, int>;
        return device::with_heads(
            d_temp_storage, temp_storage_bytes, n,
            [=](long long i) { return i == 0 || !(d_in[i] == d_in[i - 1]); }, 0, stream, call,
            [&](const long long* heads, const long long* runs, void*) {
                device::launch(1, 1, 0, stream, call, [=] { *d_num_runs_out = Count(*runs); });
                device::for_each_run(heads, runs, n, stream, call,
                                     [=](long long j, long long first, long long end) {
                                         d_unique_out[j] = d_in[first];
                                         d_counts_out[j] = Length(end - first);
                                     });
            });
    }

    /// The offset and length of each run of more than one item, and how many there are.
    template <typename InputIteratorT, typename OffsetsOutputIteratorT,
              typename LengthsOutputIteratorT, typename NumRunsOutputIteratorT,
              typename NumItemsT>
    static cudaError_t NonTrivialRuns(void* d_temp_storage, size_t& temp_storage_bytes,
                                      InputIteratorT d_in, OffsetsOutputIteratorT d_offsets_out,
                                      LengthsOutputIteratorT d_lengths_out,
                                      NumRunsOutputIteratorT d_num_runs_out, NumItemsT num_items,
                                      cudaStream_t stream = 0, bool = false,
                                      detail::Loc site = detail::Loc::current()) {
        namespace device = ::simt::sim::detail::cub_device;
        const ::simt::sim::detail::LibraryCall call{site,
                                                    "cub::DeviceRunLengthEncode::NonTrivialRuns"};
        const long long n = static_cast<long long>(num_items);
        using Offset = device::output_t<OffsetsOutputIteratorT, int>;
        using Length = device::output_t<LengthsOutputIteratorT, int>;
        using Count = device::output_t<NumRunsOutputIteratorT, int>;
        return device::with_heads(
            d_temp_storage, temp_storage_bytes, n,
            [=](long long i) { return i == 0 || !(d_in[i] == d_in[i - 1]); }, 0, stream, call,
            [&](const long long* heads, const long long* runs, void*) {
                // The runs longer than one, in order, on one thread: a compaction of the runs.
                device::launch(1, 1, 0, stream, call, [=] {
                    long long kept = 0, count = *runs;
                    for (long long j = 0; j < count; ++j) {
                        long long end = j + 1 < count ? heads[j + 1] : n;
                        if (end - heads[j] < 2) continue;
                        d_offsets_out[kept] = Offset(heads[j]);
                        d_lengths_out[kept] = Length(end - heads[j]);
                        ++kept;
                    }
                    *d_num_runs_out = Count(kept);
                });
            });
    }
};

}  // namespace cub
