// CUB's type rules, the one home of the three that every device-wide algorithm's types are built
// from (as the toolkit's CCCL defines them: cub/util_type.cuh and cuda/std/__functional/invoke.h).
// Each algorithm's header (<cub/device/*.cuh>) says which it applies to what: a Sum over bools into
// an int64_t* accumulates in int64_t and counts, where accumulating in the items' type would stop
// at 1.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp> and <cub/cub.cuh>, not the simulator's headers"
#endif
#include <iterator>
#include <type_traits>
#include <utility>

namespace simt::sim::detail::cub_device {

template <class It, class = void>
struct declared_value {
    using type = std::decay_t<decltype(std::declval<It&>()[0])>;
};
template <class It>
struct declared_value<It, std::void_t<typename std::iterator_traits<It>::value_type>> {
    using type = typename std::iterator_traits<It>::value_type;
};

/// An iterator's items' type (CUB's it_value_t): the value_type it declares; simt's own index
/// views, which declare none, give what they read.
template <class It>
using value_t = typename declared_value<It>::type;

template <class It, class Fallback, class = void>
struct written_value {
    using type = Fallback;
};
template <class It, class Fallback>
struct written_value<It, Fallback, std::enable_if_t<!std::is_void_v<std::remove_pointer_t<It>>>> {
    using type = std::conditional_t<std::is_void_v<value_t<It>>, Fallback, value_t<It>>;
};

/// What an output iterator holds (CUB's non_void_value_t): its value type, or `Fallback` where
/// that is void (a void*, an output-only iterator).
template <class It, class Fallback>
using output_t = typename written_value<It, Fallback>::type;

/// What a reduction or scan accumulates in (CUB's accumulator_t, P2322's rule): the decayed
/// result of op(init, item). Items are converted to it before op sees them.
template <class Op, class Init, class Item>
using accumulator_t = std::decay_t<std::invoke_result_t<Op, Init, Item>>;

}  // namespace simt::sim::detail::cub_device
