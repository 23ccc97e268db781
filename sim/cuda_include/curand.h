// <curand.h> in a simulator build: cuRAND's host API (generators that fill device or host memory)
// over the device API's XORWOW and Philox (sim/include/simt/sim/library/curand_host.hpp). Under
// nvcc the toolkit's own header and library are used.
#pragma once
#include "cuda_runtime.h"

#include <simt/sim/library/curand_xorwow.hpp>
#include <simt/sim/library/curand_philox.hpp>
#include <simt/sim/library/curand_distributions.hpp>
#include <simt/sim/library/curand_host.hpp>
