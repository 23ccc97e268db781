// thrust::simt::vector: a vector in the simt device system's memory (thrust::device_vector's kind).
#pragma once
#include <thrust/detail/config.h>
#include <thrust/detail/vector_base.h>
#include <thrust/system/simt/memory.h>

THRUST_NAMESPACE_BEGIN
namespace system {
namespace simt {
template <typename T, typename Allocator = thrust::system::simt::allocator<T>>
using vector = thrust::detail::vector_base<T, Allocator>;
template <typename T, typename Allocator = thrust::system::simt::universal_allocator<T>>
using universal_vector = thrust::detail::vector_base<T, Allocator>;
}  // namespace simt
}  // namespace system
namespace simt {
using thrust::system::simt::universal_vector;
using thrust::system::simt::vector;
}  // namespace simt
THRUST_NAMESPACE_END
