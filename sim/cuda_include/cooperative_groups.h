// <cooperative_groups.h> in a simulator build: thread_block, tiles, coalesced groups and the grid
// over simt's barriers and warp meetings (sim/include/simt/sim/cooperative/). Under nvcc the
// toolkit's own header is used. cg::reduce needs <cooperative_groups/reduce.h>, as in CUDA.
#pragma once
#include <simt/simt.hpp>

#include <simt/sim/cooperative/thread_group.hpp>
#include <simt/sim/cooperative/thread_block.hpp>
#include <simt/sim/cooperative/grid_group.hpp>
#include <simt/sim/cooperative/thread_block_tile.hpp>
#include <simt/sim/cooperative/coalesced_group.hpp>
