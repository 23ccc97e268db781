// The simulator backend: simt's API for a host C++ compiler. Included by <simt/api.hpp>.
//
// Kernels are host code here: CUDA's keywords become C++ (below), threadIdx and friends are
// per-OS-thread variables, and every access through ptr, span, mdspan and shared is checked.
// The views, DeviceArray and simt::launch are common/'s templates over this backend's policies
// (below); what only a simulator has (barriers, warps, atomics, CUDA's math intrinsics, printf,
// streams, findings) lives in the headers below. <cuda_fp16.h> adds simt/sim/fp16.hpp.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif

// Neither __CUDACC__ nor __CUDA_ARCH__ is defined here (docs/porting.md says why); code that must
// know it runs in the simulator tests this.
#define SIMT_SIMULATOR 1

#define __global__
#define __device__
#define __host__
// What the front end leaves of `__device__`, `__constant__` and `__managed__` variables (in
// headers it does not read, or declarations it cannot): plain host globals, unchecked. In a .cu
// the front end makes each namespace-scope variable a SymbolDecl (memory/symbol.hpp).
#define __constant__
#define __managed__
#define __forceinline__ inline __attribute__((always_inline))
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
// What the front end leaves of `__shared__` (in headers it does not read, or at namespace scope):
// one object per OS thread is one per block, since a block runs on one OS thread from start to
// end, but it is neither fresh per block nor checked. In a .cu's functions the front end makes
// each __shared__ declaration a SharedDecl (memory/shared.hpp), which is both.
#define __shared__ static thread_local

#include "simt/sim/vector_types.hpp"
#include "simt/sim/config.hpp"
#include "simt/sim/launch/launch.hpp"
#include "simt/sim/memory/accessor.hpp"
#include "simt/sim/memory/device_memory.hpp"
#include "simt/sim/memory/shared.hpp"
#include "simt/sim/memory/symbol.hpp"
#include "simt/core/policies.hpp"

// The policies common's templates are written over (common/README.md): checked views,
// allocations with records, launches queued on the simulator's streams.
namespace simt::detail {
using backend = Policies<sim::detail::CheckedAccessor, sim::detail::SharedStorage,
                         sim::detail::DeviceMemory, sim::detail::LaunchPolicy>;
}  // namespace simt::detail

#include "simt/view/span.hpp"
#include "simt/view/mdspan.hpp"
#include "simt/view/shared.hpp"
#include "simt/sim/memory/dynamic_shared.hpp"
#include "simt/sim/memory/cache_hints.hpp"
#include "simt/sim/atomics.hpp"
#include "simt/sim/math.hpp"
#include "simt/sim/block/sync.hpp"
#include "simt/sim/warp/intrinsics.hpp"
#include "simt/sim/printf.hpp"
#include "simt/sim/fault.hpp"
#include "simt/host/device_array.hpp"
#include "simt/host/launch.hpp"
#include "simt/sim/launch/stream.hpp"
#include "simt/sim/device/device.hpp"
#include "simt/sim/report.hpp"
#include "simt/sim/api/runtime_api.hpp"
#include "simt/sim/api/gpu_time.hpp"
#include "simt/sim/api/launch_api.hpp"
#include "simt/sim/api/graph_api.hpp"
