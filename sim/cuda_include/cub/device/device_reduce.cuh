// <cub/device/device_reduce.cuh> in a simulator build: cub::DeviceReduce over simt's checked
// kernels (sim/include/simt/sim/library/cub_device.hpp). The trailing `site` parameter is simt's:
// the program's line, which reports of the kernels' accesses name.
#pragma once
#include <cuda_runtime.h>
#include <simt/sim/library/cub_device.hpp>
#include <cub/thread/thread_operators.cuh>

#include <cstdint>
#include <iterator>
#include <type_traits>

namespace cub {

struct DeviceReduce {
    // The types follow CUB's rules (the toolkit's cub/device/device_reduce.cuh and
    // dispatch/dispatch_reduce.cuh); value_t, output_t and accumulator_t are in
    // simt/sim/library/cub_types.hpp.

    /// Reduce keeps init's own type and accumulates in accumulator_t<op, init, item>.
    template <typename InputIteratorT, typename OutputIteratorT, typename ReductionOpT,
              typename T, typename NumItemsT>
    static cudaError_t Reduce(void* d_temp_storage, size_t& temp_storage_bytes,
                              InputIteratorT d_in, OutputIteratorT d_out, NumItemsT num_items,
                              ReductionOpT reduction_op, T init, cudaStream_t stream = 0,
                              bool = false, detail::Loc site = detail::Loc::current()) {
        namespace device = ::simt::sim::detail::cub_device;
        using Accum = device::accumulator_t<ReductionOpT, T, device::value_t<InputIteratorT>>;
        return device::reduce<Accum>(d_temp_storage, temp_storage_bytes, d_in, d_out,
                                     static_cast<long long>(num_items), reduction_op, init,
                                     stream, {site, "cub::DeviceReduce::Reduce"});
    }

    /// Sum starts from a zero of the output's value type (the items' where that is void) and
    /// accumulates in accumulator_t<+, that, item>: bools summed into an int64_t* are counted.
    template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
    static cudaError_t Sum(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                           OutputIteratorT d_out, NumItemsT num_items, cudaStream_t stream = 0,
                           bool = false, detail::Loc site = detail::Loc::current()) {
        namespace device = ::simt::sim::detail::cub_device;
        using Item = device::value_t<InputIteratorT>;
        using Init = device::output_t<OutputIteratorT, Item>;
        using Accum = device::accumulator_t<cub::Sum, Init, Item>;
        return device::reduce<Accum>(d_temp_storage, temp_storage_bytes, d_in, d_out,
                                     static_cast<long long>(num_items), cub::Sum{}, Init{},
                                     stream, {site, "cub::DeviceReduce::Sum"});
    }

