// Pointers into the simt device system's memory: what thrust::device_ptr<T> is in a simulator
// build.
#pragma once
#include <thrust/detail/config.h>
#include <thrust/detail/pointer.h>
#include <thrust/detail/reference.h>
#include <thrust/system/simt/detail/execution_policy.h>

#include <type_traits>

THRUST_NAMESPACE_BEGIN
namespace system {
namespace simt {
template <typename T>
using pointer = thrust::pointer<T, thrust::system::simt::tag,
                                thrust::tagged_reference<T, thrust::system::simt::tag>>;
template <typename T>
using universal_pointer =
    thrust::pointer<T, thrust::system::simt::tag, typename std::add_lvalue_reference<T>::type>;
template <typename T>
using reference = thrust::tagged_reference<T, thrust::system::simt::tag>;
}  // namespace simt
}  // namespace system
namespace simt {
using thrust::system::simt::pointer;
using thrust::system::simt::reference;
using thrust::system::simt::universal_pointer;
}  // namespace simt
THRUST_NAMESPACE_END
