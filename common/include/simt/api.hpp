// simt's API without its library: the core, then the backend this compiler builds for.
//
// Under nvcc (__CUDACC__) the CUDA backend maps the API to the CUDA runtime; otherwise the
// simulator backend runs kernels on the CPU and checks them. Both fill in the same templates
// (views, DeviceArray, simt::launch) written once in common/ with their own policies; their
// headers, and common's templates, refuse to be included except through this one.
#pragma once

#include "simt/core/device_properties.hpp"
#include "simt/core/errors.hpp"
#include "simt/core/keywords.hpp"
#include "simt/core/launch_limits.hpp"
#include "simt/core/launch_options.hpp"
#include "simt/core/shape.hpp"
#include "simt/core/type_name.hpp"

#define SIMT_INSIDE_SIMT_HPP 1
#if defined(__CUDACC__)
#include "simt/cuda/api.hpp"
#else
#include "simt/sim/api.hpp"
#endif
