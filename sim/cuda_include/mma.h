// <mma.h> in a simulator build: nvcuda::wmma, the warp's tensor-core tiles (see
// sim/include/simt/sim/wmma.hpp). Under nvcc the toolkit's own header is used.
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <simt/simt.hpp>
#include <simt/sim/wmma.hpp>
