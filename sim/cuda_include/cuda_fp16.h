// <cuda_fp16.h> in a simulator build: __half and __half2 (see sim/include/simt/sim/fp16.hpp).
// Under nvcc the toolkit's own header is used.
#pragma once
#include <simt/simt.hpp>
#include <simt/sim/fp16.hpp>
