// A 3-D volume in pitched memory, as the CUDA samples use one: cudaMalloc3D, cudaMemcpy3D in and
// out (whole, and a box at a position), a kernel that walks the volume through its
// cudaPitchedPtr, cudaMemset3D, and 2-D copies and memsets of one slice.
// `memory_3d bad` makes the calls with bad arguments instead and prints each one's error.
#include <cstdio>
#include <cstring>
#include <vector>

#include "checks.cuh"

#define SHOW(call) std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorName(call))

// Each element becomes twice itself plus its slice's number.
__global__ void scale_volume(cudaPitchedPtr p, int nx, int ny, int nz) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z;
    if (x >= nx || y >= ny || z >= nz) return;
    char* slice = (char*)p.ptr + z * p.pitch * p.ysize;
    float* row = (float*)(slice + y * p.pitch);
    row[x] = 2.0f * row[x] + z;
}

const int nx = 100, ny = 16, nz = 8;  // rows of 400 bytes: padded to a longer pitch

float start_value(int x, int y, int z) { return (float)((z * ny + y) * nx + x); }
float scaled_value(int x, int y, int z) { return 2.0f * start_value(x, y, z) + z; }

int good() {
    const cudaExtent extent = make_cudaExtent(nx * sizeof(float), ny, nz);
    cudaPitchedPtr vol;
    CHECK(cudaMalloc3D(&vol, extent));
    expect(vol.pitch >= nx * sizeof(float), "cudaMalloc3D's pitch holds a row");
    expect(vol.xsize == nx * sizeof(float) && vol.ysize == ny,
           "cudaMalloc3D's xsize and ysize are the extent's width and height");

    std::vector<float> h(nx * ny * nz);
    for (int z = 0; z < nz; ++z)
        for (int y = 0; y < ny; ++y)
            for (int x = 0; x < nx; ++x) h[(z * ny + y) * nx + x] = start_value(x, y, z);
    cudaMemcpy3DParms in = {0};
    in.srcPtr = make_cudaPitchedPtr(h.data(), nx * sizeof(float), nx, ny);
    in.dstPtr = vol;
    in.extent = extent;
    in.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&in));

    dim3 block(32, 8);
    dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y, nz);
    scale_volume<<<grid, block>>>(vol, nx, ny, nz);
    CHECK(cudaGetLastError());

    std::vector<float> back(nx * ny * nz, -1.0f);
    cudaMemcpy3DParms out = {0};
    out.srcPtr = vol;
    out.dstPtr = make_cudaPitchedPtr(back.data(), nx * sizeof(float), nx, ny);
    out.extent = extent;
    out.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&out));
    for (int z = 0; z < nz; ++z)
        for (int y = 0; y < ny; ++y)
            for (int x = 0; x < nx; ++x)
                expect(back[(z * ny + y) * nx + x] == scaled_value(x, y, z),
                       "the kernel scaled every element of the volume", (z * ny + y) * nx + x);

    // A box of 4 x 3 x 2 elements from (8, 5, 3) in the volume, copied device to device into a
    // second volume at (1, 2, 1), then that volume's box out to the host.
    const int bx = 4, by = 3, bz = 2;
    cudaPitchedPtr other;
    CHECK(cudaMalloc3D(&other, make_cudaExtent(8 * sizeof(float), 6, 4)));
    cudaMemcpy3DParms box = {0};
    box.srcPtr = vol;
    box.srcPos = make_cudaPos(8 * sizeof(float), 5, 3);
    box.dstPtr = other;
    box.dstPos = make_cudaPos(1 * sizeof(float), 2, 1);
    box.extent = make_cudaExtent(bx * sizeof(float), by, bz);
    box.kind = cudaMemcpyDeviceToDevice;
    cudaStream_t stream;
    CHECK(cudaStreamCreate(&stream));
    CHECK(cudaMemcpy3DAsync(&box, stream));
    float small[bz][by][bx];
    cudaMemcpy3DParms box_out = {0};
    box_out.srcPtr = other;
    box_out.srcPos = box.dstPos;
    box_out.dstPtr = make_cudaPitchedPtr(small, bx * sizeof(float), bx, by);
    box_out.extent = box.extent;
    box_out.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3DAsync(&box_out, stream));
    CHECK(cudaStreamSynchronize(stream));
    for (int z = 0; z < bz; ++z)
        for (int y = 0; y < by; ++y)
            for (int x = 0; x < bx; ++x)
                expect(small[z][y][x] == scaled_value(8 + x, 5 + y, 3 + z),
                       "a box copied at positions lands where cudaPos says", (z * by + y) * bx + x);

    // cudaMemset3D zeroes the volume; cudaMemset2D then sets slice 2's bytes to 1, and a 2-D copy
    // of that slice reads them back.
    CHECK(cudaMemset3D(vol, 0, extent));
    CHECK(cudaMemcpy3D(&out));
    bool zero = true;
    for (float v : back) zero = zero && v == 0.0f;
    expect(zero, "cudaMemset3D zeroed every element");
    char* slice2 = (char*)vol.ptr + 2 * vol.pitch * vol.ysize;
    CHECK(cudaMemset2D(slice2, vol.pitch, 1, nx * sizeof(float), ny));
    std::vector<int> bits(nx * ny, 0);
    CHECK(cudaMemcpy2DAsync(bits.data(), nx * sizeof(int), slice2, vol.pitch, nx * sizeof(float),
                            ny, cudaMemcpyDeviceToHost, stream));
    CHECK(cudaStreamSynchronize(stream));
    bool ones = true;
    for (int v : bits) ones = ones && v == 0x01010101;
    expect(ones, "cudaMemset2D set every byte of the slice's rows");
    CHECK(cudaMemcpy2D(bits.data(), nx * sizeof(int), slice2 + vol.pitch * vol.ysize, vol.pitch,
                       nx * sizeof(float), ny, cudaMemcpyDeviceToHost));
    bool next_zero = true;
    for (int v : bits) next_zero = next_zero && v == 0;
    expect(next_zero, "cudaMemset2D left the next slice alone");

    CHECK(cudaStreamDestroy(stream));
    CHECK(cudaFree(other.ptr));
    CHECK(cudaFree(vol.ptr));
    return report();
}

