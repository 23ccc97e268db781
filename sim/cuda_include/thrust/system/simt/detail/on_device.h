// The simt device system's algorithms other than for_each: Thrust's sequential ones, run by one
// CUDA thread in a kernel, so that they may read and write device memory (a cudaMalloc array
// wrapped in a device_ptr as much as a device_vector) and every access is checked; the call waits
// for the kernel, as Thrust's algorithms do. Element access from the host (d[i], copies of single
// elements) goes through cudaMemcpy instead.
//
// Each wrapper below takes precedence over the sequential and generic versions for the simt
// policy (its first parameter is the most derived), and forwards to the same algorithm under
// thrust::seq inside the kernel.
#pragma once
#include <thrust/detail/config.h>
#include <thrust/detail/raw_pointer_cast.h>
#include <thrust/detail/seq.h>
#include <thrust/iterator/iterator_traits.h>
#include <thrust/system/detail/generic/select_system.h>
#include <thrust/system/simt/detail/execution_policy.h>

#include <cuda_runtime.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <type_traits>

THRUST_NAMESPACE_BEGIN
namespace system {
namespace simt {
namespace detail {

/// Runs f() on one CUDA thread of a one-block kernel and returns what it returned.
template <typename F>
auto on_one_device_thread(F f) -> decltype(f()) {
    using R = decltype(f());
    if constexpr (std::is_void_v<R>) {
        ::simt::detail::cuda_launch(1, 1)([=] {
            F call = f;
            call();
        });
        cudaStreamSynchronize(nullptr);
    } else {
        std::optional<R> result;
        std::optional<R>* out = &result;  // host memory, written once by the kernel's thread
        ::simt::detail::cuda_launch(1, 1)([=] {
            F call = f;
            out->emplace(call());
        });
        cudaStreamSynchronize(nullptr);
        // As Thrust throws a system_error (a runtime_error) when its kernel fails.
        if (!result) throw std::runtime_error("thrust: an algorithm's kernel did not run: " +
                                              std::string(cudaGetErrorString(cudaGetLastError())));
        return std::move(*result);
    }
}

inline bool on_device_thread() { return ::simt::sim::detail::tls::thread != nullptr; }

// Copies between the host and this system run here too: Thrust asks select_system which system
// copies between two, and a device thread may read and write both host and device memory.
template <typename System1, typename System2>
System1& select_system(execution_policy<System1>& device,
                       thrust::system::cpp::detail::execution_policy<System2>&) {
    return thrust::detail::derived_cast(device);
}
template <typename System1, typename System2>
System2& select_system(thrust::system::cpp::detail::execution_policy<System1>&,
                       execution_policy<System2>& device) {
    return thrust::detail::derived_cast(device);
}
template <typename System1, typename System2>
auto& select_system(execution_policy<System1>& a, execution_policy<System2>& b) {
    return thrust::system::detail::generic::select_system(a, b);
}

template <typename DerivedPolicy, typename Pointer>
typename thrust::iterator_value<Pointer>::type get_value(execution_policy<DerivedPolicy>&,
                                                         Pointer ptr) {
    if (on_device_thread()) return *thrust::raw_pointer_cast(ptr);
    typename thrust::iterator_value<Pointer>::type value;
    cudaMemcpy(&value, thrust::raw_pointer_cast(ptr), sizeof value, cudaMemcpyDefault);
    return value;
}

template <typename DerivedPolicy, typename Pointer1, typename Pointer2>
void assign_value(execution_policy<DerivedPolicy>&, Pointer1 dst, Pointer2 src) {
    if (on_device_thread()) {
        *thrust::raw_pointer_cast(dst) = *thrust::raw_pointer_cast(src);
        return;
    }
    cudaMemcpy(thrust::raw_pointer_cast(dst), thrust::raw_pointer_cast(src),
               sizeof(*thrust::raw_pointer_cast(dst)), cudaMemcpyDefault);
}

template <typename DerivedPolicy, typename Pointer1, typename Pointer2>
void iter_swap(execution_policy<DerivedPolicy>&, Pointer1 a, Pointer2 b) {
    auto* x = thrust::raw_pointer_cast(a);
    auto* y = thrust::raw_pointer_cast(b);
    on_one_device_thread([=] {
        auto t = *x;
        *x = *y;
        *y = t;
    });
}

// The algorithms Thrust's sequential system implements itself (the others are built on these
// or on for_each_n).
// The sequential version is found by argument-dependent lookup on thrust::seq's type when the
// wrapper is instantiated, so Thrust's public headers need not come before this one.
#define SIMT_THRUST_ON_DEVICE(name)                                         \
    template <typename DerivedPolicy, typename... Args>                     \
    auto name(execution_policy<DerivedPolicy>&, Args... args)               \
        ->decltype(name(std::declval<thrust::detail::seq_t&>(), args...)) { \
        return on_one_device_thread([=]() mutable {                         \
            thrust::detail::seq_t sequential;                               \
            return name(sequential, args...);                               \
        });                                                                 \
    }
SIMT_THRUST_ON_DEVICE(adjacent_difference)
SIMT_THRUST_ON_DEVICE(binary_search)
SIMT_THRUST_ON_DEVICE(lower_bound)
SIMT_THRUST_ON_DEVICE(upper_bound)
SIMT_THRUST_ON_DEVICE(copy)
SIMT_THRUST_ON_DEVICE(copy_n)
SIMT_THRUST_ON_DEVICE(copy_if)
SIMT_THRUST_ON_DEVICE(min_element)
SIMT_THRUST_ON_DEVICE(max_element)
SIMT_THRUST_ON_DEVICE(minmax_element)
SIMT_THRUST_ON_DEVICE(merge)
SIMT_THRUST_ON_DEVICE(merge_by_key)
SIMT_THRUST_ON_DEVICE(partition)
SIMT_THRUST_ON_DEVICE(stable_partition)
SIMT_THRUST_ON_DEVICE(stable_partition_copy)
SIMT_THRUST_ON_DEVICE(reduce)
SIMT_THRUST_ON_DEVICE(reduce_by_key)
SIMT_THRUST_ON_DEVICE(remove_if)
SIMT_THRUST_ON_DEVICE(remove_copy_if)
SIMT_THRUST_ON_DEVICE(inclusive_scan)
SIMT_THRUST_ON_DEVICE(exclusive_scan)
SIMT_THRUST_ON_DEVICE(inclusive_scan_by_key)
SIMT_THRUST_ON_DEVICE(exclusive_scan_by_key)
SIMT_THRUST_ON_DEVICE(set_difference)
SIMT_THRUST_ON_DEVICE(set_intersection)
SIMT_THRUST_ON_DEVICE(set_symmetric_difference)
SIMT_THRUST_ON_DEVICE(set_union)
SIMT_THRUST_ON_DEVICE(stable_sort)
SIMT_THRUST_ON_DEVICE(stable_sort_by_key)
SIMT_THRUST_ON_DEVICE(unique)
SIMT_THRUST_ON_DEVICE(unique_copy)
SIMT_THRUST_ON_DEVICE(unique_by_key)
SIMT_THRUST_ON_DEVICE(unique_by_key_copy)
SIMT_THRUST_ON_DEVICE(unique_count)
#undef SIMT_THRUST_ON_DEVICE

}  // namespace detail
}  // namespace simt
}  // namespace system
THRUST_NAMESPACE_END
