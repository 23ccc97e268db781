// The CUDA backend: simt's API on the CUDA runtime, for nvcc. Included by <simt/simt.hpp>.
//
// Kernels see CUDA itself: threadIdx, __syncthreads, atomics, shuffles and printf are nvcc's own,
// simt::ptr<T> is T*, and span, mdspan and shared are plain structs that compile to the same
// instructions as raw pointers (tests/ptx keeps that true). The host side wraps cudaMalloc,
// <<<>>>, streams and events, and turns every runtime error into simt::CudaError.
//
// The backend is header-only: a program built with nvcc needs the CUDA toolkit and nothing else.
#pragma once
#define SIMT_INSIDE_SIMT_HPP 1

#include "simt/cuda/runtime.hpp"
#include "simt/cuda/memory.hpp"
#include "simt/cuda/device_array.hpp"
#include "simt/cuda/stream.hpp"
#include "simt/cuda/launch.hpp"
#include "simt/cuda/device.hpp"
