// Built UNCHECKED (tests/CMakeLists.txt): a view's element is a plain load or store there, so an
// index past the view reads the array's next element, as a raw pointer would, and nothing is
// reported. Built as programs are by default, the same read is an out-of-view finding.
#include <simt/simt.hpp>

#include <cstdio>
#include <vector>

__global__ void read_past(simt::span<const int> first_half, simt::span<int> out) {
    out[0] = first_half[first_half.size()];
}

int main() {
    const std::vector<int> host{10, 11, 12, 13, 14, 15, 16, 17};
    auto all = simt::to_device(host);
    auto out = simt::device_array<int>(1);
    simt::span<const int> whole = all;
    simt::launch(read_past, 1, 1)(whole.subspan(0, 4), out);
    simt::synchronize();
    std::printf("read past the view: %d; findings: %zu\n", out.copy_to_host()[0],
                simt::sim::findings().size());
    return 0;
}
