// The memory behind thrust::device_vector in a simulator build: simt's device memory, as from
// cudaMalloc (reports name it 'thrust_device_memory'). Only kernels touch it: Thrust's algorithms
// and copies run in kernels (for_each.h, on_device.h), single elements move with cudaMemcpy, and
// host code reading it through a raw pointer is stopped, as a GPU would fault.
#pragma once
#include <thrust/detail/config.h>
#include <thrust/mr/fancy_pointer_resource.h>
#include <thrust/mr/memory_resource.h>
#include <thrust/system/simt/detail/malloc_and_free.h>
#include <thrust/system/simt/pointer.h>

#include <new>

THRUST_NAMESPACE_BEGIN
namespace system {
namespace simt {
namespace detail {
class device_resource final : public thrust::mr::memory_resource<void*> {
public:
    void* do_allocate(std::size_t bytes, std::size_t) override {
        void* p = device_malloc(bytes);
        if (!p) throw std::bad_alloc();
        return p;
    }
    void do_deallocate(void* p, std::size_t, std::size_t) override { cudaFree(p); }
};
typedef thrust::mr::fancy_pointer_resource<device_resource, thrust::simt::pointer<void>>
    native_resource;
typedef thrust::mr::fancy_pointer_resource<device_resource, thrust::simt::universal_pointer<void>>
    universal_native_resource;
}  // namespace detail
typedef detail::native_resource memory_resource;
typedef detail::universal_native_resource universal_memory_resource;
typedef detail::native_resource universal_host_pinned_memory_resource;
}  // namespace simt
}  // namespace system
THRUST_NAMESPACE_END