    // Min starts from the item type's Traits<T>::Max() and Max from its Traits<T>::Lowest(),
    // their results for no items; both start and accumulate in the items' own type.
#define SIMT_CUB_REDUCE(Name, op, init)                                                         \
    template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>            \
    static cudaError_t Name(void* d_temp_storage, size_t& temp_storage_bytes,                   \
                            InputIteratorT d_in, OutputIteratorT d_out, NumItemsT num_items,    \
                            cudaStream_t stream = 0, bool = false,                              \
                            detail::Loc site = detail::Loc::current()) {                        \
        namespace device = ::simt::sim::detail::cub_device;                                     \
        using T = device::value_t<InputIteratorT>;                                              \
        using Accum = device::accumulator_t<decltype(op), T, T>;                                \
        return device::reduce<Accum>(d_temp_storage, temp_storage_bytes, d_in, d_out,           \
                                     static_cast<long long>(num_items), op, init, stream,       \
                                     {site, "cub::DeviceReduce::" #Name});                      \
    }
    SIMT_CUB_REDUCE(Min, cub::Min{}, Traits<T>::Max())
    SIMT_CUB_REDUCE(Max, cub::Max{}, Traits<T>::Lowest())
#undef SIMT_CUB_REDUCE

    // ArgMin and ArgMax give the first extreme item and its index ({1, Min's or Max's start} for
    // no items). CUB 1 and 2's form writes a KeyValuePair<int, T> to d_out: the pair is d_out's
    // value type (KeyValuePair<int, item> where that is void) and the items are converted to its
    // Value. CUB 3's form writes the item to d_*_out, in its value type (the item's where that is
    // void), and the index, counted in int64_t, to d_index_out.
#define SIMT_CUB_ARG_REDUCE(Name, op, init)                                                     \
    template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>            \
    static cudaError_t Name(void* d_temp_storage, size_t& temp_storage_bytes,                   \
                            InputIteratorT d_in, OutputIteratorT d_out, NumItemsT num_items,    \
                            cudaStream_t stream = 0, bool = false,                              \
                            detail::Loc site = detail::Loc::current()) {                        \
        namespace device = ::simt::sim::detail::cub_device;                                     \
        using T = device::value_t<InputIteratorT>;                                              \
        using Pair = device::output_t<OutputIteratorT, KeyValuePair<int, T>>;                   \
        return device::reduce<Pair>(d_temp_storage, temp_storage_bytes,                         \
                                    Indexed<InputIteratorT, Pair>{d_in}, d_out,                 \
                                    static_cast<long long>(num_items), op, Pair(1, init),       \
                                    stream, {site, "cub::DeviceReduce::" #Name});               \
    }                                                                                           \
    template <typename InputIteratorT, typename ExtremumOutIteratorT,                           \
              typename IndexOutIteratorT>                                                       \
        requires(!std::is_arithmetic_v<IndexOutIteratorT>)                                      \
    static cudaError_t Name(void* d_temp_storage, size_t& temp_storage_bytes,                   \
                            InputIteratorT d_in, ExtremumOutIteratorT d_extremum_out,           \
                            IndexOutIteratorT d_index_out, std::int64_t num_items,              \
                            cudaStream_t stream = 0,                                            \
                            detail::Loc site = detail::Loc::current()) {                        \
        namespace device = ::simt::sim::detail::cub_device;                                     \
        using T = device::value_t<InputIteratorT>;                                              \
        using Pair = KeyValuePair<long long, device::output_t<ExtremumOutIteratorT, T>>;        \
        return device::reduce<Pair>(                                                            \
            d_temp_storage, temp_storage_bytes, Indexed<InputIteratorT, Pair>{d_in},            \
            Unzipped<ExtremumOutIteratorT, IndexOutIteratorT>{d_extremum_out, d_index_out},     \
            static_cast<long long>(num_items), op, Pair(1, init), stream,                       \
            {site, "cub::DeviceReduce::" #Name});                                               \
    }
    SIMT_CUB_ARG_REDUCE(ArgMin, cub::ArgMin{}, Traits<T>::Max())
    SIMT_CUB_ARG_REDUCE(ArgMax, cub::ArgMax{}, Traits<T>::Lowest())
#undef SIMT_CUB_ARG_REDUCE

    /// Each run of equal keys' first key and the reduction of its values (in order, op(a, b)),
    /// and the number of runs: the heads of the runs, then a thread per run. Values accumulate
    /// in accumulator_t<op, value, value> (dispatch_reduce_by_key.cuh).
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
        using Value = device::value_t<ValuesInputIteratorT>;
        using Accum = device::accumulator_t<ReductionOpT, Value, Value>;
        using Count = device::output_t<NumRunsOutputIteratorT, long long>;
        return device::with_heads(
            d_temp_storage, temp_storage_bytes, n,
            [=](long long i) { return i == 0 || !(d_keys_in[i] == d_keys_in[i - 1]); }, 0,
            stream, call, [&](const long long* heads, const long long* runs, void*) {
                device::launch(1, 1, 0, stream, call, [=] { *d_num_runs_out = Count(*runs); });
                device::for_each_run(heads, runs, n, stream, call,
                                     [=](long long j, long long first, long long end) {
                                         d_unique_out[j] = d_keys_in[first];
                                         Accum acc = Accum(d_values_in[first]);
                                         for (long long i = first + 1; i < end; ++i)
                                             acc = reduction_op(acc, Accum(d_values_in[i]));
                                         d_aggregates_out[j] = acc;
                                     });
            });
    }

private:
    /// Item i as the pair (i, d_in[i]), its item converted to the pair's Value.
    template <typename It, typename Pair>
    struct Indexed {
        It in;
        __forceinline__ Pair operator[](long long i) const {
            return Pair(static_cast<typename Pair::Key>(i), in[i]);
        }
    };

    /// One output whose pair's value goes to `extremum` and its key to `index` (CUB 3's ArgMin
    /// and ArgMax write them apart).
    template <typename ExtremumOut, typename IndexOut>
    struct Unzipped {
        ExtremumOut extremum;
        IndexOut index;
        struct Slot {
            const Unzipped& to;
            template <typename Pair>
            __forceinline__ void operator=(const Pair& pair) const {
                *to.extremum = pair.value;
                *to.index = pair.key;
            }
        };
        __forceinline__ Slot operator*() const { return {*this}; }
    };
};

}  // namespace cub
