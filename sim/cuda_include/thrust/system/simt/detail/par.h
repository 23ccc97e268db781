// thrust::device in a simulator build: simt's par, which may carry an allocator for temporaries.
#pragma once
#include <thrust/detail/config.h>
#include <thrust/detail/allocator_aware_execution_policy.h>
#include <thrust/system/simt/detail/execution_policy.h>

THRUST_NAMESPACE_BEGIN
namespace system {
namespace simt {
namespace detail {
struct par_t : thrust::system::simt::detail::execution_policy<par_t>,
               thrust::detail::allocator_aware_execution_policy<
                   thrust::system::simt::detail::execution_policy> {
    constexpr par_t() : thrust::system::simt::detail::execution_policy<par_t>() {}
};
}  // namespace detail
static const detail::par_t par;
}  // namespace simt
}  // namespace system
namespace simt {
using thrust::system::simt::par;
}  // namespace simt
THRUST_NAMESPACE_END
