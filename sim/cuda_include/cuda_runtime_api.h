// <cuda_runtime_api.h> in a simulator build: simt's CUDA runtime API and device keywords (see
// sim/include/simt/sim/api/runtime_api.hpp). Under nvcc the toolkit's own header is used.
#pragma once
#include <simt/simt.hpp>
