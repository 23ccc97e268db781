// printf from kernels and host code in .cu files: C's vprintf, one call at a time.
#include <cstdarg>
#include <cstdio>

#include "../state/worker.hpp"
#include "../state/grid_run.hpp"

namespace simt::sim::detail {

int device_printf(const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = std::vprintf(fmt, ap);
    va_end(ap);
    return n;
}

}  // namespace simt::sim::detail
