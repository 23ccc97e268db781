// <cuda_runtime.h> in a simulator build: simt's CUDA runtime API and device keywords (see
// sim/include/simt/sim/api/runtime_api.hpp). Under nvcc the toolkit's own header is used.
#pragma once
#include "simt_memory_calls.h"  // first: before any C library header declares memcpy
#include <simt/simt.hpp>
