// Device arrays as records and arena memory, below the checkers: api/memory.cpp's allocate and
// release (simt/sim/memory/device_memory.hpp) add what the checkers and the streams must see.
#pragma once
#include <simt/simt.hpp>

namespace simt::sim::detail {

/// A record for `bytes` of device memory on `device`, counted against its total; throws
/// simt::Error naming `site` when they do not fit.
Allocation* new_device_array(std::size_t bytes, std::size_t elem_size, const char* elem_type,
                             Loc site, int device);
/// Returns its memory to the arena and its bytes to its device; the record stays, with no bytes,
/// so that a later access is reported as use after free.
void free_device_array(Allocation* a);

}  // namespace simt::sim::detail
