// A kernel that overflows its 64 KiB stack: the simulator must name thread, block and setting.
#include <simt/simt.hpp>

__global__ void too_deep(simt::span<int> out) {
    volatile char local[200 * 1024];
    local[0] = 1;
    local[sizeof(local) - 1] = 2;
    out[threadIdx.x] = local[0] + local[sizeof(local) - 1];
}

int main() {
    auto out = simt::device_array<int>(4);
    simt::launch(too_deep, 1, 4)(out);
    simt::synchronize();
    return 0;
}
