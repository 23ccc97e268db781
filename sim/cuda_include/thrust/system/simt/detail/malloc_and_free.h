// thrust::malloc and thrust::free on the simt device system (device_vector's storage): simt's
// device memory, as cudaMalloc gives it.
#pragma once
#include <thrust/detail/config.h>
#include <thrust/detail/raw_pointer_cast.h>
#include <thrust/system/simt/detail/execution_policy.h>

#include <cuda_runtime.h>

#include <cstddef>

THRUST_NAMESPACE_BEGIN
namespace system {
namespace simt {
namespace detail {

inline void* device_malloc(std::size_t n) {
    void* thrust_device_memory = nullptr;
    if (cudaMalloc(&thrust_device_memory, n == 0 ? 1 : n) != cudaSuccess) return nullptr;
    return thrust_device_memory;
}

template <typename DerivedPolicy>
void* malloc(execution_policy<DerivedPolicy>&, std::size_t n) {
    return device_malloc(n);
}

template <typename DerivedPolicy, typename Pointer>
void free(execution_policy<DerivedPolicy>&, Pointer ptr) {
    cudaFree(thrust::raw_pointer_cast(ptr));
}

}  // namespace detail
}  // namespace simt
}  // namespace system
THRUST_NAMESPACE_END
