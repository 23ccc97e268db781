// <cub/device/device_select.cuh> in a simulator build: cub::DeviceSelect (stable compactions)
// over simt's checked kernels (sim/include/simt/sim/library/cub_device.hpp).
#pragma once
#include <cuda_runtime.h>
#include <simt/sim/library/cub_device.hpp>
#include <cub/thread/thread_operators.cuh>

namespace cub {

struct DeviceSelect {
    // The count follows CUB's rule (the toolkit's cub/device/device_select.cuh): counted in 64
    // bits and written in the type d_num_selected_out holds (the compaction in cub_device.hpp).
    /// The items whose flag is nonzero, in order.
    template <typename InputIteratorT, typename FlagIterator, typename OutputIteratorT,
              typename NumSelectedIteratorT, typename NumItemsT>
    static cudaError_t Flagged(void* d_temp_storage, size_t& temp_storage_bytes,
                               InputIteratorT d_in, FlagIterator d_flags, OutputIteratorT d_out,
                               NumSelectedIteratorT d_num_selected_out, NumItemsT num_items,
                               cudaStream_t stream = 0, bool = false,
                               detail::Loc site = detail::Loc::current()) {
        return ::simt::sim::detail::cub_device::select(
            d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected_out,
            static_cast<long long>(num_items),
            [=](long long i) { return static_cast<bool>(d_flags[i]); }, stream,
            {site, "cub::DeviceSelect::Flagged"});
    }
    /// The items for which select_op is true, in order.
    template <typename InputIteratorT, typename OutputIteratorT, typename NumSelectedIteratorT,
              typename NumItemsT, typename SelectOp>
    static cudaError_t If(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                          OutputIteratorT d_out, NumSelectedIteratorT d_num_selected_out,
                          NumItemsT num_items, SelectOp select_op, cudaStream_t stream = 0,
                          bool = false, detail::Loc site = detail::Loc::current()) {
        return ::simt::sim::detail::cub_device::select(
            d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected_out,
            static_cast<long long>(num_items),
            [=](long long i) { return static_cast<bool>(select_op(d_in[i])); }, stream,
            {site, "cub::DeviceSelect::If"});
    }
    /// The first item of each run of equal items.
    template <typename InputIteratorT, typename OutputIteratorT, typename NumSelectedIteratorT,
              typename NumItemsT>
    static cudaError_t Unique(void* d_temp_storage, size_t& temp_storage_bytes,
                              InputIteratorT d_in, OutputIteratorT d_out,
                              NumSelectedIteratorT d_num_selected_out, NumItemsT num_items,
                              cudaStream_t stream = 0, bool = false,
                              detail::Loc site = detail::Loc::current()) {
        return ::simt::sim::detail::cub_device::select(
            d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected_out,
            static_cast<long long>(num_items),
            [=](long long i) { return i == 0 || !(d_in[i] == d_in[i - 1]); }, stream,
            {site, "cub::DeviceSelect::Unique"});
    }
};

}  // namespace cub
