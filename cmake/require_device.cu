// Linked into every <name>_cuda program by simt_add_executable: before main, a machine with no
// CUDA device makes the GPU build say so and exit with ctest's skip code (77), so that a plain
// CUDA program needs no check of its own and a test of it reads as skipped, not failed.
#include <simt/simt.hpp>  // under nvcc: the CUDA backend, simt::cuda::detail::require_device

namespace {
const bool simt_device_present = (simt::cuda::detail::require_device(), true);
}  // namespace
