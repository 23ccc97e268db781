// <vector_functions.h> in a simulator build: simt's CUDA vector types and make_<type>() (see
// sim/include/simt/sim/vector_types.hpp). Under nvcc the toolkit's own header is used.
#pragma once
#include <simt/simt.hpp>
