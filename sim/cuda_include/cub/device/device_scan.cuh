// <cub/device/device_scan.cuh> in a simulator build: cub::DeviceScan over simt's checked kernels
// (sim/include/simt/sim/library/cub_device.hpp); d_in may be d_out (in place).
#pragma once
#include <cuda_runtime.h>
#include <simt/sim/library/cub_device.hpp>
#include <cub/thread/thread_operators.cuh>

namespace cub {

struct DeviceScan {
    template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
    static cudaError_t ExclusiveSum(void* d_temp_storage, size_t& temp_storage_bytes,
                                    InputIteratorT d_in, OutputIteratorT d_out,
                                    NumItemsT num_items, cudaStream_t stream = 0, bool = false,
                                    detail::Loc site = detail::Loc::current()) {
        using T = std::decay_t<decltype(d_in[0])>;
        return ::simt::sim::detail::cub_device::scan<T, true>(
            d_temp_storage, temp_storage_bytes, d_in, d_out, static_cast<long long>(num_items),
            cub::Sum{}, T(0), stream, {site, "cub::DeviceScan::ExclusiveSum"});
    }
    template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
    static cudaError_t InclusiveSum(void* d_temp_storage, size_t& temp_storage_bytes,
                                    InputIteratorT d_in, OutputIteratorT d_out,
                                    NumItemsT num_items, cudaStream_t stream = 0, bool = false,
                                    detail::Loc site = detail::Loc::current()) {
        using T = std::decay_t<decltype(d_in[0])>;
        return ::simt::sim::detail::cub_device::scan<T, false>(
            d_temp_storage, temp_storage_bytes, d_in, d_out, static_cast<long long>(num_items),
            cub::Sum{}, T(0), stream, {site, "cub::DeviceScan::InclusiveSum"});
    }
    template <typename InputIteratorT, typename OutputIteratorT, typename ScanOpT,
              typename InitValueT, typename NumItemsT>
    static cudaError_t ExclusiveScan(void* d_temp_storage, size_t& temp_storage_bytes,
                                     InputIteratorT d_in, OutputIteratorT d_out, ScanOpT scan_op,
                                     InitValueT init_value, NumItemsT num_items,
                                     cudaStream_t stream = 0, bool = false,
                                     detail::Loc site = detail::Loc::current()) {
        using Accum = std::decay_t<decltype(scan_op(init_value, d_in[0]))>;
        return ::simt::sim::detail::cub_device::scan<Accum, true>(
            d_temp_storage, temp_storage_bytes, d_in, d_out, static_cast<long long>(num_items),
            scan_op, Accum(init_value), stream, {site, "cub::DeviceScan::ExclusiveScan"});
    }
    template <typename InputIteratorT, typename OutputIteratorT, typename ScanOpT,
              typename NumItemsT>
    static cudaError_t InclusiveScan(void* d_temp_storage, size_t& temp_storage_bytes,
                                     InputIteratorT d_in, OutputIteratorT d_out, ScanOpT scan_op,
                                     NumItemsT num_items, cudaStream_t stream = 0, bool = false,
                                     detail::Loc site = detail::Loc::current()) {
        using T = std::decay_t<decltype(d_in[0])>;
        return ::simt::sim::detail::cub_device::scan<T, false>(
            d_temp_storage, temp_storage_bytes, d_in, d_out, static_cast<long long>(num_items),
            scan_op, T(), stream, {site, "cub::DeviceScan::InclusiveScan"});
    }
};

}  // namespace cub
