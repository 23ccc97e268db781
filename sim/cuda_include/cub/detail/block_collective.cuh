// What every block collective of simt's CUB holds: its TempStorage (the program's, or one per
// block like CUB's private static __shared__ one), the calling thread's rank in the declared block
// shape, and the program's line, with the check that the block has that shape.
#pragma once
#include <cub/util_type.cuh>

namespace cub {
namespace detail {

template <class Shared, int BLOCK_DIM_X, int BLOCK_DIM_Y, int BLOCK_DIM_Z>
struct BlockCollective {
    Shared& storage;
    int tid;
    Loc loc;

    /// `temp`: the program's TempStorage (a struct deriving from Uninitialized<Shared>), or null
    /// for the private one. `name` names the collective if the block's shape is not its own.
    __forceinline__ BlockCollective(Uninitialized<Shared>* temp, const char* name, Loc l)
        : storage((temp ? *temp : private_storage()).Alias()),
          tid(row_major_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()),
          loc(l) {
        check_block_shape(name, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z, l);
    }

private:
    static Uninitialized<Shared>& private_storage() {
        __shared__ Uninitialized<Shared> storage;
        return storage;
    }
};

}  // namespace detail
}  // namespace cub
