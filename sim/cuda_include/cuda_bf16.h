// <cuda_bf16.h> in a simulator build: __nv_bfloat16 and __nv_bfloat162 (see
// sim/include/simt/sim/bf16.hpp). It includes <cuda_fp16.h>, as the toolkit's does. Under nvcc the
// toolkit's own header is used.
#pragma once
#include <cuda_fp16.h>
#include <simt/simt.hpp>
#include <simt/sim/bf16.hpp>
