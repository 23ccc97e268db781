// <cub/device/device_radix_sort.cuh> in a simulator build: cub::DeviceRadixSort (stable, by the
// keys' bits [begin_bit, end_bit), in CUB's order) over simt's checked kernels
// (sim/include/simt/sim/library/cub_device.hpp): 8-bit digit passes of per-tile counts, a scan
// and an ordered scatter. The DoubleBuffer forms may leave the result in either buffer: read it
// from Current().
#pragma once
#include <cuda_runtime.h>
#include <simt/sim/library/cub_device.hpp>

namespace cub {

struct DeviceRadixSort {
#define SIMT_CUB_SORT_PAIRS(Name, descending)                                                    \
    template <typename KeyT, typename ValueT, typename NumItemsT>                                 \
    static cudaError_t Name(void* d_temp_storage, size_t& temp_storage_bytes,                     \
                            const KeyT* d_keys_in, KeyT* d_keys_out, const ValueT* d_values_in,   \
                            ValueT* d_values_out, NumItemsT num_items, int begin_bit = 0,         \
                            int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0,              \
                            bool = false, detail::Loc site = detail::Loc::current()) {            \
        DoubleBuffer<KeyT> keys(const_cast<KeyT*>(d_keys_in), d_keys_out);                        \
        DoubleBuffer<ValueT> values(const_cast<ValueT*>(d_values_in), d_values_out);              \
        return ::simt::sim::detail::cub_device::radix_sort(                                       \
            d_temp_storage, temp_storage_bytes, keys, values, true, false,                        \
            static_cast<long long>(num_items), begin_bit, end_bit, descending, stream,            \
            {site, "cub::DeviceRadixSort::" #Name});                                              \
    }                                                                                             \
    template <typename KeyT, typename ValueT, typename NumItemsT>                                 \
    static cudaError_t Name(void* d_temp_storage, size_t& temp_storage_bytes,                     \
                            DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values,           \
                            NumItemsT num_items, int begin_bit = 0,                               \
                            int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0,              \
                            bool = false, detail::Loc site = detail::Loc::current()) {            \
        return ::simt::sim::detail::cub_device::radix_sort(                                       \
            d_temp_storage, temp_storage_bytes, d_keys, d_values, true, true,                     \
            static_cast<long long>(num_items), begin_bit, end_bit, descending, stream,            \
            {site, "cub::DeviceRadixSort::" #Name});                                              \
    }
#define SIMT_CUB_SORT_KEYS(Name, descending)                                                     \
    template <typename KeyT, typename NumItemsT>                                                  \
    static cudaError_t Name(void* d_temp_storage, size_t& temp_storage_bytes,                     \
                            const KeyT* d_keys_in, KeyT* d_keys_out, NumItemsT num_items,         \
                            int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,                    \
                            cudaStream_t stream = 0, bool = false,                                \
                            detail::Loc site = detail::Loc::current()) {                          \
        DoubleBuffer<KeyT> keys(const_cast<KeyT*>(d_keys_in), d_keys_out);                        \
        DoubleBuffer<NullType> values;                                                            \
        return ::simt::sim::detail::cub_device::radix_sort(                                       \
            d_temp_storage, temp_storage_bytes, keys, values, false, false,                       \
            static_cast<long long>(num_items), begin_bit, end_bit, descending, stream,            \
            {site, "cub::DeviceRadixSort::" #Name});                                              \
    }                                                                                             \
    template <typename KeyT, typename NumItemsT>                                                  \
    static cudaError_t Name(void* d_temp_storage, size_t& temp_storage_bytes,                     \
                            DoubleBuffer<KeyT>& d_keys, NumItemsT num_items, int begin_bit = 0,   \
                            int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0,              \
                            bool = false, detail::Loc site = detail::Loc::current()) {            \
        DoubleBuffer<NullType> values;                                                            \
        return ::simt::sim::detail::cub_device::radix_sort(                                       \
            d_temp_storage, temp_storage_bytes, d_keys, values, false, true,                      \
            static_cast<long long>(num_items), begin_bit, end_bit, descending, stream,            \
            {site, "cub::DeviceRadixSort::" #Name});                                              \
    }

    SIMT_CUB_SORT_PAIRS(SortPairs, false)
    SIMT_CUB_SORT_PAIRS(SortPairsDescending, true)
    SIMT_CUB_SORT_KEYS(SortKeys, false)
    SIMT_CUB_SORT_KEYS(SortKeysDescending, true)
#undef SIMT_CUB_SORT_PAIRS
#undef SIMT_CUB_SORT_KEYS
};

}  // namespace cub
