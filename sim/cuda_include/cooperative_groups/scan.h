// <cooperative_groups/scan.h> in a simulator build: cg::inclusive_scan, cg::exclusive_scan and
// their operators (see sim/include/simt/sim/cooperative/scan.hpp). Under nvcc the toolkit's own
// header is used.
#pragma once
#include <cooperative_groups.h>

#include <simt/sim/cooperative/scan.hpp>
