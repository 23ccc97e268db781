// <cub/device/device_histogram.cuh> in a simulator build: cub::DeviceHistogram's one-channel
// forms over simt's checked kernels (sim/include/simt/sim/library/cub_device.hpp). A sample
// outside [lower_level, upper_level) (or the levels' range) is counted nowhere, as in CUB.
#pragma once
#include <cuda_runtime.h>
#include <simt/sim/library/cub_device.hpp>

#include <type_traits>

namespace cub {

struct DeviceHistogram {
    // The types follow CUB's rules (the toolkit's cub/device/dispatch/dispatch_histogram.cuh):
    // counts are CounterT; HistogramEven compares and scales a sample in the common type of the
    // levels and the sample (value_t, simt/sim/library/cub_types.hpp), and HistogramRange
    // converts it to the levels' type before it searches them.

    /// num_levels - 1 bins of equal width between lower_level and upper_level, found as CUB
    /// finds them: for integers (sample - lower) * bins / (upper - lower) in 64 bits, otherwise
    /// (sample - lower) * (bins / (upper - lower)) in the common type.
    template <typename SampleIteratorT, typename CounterT, typename LevelT, typename OffsetT>
    static cudaError_t HistogramEven(void* d_temp_storage, size_t& temp_storage_bytes,
                                     SampleIteratorT d_samples, CounterT* d_histogram,
                                     int num_levels, LevelT lower_level, LevelT upper_level,
                                     OffsetT num_samples, cudaStream_t stream = 0, bool = false,
                                     detail::Loc site = detail::Loc::current()) {
        int bins = num_levels - 1;
        using Common =
            std::common_type_t<LevelT, ::simt::sim::detail::cub_device::value_t<SampleIteratorT>>;
        const Common lower = static_cast<Common>(lower_level);
        const Common upper = static_cast<Common>(upper_level);
        auto bin_of = [=](auto sample) -> int {
            const Common at = static_cast<Common>(sample);
            if (!(at >= lower && at < upper)) return -1;
            int b;
            if constexpr (std::is_integral_v<Common>)
                b = static_cast<int>(static_cast<unsigned long long>(at - lower) *
                                     static_cast<unsigned long long>(bins) /
                                     static_cast<unsigned long long>(upper - lower));
            else {
                const Common scale = static_cast<Common>(Common(bins) / (upper - lower));
                b = static_cast<int>((at - lower) * scale);
            }
            // Rounding may reach bins for a sample just below upper: it is the last bin's.
            return b < bins ? b : bins - 1;
        };
        return ::simt::sim::detail::cub_device::histogram(
            d_temp_storage, temp_storage_bytes, d_samples, d_histogram, bins,
            static_cast<long long>(num_samples), bin_of, stream,
            {site, "cub::DeviceHistogram::HistogramEven"});
    }

    /// num_levels - 1 bins between the ascending boundaries d_levels[0..num_levels) (device
    /// memory): bin b holds d_levels[b] <= sample < d_levels[b + 1].
    template <typename SampleIteratorT, typename CounterT, typename LevelT, typename OffsetT>
    static cudaError_t HistogramRange(void* d_temp_storage, size_t& temp_storage_bytes,
                                      SampleIteratorT d_samples, CounterT* d_histogram,
                                      int num_levels, const LevelT* d_levels,
                                      OffsetT num_samples, cudaStream_t stream = 0, bool = false,
                                      detail::Loc site = detail::Loc::current()) {
        int bins = num_levels - 1;
        auto bin_of = [=](auto sample) -> int {
            int lo = 0, hi = num_levels;  // the first level greater than the sample
            while (lo < hi) {
                int mid = (lo + hi) / 2;
                if (d_levels[mid] <= static_cast<LevelT>(sample)) lo = mid + 1; else hi = mid;
            }
            return lo == 0 || lo == num_levels ? -1 : lo - 1;
        };
        return ::simt::sim::detail::cub_device::histogram(
            d_temp_storage, temp_storage_bytes, d_samples, d_histogram, bins,
            static_cast<long long>(num_samples), bin_of, stream,
            {site, "cub::DeviceHistogram::HistogramRange"});
    }
};

}  // namespace cub
