// <cub/device/device_reduce.cuh> in a simulator build: cub::DeviceReduce over simt's checked
// kernels (sim/include/simt/sim/library/cub_device.hpp). The trailing `site` parameter is simt's:
// the program's line, which reports of the kernels' accesses name.
#pragma once
#include <cuda_runtime.h>
#include <simt/sim/library/cub_device.hpp>
#include <cub/thread/thread_operators.cuh>

#include <iterator>

namespace cub {

struct DeviceReduce {
    template <typename InputIteratorT, typename OutputIteratorT, typename ReductionOpT,
              typename T, typename NumItemsT>
    static cudaError_t Reduce(void* d_temp_storage, size_t& temp_storage_bytes,
                              InputIteratorT d_in, OutputIteratorT d_out, NumItemsT num_items,
                              ReductionOpT reduction_op, T init, cudaStream_t stream = 0,
                              bool = false, detail::Loc site = detail::Loc::current()) {
        using Accum = std::decay_t<decltype(reduction_op(init, d_in[0]))>;
        return ::simt::sim::detail::cub_device::reduce<Accum>(
            d_temp_storage, temp_storage_bytes, d_in, d_out, static_cast<long long>(num_items),
            reduction_op, init, stream, {site, "cub::DeviceReduce::Reduce"});
    }

#define SIMT_CUB_REDUCE(Name, op, init)                                                         \
    template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>            \
    static cudaError_t Name(void* d_temp_storage, size_t& temp_storage_bytes,                   \
                            InputIteratorT d_in, OutputIteratorT d_out, NumItemsT num_items,    \
                            cudaStream_t stream = 0, bool = false,                              \
                            detail::Loc site = detail::Loc::current()) {                        \
        using T = std::decay_t<decltype(d_in[0])>;                                              \
        return ::simt::sim::detail::cub_device::reduce<T>(                                      \
            d_temp_storage, temp_storage_bytes, d_in, d_out,                                    \
            static_cast<long long>(num_items), op, init, stream,                                \
            {site, "cub::DeviceReduce::" #Name});                                               \
    }
#define SIMT_CUB_ARG_REDUCE(Name, op, init)                                                     \
    template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>            \
    static cudaError_t Name(void* d_temp_storage, size_t& temp_storage_bytes,                   \
                            InputIteratorT d_in, OutputIteratorT d_out, NumItemsT num_items,    \
                            cudaStream_t stream = 0, bool = false,                              \
                            detail::Loc site = detail::Loc::current()) {                        \
        using T = std::decay_t<decltype(d_in[0])>;                                              \
        using Pair = KeyValuePair<int, T>;                                                      \
        return ::simt::sim::detail::cub_device::reduce<Pair>(                                   \
            d_temp_storage, temp_storage_bytes, Indexed<InputIteratorT>{d_in}, d_out,           \
            static_cast<long long>(num_items), op, Pair(1, init), stream,                       \
            {site, "cub::DeviceReduce::" #Name});                                               \
    }

    // Sum starts from 0; Min from Traits<T>::Max() and Max from Traits<T>::Lowest(), which are
    // their results for no items. ArgMin and ArgMax give the item and its index as a
    // KeyValuePair<int, T> ({1, that start} for no items), the lower index of equal items.
    SIMT_CUB_REDUCE(Sum, cub::Sum{}, T(0))
    SIMT_CUB_REDUCE(Min, cub::Min{}, Traits<T>::Max())
    SIMT_CUB_REDUCE(Max, cub::Max{}, Traits<T>::Lowest())
    SIMT_CUB_ARG_REDUCE(ArgMin, cub::ArgMin{}, Traits<T>::Max())
    SIMT_CUB_ARG_REDUCE(ArgMax, cub::ArgMax{}, Traits<T>::Lowest())
#undef SIMT_CUB_REDUCE
#undef SIMT_CUB_ARG_REDUCE

    /// Each run of equal keys' first key and the reduction of its values (in order, op(a, b)),
    /// and the number of runs: the heads of the runs, then a thread per run.
    template <typename KeysInputIteratorT, typename UniqueOutputIteratorT,
              typename ValuesInputIteratorT, typename AggregatesOutputIteratorT,
              typename NumRunsOutputIteratorT, typename ReductionOpT, typename NumItemsT>
    static cudaError_t ReduceByKey(void* d_temp_storage, size_t& temp_storage_bytes,
                                   KeysInputIteratorT d_keys_in, UniqueOutputIteratorT d_unique_out,
                                   ValuesInputIteratorT d_values_in,
                                   AggregatesOutputIteratorT d_aggregates_out,
                                   NumRunsOutputIteratorT d_num_runs_out,
                                   ReductionOpT reduction_op, NumItemsT num_items,
                                   cudaStream_t stream = 0, bool = false,
                                   detail::Loc site = detail::Loc::current()) {
        namespace device = ::simt::sim::detail::cub_device;
        const ::simt::sim::detail::LibraryCall call{site, "cub::DeviceReduce::ReduceByKey"};
        const long long n = static_cast<long long>(num_items);
        using Value = std::decay_t<decltype(d_values_in[0])>;
        using Count = std::decay_t<decltype(*d_num_runs_out)>;
        return device::with_heads(
            d_temp_storage, temp_storage_bytes, n,
            [=](long long i) { return i == 0 || !(d_keys_in[i] == d_keys_in[i - 1]); }, 0,
            stream, call, [&](const long long* heads, const long long* runs, void*) {
                device::launch(1, 1, 0, stream, call, [=] { *d_num_runs_out = Count(*runs); });
                device::for_each_run(heads, runs, n, stream, call,
                                     [=](long long j, long long first, long long end) {
                                         d_unique_out[j] = d_keys_in[first];
                                         Value acc = d_values_in[first];
                                         for (long long i = first + 1; i < end; ++i)
                                             acc = reduction_op(acc, d_values_in[i]);
                                         d_aggregates_out[j] = acc;
                                     });
            });
    }

private:
    /// Item i as the pair (i, d_in[i]).
    template <typename It>
    struct Indexed {
        It in;
        __forceinline__ auto operator[](long long i) const {
            return KeyValuePair<int, std::decay_t<decltype(in[0])>>(static_cast<int>(i), in[i]);
        }
    };
};

}  // namespace cub
