// <cublas_v2.h> in a simulator build: cuBLAS's common subset (handles and streams, the copy
// helpers, axpy, dot, scal, nrm2, gemv, gemm and its batched forms, trsm, syrk, geam, batched LU
// and inverse, in float and double) as kernels on the handle's stream, whose every access to
// device memory is checked like the program's own (sim/include/simt/sim/library/cublas_*.hpp).
// Header-only: nothing to link (-lcublas is not needed). Under nvcc the toolkit's own header and
// library are used.
#pragma once
#include "cuda_runtime.h"

#include <simt/sim/library/cublas_types.hpp>
#include <simt/sim/library/cublas_kernels.hpp>
#include <simt/sim/library/cublas_api.hpp>
