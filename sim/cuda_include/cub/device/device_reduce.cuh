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
