// <cub/device/device_histogram.cuh> in a simulator build: cub::DeviceHistogram's one-channel
// forms over simt's checked kernels (sim/include/simt/sim/library/cub_device.hpp). A sample
// outside [lower_level, upper_level) (or the levels' range) is counted nowhere, as in CUB.
#pragma once
#include <cuda_runtime.h>
#include <simt/sim/library/cub_device.hpp>

#include <cmath>

namespace cub {

struct DeviceHistogram {
    /// num_levels - 1 bins of equal width between lower_level and upper_level.
    template <typename SampleIteratorT, typename CounterT, typename LevelT, typename OffsetT>
    static cudaError_t HistogramEven(void* d_temp_storage, size_t& temp_storage_bytes,
                                     SampleIteratorT d_samples, CounterT* d_histogram,
                                     int num_levels, LevelT lower_level, LevelT upper_level,
                                     OffsetT num_samples, cudaStream_t stream = 0, bool = false,
                                     detail::Loc site = detail::Loc::current()) {
        int bins = num_levels - 1;
        auto bin_of = [=](auto sample) -> int {
            if (!(sample >= lower_level && sample < upper_level)) return -1;
            int b;
            if constexpr (std::is_integral_v<LevelT>)
                b = static_cast<int>((static_cast<long long>(sample) - lower_level) * bins /
                                     (static_cast<long long>(upper_level) - lower_level));
            else
                b = static_cast<int>(std::floor((static_cast<double>(sample) - lower_level) *
                                                bins / (static_cast<double>(upper_level) -
                                                        lower_level)));
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
                if (d_levels[mid] <= sample) lo = mid + 1; else hi = mid;
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
