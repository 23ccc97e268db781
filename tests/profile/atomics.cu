// Atomics as Nsight Compute counts them: one warp-level request per atomic call a warp makes,
// under `_op_red` when the call's result is dropped (nvcc issues a RED) and `_op_atom` when the
// program uses it (an ATOM). A float atomicAdd, which simt makes a load and a compare-and-swap,
// is one request too, however often the swap is retried against other blocks. The counts are
// worked out in atomics.expect; the launches and lines are marked "// @name".
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t err_ = (call);                                                       \
        if (err_ != cudaSuccess) {                                                       \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
            std::exit(EXIT_FAILURE);                                                     \
        }                                                                                \
    } while (0)

__global__ void count_unused(int* counter) {
    atomicAdd(counter, 1);  // @int-unused-add
}

__global__ void count_used(int* counter, int* ticket) {
    ticket[threadIdx.x] = atomicAdd(counter, 1);  // @int-used-add
}

__global__ void sum_unused(float* total) {
    atomicAdd(total, 1.0f);  // @float-unused-add
}

__global__ void sum_used(float* total, float* before) {
    before[threadIdx.x] = atomicAdd(total, 1.0f);  // @float-used-add
}

// One lane per warp adds, in every block at once: the swaps of blocks on other workers collide.
__global__ void warp_sums(float* total) {
    if (threadIdx.x % 32 == 0) atomicAdd(total, 2.0f);  // @warp-add
}

__global__ void largest_and_last(int* largest, int* last) {
    (void)atomicMax(largest, static_cast<int>(threadIdx.x));  // @void-max
    atomicExch(last, static_cast<int>(threadIdx.x));           // @exch
}

int main() {
    int *counter, *ticket, *largest, *last;
    float *total, *before;
    CHECK(cudaMalloc(&counter, sizeof(int)));
    CHECK(cudaMalloc(&ticket, 64 * sizeof(int)));
    CHECK(cudaMalloc(&largest, sizeof(int)));
    CHECK(cudaMalloc(&last, sizeof(int)));
    CHECK(cudaMalloc(&total, sizeof(float)));
    CHECK(cudaMalloc(&before, 64 * sizeof(float)));
    CHECK(cudaMemset(counter, 0, sizeof(int)));
    CHECK(cudaMemset(largest, 0, sizeof(int)));
    CHECK(cudaMemset(last, 0, sizeof(int)));
    CHECK(cudaMemset(total, 0, sizeof(float)));

    count_unused<<<1, 64>>>(counter);            // @int-unused
    count_used<<<1, 64>>>(counter, ticket);      // @int-used
    sum_unused<<<1, 64>>>(total);                // @float-unused
    sum_used<<<1, 64>>>(total, before);          // @float-used
    warp_sums<<<256, 256>>>(total);              // @warps
    largest_and_last<<<1, 64>>>(largest, last);  // @max-exch
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    int count = 0, most = 0;
    float sum = 0;
    CHECK(cudaMemcpy(&count, counter, sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&most, largest, sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&sum, total, sizeof(float), cudaMemcpyDeviceToHost));
    std::printf("counted %d, summed %.1f, largest %d\n", count, sum, most);
    for (void* p : {(void*)counter, (void*)ticket, (void*)largest, (void*)last, (void*)total,
                    (void*)before})
        CHECK(cudaFree(p));
    return count == 128 && sum == 128.0f + 256 * 8 * 2.0f && most == 63 ? 0 : 1;
}
