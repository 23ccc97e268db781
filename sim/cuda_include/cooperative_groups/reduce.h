// <cooperative_groups/reduce.h> in a simulator build: cg::reduce and its operators (see
// sim/include/simt/sim/cooperative/reduce.hpp). Under nvcc the toolkit's own header is used.
#pragma once
#include <cooperative_groups.h>

#include <simt/sim/cooperative/reduce.hpp>
