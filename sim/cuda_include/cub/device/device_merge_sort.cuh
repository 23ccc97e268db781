// <cub/device/device_merge_sort.cuh> in a simulator build: cub::DeviceMergeSort by the program's
// comparison, run by one CUDA thread as a stable sort (every form is stable here; CUB promises
// it only for the Stable ones), checked like the program's own kernels
// (sim/include/simt/sim/library/cub_device.hpp).
#pragma once
#include <cuda_runtime.h>
#include <simt/sim/library/cub_device.hpp>

namespace cub {

struct DeviceMergeSort {
    template <typename KeyIteratorT, typename ValueIteratorT, typename OffsetT,
              typename CompareOpT>
    static cudaError_t SortPairs(void* d_temp_storage, size_t& temp_storage_bytes,
                                 KeyIteratorT d_keys, ValueIteratorT d_items, OffsetT num_items,
                                 CompareOpT compare_op, cudaStream_t stream = 0, bool = false,
                                 detail::Loc site = detail::Loc::current()) {
        return sort(d_temp_storage, temp_storage_bytes, d_keys, d_keys, d_items, d_items, true,
                    num_items, compare_op, stream, {site, "cub::DeviceMergeSort::SortPairs"});
    }
    template <typename KeyIteratorT, typename OffsetT, typename CompareOpT>
    static cudaError_t SortKeys(void* d_temp_storage, size_t& temp_storage_bytes,
                                KeyIteratorT d_keys, OffsetT num_items, CompareOpT compare_op,
                                cudaStream_t stream = 0, bool = false,
                                detail::Loc site = detail::Loc::current()) {
        return sort(d_temp_storage, temp_storage_bytes, d_keys, d_keys, d_keys, d_keys, false,
                    num_items, compare_op, stream, {site, "cub::DeviceMergeSort::SortKeys"});
    }
    template <typename KeyIteratorT, typename ValueIteratorT, typename OffsetT,
              typename CompareOpT>
    static cudaError_t StableSortPairs(void* d_temp_storage, size_t& temp_storage_bytes,
                                       KeyIteratorT d_keys, ValueIteratorT d_items,
                                       OffsetT num_items, CompareOpT compare_op,
                                       cudaStream_t stream = 0, bool = false,
                                       detail::Loc site = detail::Loc::current()) {
        return sort(d_temp_storage, temp_storage_bytes, d_keys, d_keys, d_items, d_items, true,
                    num_items, compare_op, stream,
                    {site, "cub::DeviceMergeSort::StableSortPairs"});
    }
    template <typename KeyIteratorT, typename OffsetT, typename CompareOpT>
    static cudaError_t StableSortKeys(void* d_temp_storage, size_t& temp_storage_bytes,
                                      KeyIteratorT d_keys, OffsetT num_items,
                                      CompareOpT compare_op, cudaStream_t stream = 0,
                                      bool = false, detail::Loc site = detail::Loc::current()) {
        return sort(d_temp_storage, temp_storage_bytes, d_keys, d_keys, d_keys, d_keys, false,
                    num_items, compare_op, stream,
                    {site, "cub::DeviceMergeSort::StableSortKeys"});
    }
    /// The sorted keys to d_output_keys; d_input_keys is left as it was.
    template <typename KeyInputIteratorT, typename KeyIteratorT, typename OffsetT,
              typename CompareOpT>
    static cudaError_t SortKeysCopy(void* d_temp_storage, size_t& temp_storage_bytes,
                                    KeyInputIteratorT d_input_keys, KeyIteratorT d_output_keys,
                                    OffsetT num_items, CompareOpT compare_op,
                                    cudaStream_t stream = 0, bool = false,
                                    detail::Loc site = detail::Loc::current()) {
        return sort(d_temp_storage, temp_storage_bytes, d_input_keys, d_output_keys,
                    d_output_keys, d_output_keys, false, num_items, compare_op, stream,
                    {site, "cub::DeviceMergeSort::SortKeysCopy"});
    }

private:
    template <typename KeysIn, typename KeysOut, typename ValuesIn, typename ValuesOut,
              typename OffsetT, typename Compare>
    static cudaError_t sort(void* d_temp, size_t& bytes, KeysIn keys_in, KeysOut keys_out,
                            ValuesIn values_in, ValuesOut values_out, bool with_values,
                            OffsetT num_items, Compare compare, cudaStream_t stream,
                            ::simt::sim::detail::LibraryCall call) {
        namespace device = ::simt::sim::detail::cub_device;
        if (cudaError_t e = device::no_temp(d_temp, bytes, call); e != cudaSuccess || !d_temp)
            return e;
        const long long n = static_cast<long long>(num_items);
        if (n <= 0) return cudaSuccess;
        device::launch(1, 1, 0, stream, call, [=] {
            device::sort_range(keys_in, keys_out, values_in, values_out, with_values, 0, n,
                               compare);
        });
        return cudaSuccess;
    }
};

}  // namespace cub
