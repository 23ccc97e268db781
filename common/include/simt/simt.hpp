// simt: write a CUDA kernel once; run it in the CPU simulator (host compiler) or on a GPU (nvcc).
//
// The whole public API, in three layers: the core (simt/core/: errors, shapes, launch limits,
// the keyword macros; it includes nothing else of simt), the backend chosen by simt/api.hpp
// (sim/ or cuda/, over common's templates in simt/view/ and simt/host/), and the library
// (simt/library/: grid, reduce, vectorize, guvectorize), which uses only simt/api.hpp.
#pragma once

#include "simt/api.hpp"

#include "simt/library/grid.hpp"
#include "simt/library/reduce.hpp"
#include "simt/library/vectorize.hpp"
#include "simt/library/guvectorize.hpp"
