// <cub/device/device_partition.cuh> in a simulator build: cub::DevicePartition's two-way forms.
// As CUB's, the selected items come first, in order, and the others after them in reverse order
// (the last rejected item first), over simt's checked compaction
// (sim/include/simt/sim/library/cub_device.hpp).
#pragma once
#include <cuda_runtime.h>
#include <simt/sim/library/cub_device.hpp>

namespace cub {

struct DevicePartition {
    // The count follows CUB's rule (the toolkit's cub/device/device_partition.cuh): a number of
    // items (CUB's in int32_t for a signed num_items of up to 4 bytes, else int64_t; the
    // compaction in cub_device.hpp counts in 64 bits), written in the type d_num_selected_out
    // holds.
    template <typename InputIteratorT, typename FlagIterator, typename OutputIteratorT,
              typename NumSelectedIteratorT, typename NumItemsT>
    static cudaError_t Flagged(void* d_temp_storage, size_t& temp_storage_bytes,
                               InputIteratorT d_in, FlagIterator d_flags, OutputIteratorT d_out,
                               NumSelectedIteratorT d_num_selected_out, NumItemsT num_items,
                               cudaStream_t stream = 0, bool = false,
                               detail::Loc site = detail::Loc::current()) {
        return partition(d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected_out,
                         static_cast<long long>(num_items),
                         [=](long long i) { return static_cast<bool>(d_flags[i]); }, stream,
                         {site, "cub::DevicePartition::Flagged"});
    }
    template <typename InputIteratorT, typename OutputIteratorT, typename NumSelectedIteratorT,
              typename NumItemsT, typename SelectOp>
    static cudaError_t If(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                          OutputIteratorT d_out, NumSelectedIteratorT d_num_selected_out,
                          NumItemsT num_items, SelectOp select_op, cudaStream_t stream = 0,
                          bool = false, detail::Loc site = detail::Loc::current()) {
        return partition(d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected_out,
                         static_cast<long long>(num_items),
                         [=](long long i) { return static_cast<bool>(select_op(d_in[i])); },
                         stream, {site, "cub::DevicePartition::If"});
    }

private:
    /// out[n - 1 - k] for k: where the k-th rejected item goes.
    template <typename Out>
    struct Reversed {
        Out out;
        long long n;
        __forceinline__ decltype(auto) operator[](long long k) const { return out[n - 1 - k]; }
    };

    template <typename In, typename Out, typename Count, typename Selected>
    static cudaError_t partition(void* d_temp, size_t& bytes, In in, Out out, Count num_selected,
                                 long long n, Selected selected, cudaStream_t stream,
                                 ::simt::sim::detail::LibraryCall call) {
        namespace device = ::simt::sim::detail::cub_device;
        // Both passes use the same temporary storage, one after the other on the stream; the
        // count of rejected items goes to its end.
        std::size_t pass_bytes = 0;
        device::select(nullptr, pass_bytes, in, out, num_selected, n, selected, stream, call);
        const std::size_t sizes[2] = {pass_bytes, sizeof(long long)};
        void* sections[2];
        if (cudaError_t e = device::carve(d_temp, bytes, sizes, sections, call);
            e != cudaSuccess || !d_temp)
            return e;
        if (cudaError_t e = device::select(sections[0], pass_bytes, in, out, num_selected, n,
                                           selected, stream, call);
            e != cudaSuccess)
            return e;
        return device::select(sections[0], pass_bytes, in, Reversed<Out>{out, n},
                              static_cast<long long*>(sections[1]), n,
                              [=](long long i) { return !selected(i); }, stream, call);
    }
};

}  // namespace cub
