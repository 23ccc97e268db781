// for_each and for_each_n on the simt device system: a kernel of one CUDA thread per element
// (grid-stride), so that transform, fill, sequence, tabulate, uninitialized_fill and copies within
// the device, which Thrust builds on for_each_n, run as kernels whose every access is checked.
// Thrust's algorithms are synchronous: the call waits for its kernel.
#pragma once
#include <thrust/detail/config.h>
#include <thrust/distance.h>
#include <thrust/detail/function.h>
#include <thrust/system/simt/detail/execution_policy.h>

#include <cuda_runtime.h>

#include <algorithm>

THRUST_NAMESPACE_BEGIN
namespace system {
namespace simt {
namespace detail {

template <typename DerivedPolicy, typename RandomAccessIterator, typename Size,
          typename UnaryFunction>
RandomAccessIterator for_each_n(execution_policy<DerivedPolicy>&, RandomAccessIterator first,
                                Size n, UnaryFunction f) {
    if (n <= 0) return first;
    long long count = static_cast<long long>(n);
    unsigned blocks = static_cast<unsigned>(std::min<long long>((count + 255) / 256, 1024));
    ::simt::detail::cuda_launch(blocks, 256)([=] {
        long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
        for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
             i += stride) {
            thrust::detail::wrapped_function<UnaryFunction, void> call(f);
            call(*(first + i));
        }
    });
    cudaStreamSynchronize(nullptr);
    return first + n;
}

template <typename DerivedPolicy, typename RandomAccessIterator, typename UnaryFunction>
RandomAccessIterator for_each(execution_policy<DerivedPolicy>& exec, RandomAccessIterator first,
                              RandomAccessIterator last, UnaryFunction f) {
    return thrust::system::simt::detail::for_each_n(exec, first, thrust::distance(first, last), f);
}

}  // namespace detail
}  // namespace simt
}  // namespace system
THRUST_NAMESPACE_END
