// printf from kernels and host code in .cu files: C's vprintf, one call at a time.
#include <cstdarg>
#include <cstdio>

#include "../check/attempt.hpp"
#include "../state/worker.hpp"
#include "../state/grid_run.hpp"

namespace simt::sim::detail {

int device_printf(const char* fmt, ...) {
    // Lines must come in the serial run's order, and only once: a parallel attempt of a checked
    // launch (check/attempt.hpp) ends before the first.
    if (in_attempt()) leave_attempt();
    va_list ap;
    va_start(ap, fmt);
    int n = std::vprintf(fmt, ap);
    va_end(ap);
    return n;
}

}  // namespace simt::sim::detail
