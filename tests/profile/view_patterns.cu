// The access patterns of access_patterns.cu through simt's views (span, mdspan, shared), whose
// accesses reach the profiler through the views' own hook rather than the compiler's. With the
// argument `race`, a kernel that also races: checks and counters run together.
#include <simt/simt.hpp>

#include <cstdio>
#include <cstring>
#include <vector>

__global__ void strided_read(simt::span<const float> in, simt::span<float> out) {
    unsigned i = threadIdx.x;
    out[i] = in[i * 32];  // @view-strided-load
}

__global__ void column_read(simt::mdspan<const float, 2> in, simt::mdspan<float, 2> out) {
    __shared__ simt::shared<float[32][32]> tile;
    tile[threadIdx.y][threadIdx.x] = in(threadIdx.y, threadIdx.x);
    __syncthreads();
    out(threadIdx.y, threadIdx.x) = tile[threadIdx.x][threadIdx.y];  // @view-column-read
}

__global__ void halves(simt::span<int> out) {
    unsigned i = threadIdx.x;
    if (i < 16) out[i] = 1;  // @view-low-half
    else out[i] = 2;         // @view-high-half
}

__global__ void last_writer_wins(simt::span<int> out) { out[0] = static_cast<int>(threadIdx.x); }

int main(int argc, char** argv) {
    std::vector<float> v(32 * 32);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = float(i % 7);
    auto in = simt::to_device(v);
    auto out = simt::to_device(std::vector<float>(32 * 32));
    simt::launch(strided_read, 1, 32)(in, out);  // @view-stride32

    auto in2 = simt::to_device(v, {32, 32});
    auto out2 = simt::to_device(std::vector<float>(32 * 32), {32, 32});
    simt::launch(column_read, 1, dim3(32, 32))(in2, out2);  // @view-tile

    auto ints = simt::to_device(std::vector<int>(32));
    simt::launch(halves, 1, 32)(ints);  // @view-if-else
    if (argc > 1 && std::strcmp(argv[1], "race") == 0) simt::launch(last_writer_wins, 1, 64)(ints);

    std::vector<float> t = out2.copy_to_host();
    std::printf("out(0, 1) = %g\n", t[1]);
    return t[1] == v[32] ? 0 : 1;
}
