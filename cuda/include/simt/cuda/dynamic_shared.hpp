// simt::dynamic_shared<T>() under nvcc: the block's extern shared array as a span.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the CUDA backend's headers"
#endif
#include "simt/view/span.hpp"

namespace simt {

namespace cuda::detail {
/// The block's dynamic shared memory: one extern array for every kernel of the program.
__device__ inline unsigned char* dynamic_shared_base() {
    extern __shared__ __align__(16) unsigned char simt_dynamic_shared[];
    return simt_dynamic_shared;
}
/// Its size in bytes, as launched (LaunchOptions::shared_bytes).
__device__ inline unsigned dynamic_shared_bytes() {
    unsigned n;
    asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(n));
    return n;
}
}  // namespace cuda::detail

/// The dynamic shared memory of the running block (LaunchOptions::shared_bytes), as T.
template <class T>
__device__ span<T> dynamic_shared() {
    return span<T>(reinterpret_cast<T*>(cuda::detail::dynamic_shared_base()),
                   cuda::detail::dynamic_shared_bytes() / sizeof(T));
}

}  // namespace simt