// Bad arguments: CUDA's error for each, which the program prints, and simt's line saying why.
void bad() {
    const cudaExtent extent = make_cudaExtent(nx * sizeof(float), ny, nz);
    cudaPitchedPtr vol;
    cudaMalloc3D(&vol, extent);
    std::vector<float> h(nx * ny * (nz + 1));
    cudaMemcpy3DParms past_end = {0};
    past_end.srcPtr = make_cudaPitchedPtr(h.data(), nx * sizeof(float), nx, ny);
    past_end.dstPtr = vol;
    past_end.extent = make_cudaExtent(nx * sizeof(float), ny, nz + 1);
    past_end.kind = cudaMemcpyHostToDevice;
    SHOW(cudaMemcpy3D(&past_end));
    cudaMemcpy3DParms narrow_pitch = past_end;
    narrow_pitch.srcPtr.pitch = nx;  // elements, not bytes
    narrow_pitch.extent = extent;
    SHOW(cudaMemcpy3D(&narrow_pitch));
    cudaMemcpy3DParms past_row = past_end;
    past_row.extent = extent;
    past_row.dstPos = make_cudaPos(vol.pitch - 8, 0, 0);
    SHOW(cudaMemcpy3D(&past_row));
    SHOW(cudaMemset3D(vol, 0, make_cudaExtent(nx * sizeof(float), ny, nz + 1)));
    SHOW(cudaMalloc3D(nullptr, extent));
    cudaFree(vol.ptr);
}

int main(int argc, char** argv) {
    if (argc > 1 && std::strcmp(argv[1], "bad") == 0) {
        bad();
        return 0;
    }
    return good();
}
