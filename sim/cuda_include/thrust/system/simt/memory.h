// Allocation on the simt device system: allocators over its memory resource, malloc and free.
#pragma once
#include <thrust/detail/config.h>
#include <thrust/memory.h>
#include <thrust/mr/allocator.h>
#include <thrust/system/simt/detail/malloc_and_free.h>
#include <thrust/system/simt/memory_resource.h>

THRUST_NAMESPACE_BEGIN
namespace system {
namespace simt {
template <typename T>
using allocator =
    thrust::mr::stateless_resource_allocator<T, thrust::system::simt::memory_resource>;
template <typename T>
using universal_allocator =
    thrust::mr::stateless_resource_allocator<T, thrust::system::simt::universal_memory_resource>;

inline pointer<void> malloc(std::size_t n) { return pointer<void>(detail::device_malloc(n)); }
template <typename T>
pointer<T> malloc(std::size_t n) {
    return pointer<T>(static_cast<T*>(detail::device_malloc(sizeof(T) * n)));
}
inline void free(pointer<void> ptr) { cudaFree(ptr.get()); }
}  // namespace simt
}  // namespace system
namespace simt {
using thrust::system::simt::allocator;
using thrust::system::simt::free;
using thrust::system::simt::malloc;
using thrust::system::simt::universal_allocator;
}  // namespace simt
THRUST_NAMESPACE_END
