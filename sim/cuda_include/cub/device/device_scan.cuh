// <cub/device/device_scan.cuh> in a simulator build: cub::DeviceScan over simt's checked kernels
// (sim/include/simt/sim/library/cub_device.hpp); d_in may be d_out (in place).
#pragma once
#include <cuda_runtime.h>
#include <simt/sim/library/cub_device.hpp>
#include <cub/thread/thread_operators.cuh>

namespace cub {

struct DeviceScan {
    // The types follow CUB's rules (the toolkit's cub/device/device_scan.cuh,
    // dispatch/dispatch_scan.cuh and dispatch/dispatch_scan_by_key.cuh): a scan accumulates in
    // accumulator_t<op, init, item>, where an inclusive scan's init is an item and the sums'
    // is a zero of the item type (so bools or int8_ts are summed in int). value_t and
    // accumulator_t are in simt/sim/library/cub_types.hpp.
    template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
    static cudaError_t ExclusiveSum(void* d_temp_storage, size_t& temp_storage_bytes,
                                    InputIteratorT d_in, OutputIteratorT d_out,
                                    NumItemsT num_items, cudaStream_t stream = 0, bool = false,
                                    detail::Loc site = detail::Loc::current()) {
        namespace device = ::simt::sim::detail::cub_device;
        using T = device::value_t<InputIteratorT>;
        using Accum = device::accumulator_t<cub::Sum, T, T>;
        return device::scan<Accum, true>(
            d_temp_storage, temp_storage_bytes, d_in, d_out, static_cast<long long>(num_items),
            cub::Sum{}, Accum(T{}), stream, {site, "cub::DeviceScan::ExclusiveSum"});
    }
    template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
    static cudaError_t InclusiveSum(void* d_temp_storage, size_t& temp_storage_bytes,
                                    InputIteratorT d_in, OutputIteratorT d_out,
                                    NumItemsT num_items, cudaStream_t stream = 0, bool = false,
                                    detail::Loc site = detail::Loc::current()) {
        namespace device = ::simt::sim::detail::cub_device;
        using T = device::value_t<InputIteratorT>;
        using Accum = device::accumulator_t<cub::Sum, T, T>;
        return device::scan<Accum, false>(
            d_temp_storage, temp_storage_bytes, d_in, d_out, static_cast<long long>(num_items),
            cub::Sum{}, Accum(), stream, {site, "cub::DeviceScan::InclusiveSum"});
    }
    template <typename InputIteratorT, typename OutputIteratorT, typename ScanOpT,
              typename InitValueT, typename NumItemsT>
    static cudaError_t ExclusiveScan(void* d_temp_storage, size_t& temp_storage_bytes,
                                     InputIteratorT d_in, OutputIteratorT d_out, ScanOpT scan_op,
                                     InitValueT init_value, NumItemsT num_items,
                                     cudaStream_t stream = 0, bool = false,
                                     detail::Loc site = detail::Loc::current()) {
        namespace device = ::simt::sim::detail::cub_device;
        using Accum =
            device::accumulator_t<ScanOpT, InitValueT, device::value_t<InputIteratorT>>;
        return device::scan<Accum, true>(
            d_temp_storage, temp_storage_bytes, d_in, d_out, static_cast<long long>(num_items),
            scan_op, Accum(init_value), stream, {site, "cub::DeviceScan::ExclusiveScan"});
    }
    template <typename InputIteratorT, typename OutputIteratorT, typename ScanOpT,
              typename NumItemsT>
    static cudaError_t InclusiveScan(void* d_temp_storage, size_t& temp_storage_bytes,
                                     InputIteratorT d_in, OutputIteratorT d_out, ScanOpT scan_op,
                                     NumItemsT num_items, cudaStream_t stream = 0, bool = false,
                                     detail::Loc site = detail::Loc::current()) {
        namespace device = ::simt::sim::detail::cub_device;
        using T = device::value_t<InputIteratorT>;
        using Accum = device::accumulator_t<ScanOpT, T, T>;
        return device::scan<Accum, false>(
            d_temp_storage, temp_storage_bytes, d_in, d_out, static_cast<long long>(num_items),
            scan_op, Accum(), stream, {site, "cub::DeviceScan::InclusiveScan"});
    }

