// <cub/device/device_segmented_reduce.cuh> in a simulator build: cub::DeviceSegmentedReduce, a
// thread per segment reducing it in order (an empty segment gives the initial value, as CUB's),
// over simt's checked kernels (sim/include/simt/sim/library/cub_device.hpp).
#pragma once
#include <cuda_runtime.h>
#include <simt/sim/library/cub_device.hpp>
#include <cub/thread/thread_operators.cuh>

namespace cub {

struct DeviceSegmentedReduce {
    // The types follow CUB's rules (the toolkit's cub/device/device_segmented_reduce.cuh and
    // DispatchSegmentedReduce in dispatch/dispatch_reduce.cuh): every form's initial value is
    // converted to the output's value type (the items' where that is void), and each segment
    // accumulates in accumulator_t<op, that, item>. Unlike DeviceReduce::Reduce, Reduce's own
    // init is converted too. output_t and accumulator_t are in simt/sim/library/cub_types.hpp.
    template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
              typename EndOffsetIteratorT, typename ReductionOp, typename T>
    static cudaError_t Reduce(void* d_temp_storage, size_t& temp_storage_bytes,
                              InputIteratorT d_in, OutputIteratorT d_out, int num_segments,
                              BeginOffsetIteratorT d_begin_offsets,
                              EndOffsetIteratorT d_end_offsets, ReductionOp reduction_op,
                              T initial_value, cudaStream_t stream = 0, bool = false,
                              detail::Loc site = detail::Loc::current()) {
        return reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments,
                      d_begin_offsets, d_end_offsets, reduction_op, initial_value, stream,
                      {site, "cub::DeviceSegmentedReduce::Reduce"});
    }

#define SIMT_CUB_SEGMENTED(Name, op, init)                                                       \
    template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,   \
              typename EndOffsetIteratorT>                                                        \
    static cudaError_t Name(void* d_temp_storage, size_t& temp_storage_bytes,                     \
                            InputIteratorT d_in, OutputIteratorT d_out, int num_segments,         \
                            BeginOffsetIteratorT d_begin_offsets,                                 \
                            EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0,            \
                            bool = false, detail::Loc site = detail::Loc::current()) {            \
        using T = ::simt::sim::detail::cub_device::value_t<InputIteratorT>;                       \
        return reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments,              \
                      d_begin_offsets, d_end_offsets, op, init, stream,                           \
                      {site, "cub::DeviceSegmentedReduce::" #Name});                              \
    }
    // Sum starts from 0, Min from Traits<T>::Max(), Max from Traits<T>::Lowest() (T: the item
    // type), each converted as above.
    SIMT_CUB_SEGMENTED(Sum, cub::Sum{}, T(0))
    SIMT_CUB_SEGMENTED(Min, cub::Min{}, Traits<T>::Max())
    SIMT_CUB_SEGMENTED(Max, cub::Max{}, Traits<T>::Lowest())
#undef SIMT_CUB_SEGMENTED

private:
    template <typename In, typename Out, typename Begin, typename End, typename Op, typename T>
    static cudaError_t reduce(void* d_temp, size_t& bytes, In in, Out out, int segments,
                              Begin begin, End end, Op op, T init, cudaStream_t stream,
                              ::simt::sim::detail::LibraryCall call) {
        namespace device = ::simt::sim::detail::cub_device;
        if (cudaError_t e = device::no_temp(d_temp, bytes, call); e != cudaSuccess || !d_temp)
            return e;
        using Item = device::value_t<In>;
        using Init = device::output_t<Out, Item>;
        using Accum = device::accumulator_t<Op, Init, Item>;
        device::for_each_segment(segments, stream, call, [=](long long s) {
            Accum acc = Accum(Init(init));
            for (long long i = begin[s]; i < static_cast<long long>(end[s]); ++i)
                acc = op(acc, Accum(in[i]));
            out[s] = acc;
        });
        return cudaSuccess;
    }
};

}  // namespace cub
