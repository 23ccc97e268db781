// <curand_kernel.h> in a simulator build: cuRAND's device API (XORWOW, the default curandState,
// and Philox4_32_10) with its distributions, over simt's checked memory: a state kept in device
// memory is read and written through the same checks as any other access
// (sim/include/simt/sim/library/curand_*.hpp). Under nvcc the toolkit's own header is used.
// As the toolkit's, it includes <curand.h> (the host API) too.
#pragma once
#include "curand.h"