    // Scans by key: a separate scan of each run of keys that equality_op says are equal (the
    // heads of the runs, then a thread per run, in order). Exclusive ones start each run from
    // the initial value (a zero of the value type for the sums). Inclusive ones pass a value as
    // their init, for the accumulator's type only.
    template <typename KeysInputIteratorT, typename ValuesInputIteratorT,
              typename ValuesOutputIteratorT, typename EqualityOpT = Equality,
              typename NumItemsT = int>
    static cudaError_t ExclusiveSumByKey(void* d_temp_storage, size_t& temp_storage_bytes,
                                         KeysInputIteratorT d_keys_in,
                                         ValuesInputIteratorT d_values_in,
                                         ValuesOutputIteratorT d_values_out, NumItemsT num_items,
                                         EqualityOpT equality_op = EqualityOpT(),
                                         cudaStream_t stream = 0, bool = false,
                                         detail::Loc site = detail::Loc::current()) {
        using T = ::simt::sim::detail::cub_device::value_t<ValuesInputIteratorT>;
        return by_key<true>(d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in,
                            d_values_out, cub::Sum{}, T{}, num_items, equality_op, stream,
                            {site, "cub::DeviceScan::ExclusiveSumByKey"});
    }
    template <typename KeysInputIteratorT, typename ValuesInputIteratorT,
              typename ValuesOutputIteratorT, typename EqualityOpT = Equality,
              typename NumItemsT = int>
    static cudaError_t InclusiveSumByKey(void* d_temp_storage, size_t& temp_storage_bytes,
                                         KeysInputIteratorT d_keys_in,
                                         ValuesInputIteratorT d_values_in,
                                         ValuesOutputIteratorT d_values_out, NumItemsT num_items,
                                         EqualityOpT equality_op = EqualityOpT(),
                                         cudaStream_t stream = 0, bool = false,
                                         detail::Loc site = detail::Loc::current()) {
        using T = ::simt::sim::detail::cub_device::value_t<ValuesInputIteratorT>;
        return by_key<false>(d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in,
                             d_values_out, cub::Sum{}, T{}, num_items, equality_op, stream,
                             {site, "cub::DeviceScan::InclusiveSumByKey"});
    }
    template <typename KeysInputIteratorT, typename ValuesInputIteratorT,
              typename ValuesOutputIteratorT, typename ScanOpT, typename InitValueT,
              typename EqualityOpT = Equality, typename NumItemsT = int>
    static cudaError_t ExclusiveScanByKey(void* d_temp_storage, size_t& temp_storage_bytes,
                                          KeysInputIteratorT d_keys_in,
                                          ValuesInputIteratorT d_values_in,
                                          ValuesOutputIteratorT d_values_out, ScanOpT scan_op,
                                          InitValueT init_value, NumItemsT num_items,
                                          EqualityOpT equality_op = EqualityOpT(),
                                          cudaStream_t stream = 0, bool = false,
                                          detail::Loc site = detail::Loc::current()) {
        return by_key<true>(d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in,
                            d_values_out, scan_op, init_value, num_items, equality_op, stream,
                            {site, "cub::DeviceScan::ExclusiveScanByKey"});
    }
    template <typename KeysInputIteratorT, typename ValuesInputIteratorT,
              typename ValuesOutputIteratorT, typename ScanOpT, typename EqualityOpT = Equality,
              typename NumItemsT = int>
    static cudaError_t InclusiveScanByKey(void* d_temp_storage, size_t& temp_storage_bytes,
                                          KeysInputIteratorT d_keys_in,
                                          ValuesInputIteratorT d_values_in,
                                          ValuesOutputIteratorT d_values_out, ScanOpT scan_op,
                                          NumItemsT num_items,
                                          EqualityOpT equality_op = EqualityOpT(),
                                          cudaStream_t stream = 0, bool = false,
                                          detail::Loc site = detail::Loc::current()) {
        using T = ::simt::sim::detail::cub_device::value_t<ValuesInputIteratorT>;
        return by_key<false>(d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in,
                             d_values_out, scan_op, T{}, num_items, equality_op, stream,
                             {site, "cub::DeviceScan::InclusiveScanByKey"});
    }

private:
    template <bool exclusive, typename Keys, typename In, typename Out, typename Op,
              typename Init, typename NumItemsT, typename Equal>
    static cudaError_t by_key(void* d_temp, size_t& bytes, Keys keys, In in, Out out, Op op,
                              Init init, NumItemsT num_items, Equal equal, cudaStream_t stream,
                              ::simt::sim::detail::LibraryCall call) {
        namespace device = ::simt::sim::detail::cub_device;
        const long long n = static_cast<long long>(num_items);
        using Accum = device::accumulator_t<Op, Init, device::value_t<In>>;
        return device::with_heads(
            d_temp, bytes, n, [=](long long i) { return i == 0 || !equal(keys[i - 1], keys[i]); },
            0, stream, call, [&](const long long* heads, const long long* runs, void*) {
                device::for_each_run(heads, runs, n, stream, call,
                                     [=](long long, long long first, long long end) {
                                         if constexpr (exclusive) {
                                             Accum running = Accum(init);
                                             for (long long i = first; i < end; ++i) {
                                                 Accum item = Accum(in[i]);
                                                 out[i] = running;
                                                 running = op(running, item);
                                             }
                                         } else {
                                             Accum running = Accum(in[first]);
                                             out[first] = running;
                                             for (long long i = first + 1; i < end; ++i) {
                                                 running = op(running, Accum(in[i]));
                                                 out[i] = running;
                                             }
                                         }
                                     });
            });
    }
};

}  // namespace cub
