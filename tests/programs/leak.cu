// Device memory never freed: with SIMT_CHECK=all,leak a finding naming it, else one note line.
#include <simt/simt.hpp>

__global__ void fill(simt::span<int> out) { out[threadIdx.x] = 1; }

int main() {
    auto kept = simt::device_array<int>(32);                             // freed: not reported
    auto* forgotten = new simt::DeviceArray<int>(simt::device_array<int>(64));  // never deleted
    simt::launch(fill, 1, 32)(kept);
    simt::launch(fill, 1, 64)(*forgotten);
    simt::synchronize();
    return 0;
}
