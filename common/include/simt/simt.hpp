// simt: write a CUDA kernel once; run it in the CPU simulator (host compiler) or on a GPU (nvcc).
//
// This header is the whole public API. Under nvcc it maps to CUDA; otherwise it defines CUDA's
// keywords and built-ins for the simulator, whose headers refuse to be included directly.
#pragma once

#include <cstddef>
#include <vector>

#if defined(__CUDACC__)
#define SIMT_DEVICE_FN __host__ __device__ inline
#else
#define SIMT_DEVICE_FN inline
#endif

#include "simt/common/device_properties.hpp"
#include "simt/common/errors.hpp"
#include "simt/common/launch_limits.hpp"
#include "simt/common/launch_options.hpp"
#include "simt/common/shape.hpp"
#include "simt/common/type_name.hpp"

#if defined(__CUDACC__)
#include "simt/cuda/api.hpp"
#else
#define SIMT_INSIDE_SIMT_HPP 1
#define __global__
#define __device__
#define __host__
#define __constant__
#define __forceinline__ inline __attribute__((always_inline))
#define __launch_bounds__(...)
// One object per OS thread is one per block: a block runs on one OS thread from start to end.
#define __shared__ static thread_local
#include "simt/sim/vector_types.hpp"
#include "simt/sim/config.hpp"
#include "simt/sim/memory/ptr.hpp"
#include "simt/sim/memory/span.hpp"
#include "simt/sim/memory/mdspan.hpp"
#include "simt/sim/memory/shared.hpp"
#include "simt/sim/atomics.hpp"
#include "simt/sim/block/sync.hpp"
#include "simt/sim/warp/intrinsics.hpp"
#include "simt/sim/printf.hpp"
#include "simt/sim/host/device_array.hpp"
#include "simt/sim/host/stream.hpp"
#include "simt/sim/grid/launch.hpp"
#include "simt/sim/host/device.hpp"
#include "simt/sim/report.hpp"
#endif

#include "simt/common/grid.hpp"
#include "simt/common/reduce.hpp"
#include "simt/common/vectorize.hpp"
#include "simt/common/guvectorize.hpp"
