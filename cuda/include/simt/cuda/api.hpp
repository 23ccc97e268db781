// The CUDA backend: simt's API on the CUDA runtime, for nvcc. Included by <simt/api.hpp>.
//
// Kernels see CUDA itself: threadIdx, __syncthreads, atomics, shuffles and printf are nvcc's own,
// simt::ptr<T> is T*, and span, mdspan and shared are common/'s templates over a raw accessor,
// compiling to the same instructions as raw pointers (tests/ptx keeps that true). The host side
// is common's DeviceArray and simt::launch over cudaMalloc and <<<>>> (below), and
// every runtime error becomes simt::CudaError.
//
// The backend is header-only: a program built with nvcc needs the CUDA toolkit and nothing else.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the CUDA backend's headers"
#endif

#include "simt/cuda/runtime.hpp"
#include "simt/cuda/memory.hpp"
#include "simt/cuda/device_memory.hpp"
#include "simt/cuda/launch.hpp"
#include "simt/core/policies.hpp"

// The policies common's templates are written over (common/README.md): raw views,
// cudaMalloc'd arrays, launches with <<<>>>.
namespace simt::detail {
using backend = Policies<cuda::detail::RawAccessor, cuda::detail::SharedStorage,
                         cuda::detail::DeviceMemory, cuda::detail::LaunchPolicy>;
}  // namespace simt::detail

#include "simt/view/span.hpp"
#include "simt/view/mdspan.hpp"
#include "simt/view/shared.hpp"
#include "simt/cuda/dynamic_shared.hpp"
#include "simt/host/device_array.hpp"
#include "simt/host/launch.hpp"
#include "simt/cuda/stream.hpp"
#include "simt/cuda/gpu_time.hpp"
#include "simt/cuda/device.hpp"
