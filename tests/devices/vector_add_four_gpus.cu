// A course's multi-GPU exercise: a vector add split over every device, each slice allocated,
// filled and added on its own device, the results gathered on device 0 with peer copies.
#include <cstdio>
#include <vector>

#include "../cuda/check_cuda.h"

__global__ void add(const float* a, const float* b, float* c, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        c[i] = a[i] + b[i];
}

int main() {
    int devices = 0;
    CHECK(cudaGetDeviceCount(&devices));
    std::printf("devices: %d\n", devices);
    const int n = 1 << 16, slice = n / devices;
    std::vector<float> a(n), b(n), c(n);
    for (int i = 0; i < n; ++i) {
        a[i] = float(i);
        b[i] = 2.0f * float(i);
    }
    std::vector<float*> d_a(devices), d_b(devices), d_c(devices);
    std::vector<cudaStream_t> streams(devices);
    for (int d = 0; d < devices; ++d) {
        CHECK(cudaSetDevice(d));
        CHECK(cudaStreamCreate(&streams[d]));
        CHECK(cudaMalloc(&d_a[d], slice * sizeof(float)));
        CHECK(cudaMalloc(&d_b[d], slice * sizeof(float)));
        CHECK(cudaMalloc(&d_c[d], slice * sizeof(float)));
        CHECK(cudaMemcpyAsync(d_a[d], a.data() + d * slice, slice * sizeof(float),
                              cudaMemcpyHostToDevice, streams[d]));
        CHECK(cudaMemcpyAsync(d_b[d], b.data() + d * slice, slice * sizeof(float),
                              cudaMemcpyHostToDevice, streams[d]));
        add<<<64, 256, 0, streams[d]>>>(d_a[d], d_b[d], d_c[d], slice);
        CHECK(cudaGetLastError());
    }
    // Gather every slice into one array on device 0.
    CHECK(cudaSetDevice(0));
    float* d_all;
    CHECK(cudaMalloc(&d_all, n * sizeof(float)));
    for (int d = 0; d < devices; ++d) {
        int can = 0;
        if (d != 0) {
            CHECK(cudaDeviceCanAccessPeer(&can, 0, d));
            if (can) CHECK(cudaDeviceEnablePeerAccess(d, 0));
        }
        CHECK(cudaStreamSynchronize(streams[d]));
        CHECK(cudaMemcpyPeer(d_all + d * slice, 0, d_c[d], d, slice * sizeof(float)));
    }
    CHECK(cudaMemcpy(c.data(), d_all, n * sizeof(float), cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += c[i] != 3.0f * float(i);
    std::printf("wrong: %d of %d\n", wrong, n);
    for (int d = 0; d < devices; ++d) {
        CHECK(cudaSetDevice(d));
        CHECK(cudaFree(d_a[d]));
        CHECK(cudaFree(d_b[d]));
        CHECK(cudaFree(d_c[d]));
        CHECK(cudaStreamDestroy(streams[d]));
    }
    CHECK(cudaSetDevice(0));
    CHECK(cudaFree(d_all));
    std::printf(wrong == 0 ? "PASS\n" : "FAIL\n");
    return wrong == 0 ? 0 : 1;
}
