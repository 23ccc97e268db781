// The simt device system's policy: derived from the C++ system's, so that every algorithm simt
// does not provide itself is the C++ system's sequential one, found through the base class.
#pragma once
#include <thrust/detail/config.h>
#include <thrust/system/cpp/detail/execution_policy.h>

THRUST_NAMESPACE_BEGIN
namespace system {
namespace simt {
namespace detail {

struct tag;
template <typename>
struct execution_policy;

template <>
struct execution_policy<tag> : thrust::system::cpp::detail::execution_policy<tag> {};

/// What thrust::device_vector's iterators are tagged with.
struct tag : execution_policy<tag> {};

template <typename Derived>
struct execution_policy : thrust::system::cpp::detail::execution_policy<Derived> {
    typedef tag tag_type;
    operator tag() const { return tag(); }
};

}  // namespace detail
using thrust::system::simt::detail::execution_policy;
using thrust::system::simt::detail::tag;
}  // namespace simt
}  // namespace system

namespace simt {
using thrust::system::simt::execution_policy;
using thrust::system::simt::tag;
}  // namespace simt
THRUST_NAMESPACE_END
