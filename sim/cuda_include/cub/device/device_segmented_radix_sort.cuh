// <cub/device/device_segmented_radix_sort.cuh> in a simulator build:
// cub::DeviceSegmentedRadixSort, a thread per segment sorting it stably in CUB's key order by
// the bits [begin_bit, end_bit), over simt's checked kernels
// (sim/include/simt/sim/library/cub_device.hpp). Items outside every segment are not written.
#pragma once
#include <cuda_runtime.h>
#include <simt/sim/library/cub_device.hpp>

namespace cub {

struct DeviceSegmentedRadixSort {
#define SIMT_CUB_SEGMENTED_SORT(Suffix, descending)                                                \
    template <typename KeyT, typename ValueT, typename NumItemsT, typename BeginOffsetIteratorT,   \
              typename EndOffsetIteratorT>                                                         \
    static cudaError_t SortPairs##Suffix(void* d_temp_storage, size_t& temp_storage_bytes,         \
                                   const KeyT* d_keys_in, KeyT* d_keys_out,                        \
                                   const ValueT* d_values_in, ValueT* d_values_out,                \
                                   NumItemsT num_items, int num_segments,                          \
                                   BeginOffsetIteratorT d_begin_offsets,                           \
                                   EndOffsetIteratorT d_end_offsets, int begin_bit = 0,            \
                                   int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0,        \
                                   bool = false, detail::Loc site = detail::Loc::current()) {      \
        (void)num_items;                                                                           \
        return sort(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in,        \
                    d_values_out, true, num_segments, d_begin_offsets, d_end_offsets, begin_bit,   \
                    end_bit, descending, stream,                                                   \
                    {site, "cub::DeviceSegmentedRadixSort::SortPairs" #Suffix});                   \
    }                                                                                              \
    template <typename KeyT, typename NumItemsT, typename BeginOffsetIteratorT,                    \
              typename EndOffsetIteratorT>                                                         \
    static cudaError_t SortKeys##Suffix(void* d_temp_storage, size_t& temp_storage_bytes,          \
                                  const KeyT* d_keys_in, KeyT* d_keys_out, NumItemsT num_items,    \
                                  int num_segments, BeginOffsetIteratorT d_begin_offsets,          \
                                  EndOffsetIteratorT d_end_offsets, int begin_bit = 0,             \
                                  int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0,         \
                                  bool = false, detail::Loc site = detail::Loc::current()) {       \
        (void)num_items;                                                                           \
        const NullType* none = nullptr;                                                            \
        return sort(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, none,               \
                    const_cast<NullType*>(none), false, num_segments, d_begin_offsets,             \
                    d_end_offsets, begin_bit, end_bit, descending, stream,                         \
                    {site, "cub::DeviceSegmentedRadixSort::SortKeys" #Suffix});                    \
    }
    SIMT_CUB_SEGMENTED_SORT(, false)
    SIMT_CUB_SEGMENTED_SORT(Descending, true)
#undef SIMT_CUB_SEGMENTED_SORT

private:
    template <typename KeyT, typename ValueT, typename Begin, typename End>
    static cudaError_t sort(void* d_temp, size_t& bytes, const KeyT* keys_in, KeyT* keys_out,
                            const ValueT* values_in, ValueT* values_out, bool with_values,
                            int segments, Begin begin, End end, int begin_bit, int end_bit,
                            bool descending, cudaStream_t stream,
                            ::simt::sim::detail::LibraryCall call) {
        namespace device = ::simt::sim::detail::cub_device;
        if (cudaError_t e = device::no_temp(d_temp, bytes, call); e != cudaSuccess || !d_temp)
            return e;
        device::for_each_segment(segments, stream, call, [=](long long s) {
            device::sort_range(keys_in, keys_out, values_in, values_out, with_values, begin[s],
                               end[s], [=](const KeyT& a, const KeyT& b) {
                                   return detail::radix_less(a, b, begin_bit, end_bit,
                                                             descending);
                               });
        });
        return cudaSuccess;
    }
};

}  // namespace cub
