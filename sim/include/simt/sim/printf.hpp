// printf in kernels: element references are read before formatting, then C's printf prints.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include <cstdio>

#include "simt/sim/memory/ref.hpp"

namespace simt::sim::detail {
/// vprintf to stdout. Like CUDA's printf, the order of lines from different blocks depends on
/// the schedule (here: on how many cores run blocks); within a block it is the thread schedule.
int device_printf(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

template <class T>
const T& printf_arg(const T& v) { return v; }
template <class T>
T printf_arg(const ref<T>& r) { return r.get(); }
}  // namespace simt::sim::detail

// An overload, not a replacement: the template is a better match than C's `...` whenever there
// are arguments, so kernel printf gets values out of element references before formatting.
template <class... A>
int printf(const char* fmt, const A&... args) {
    return simt::sim::detail::device_printf(fmt, simt::sim::detail::printf_arg(args)...);
}
