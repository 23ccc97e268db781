// Message passing between two blocks, as a project of its own writes it: block 1 fills the
// message and raises a libcu++ flag, block 0 waits for the flag and reads the message. The
// flag is a release and an acquire; the writer's store to the message comes after the release.
#include <cuda/atomic>
#include <cstdio>

__global__ void pass(int* message, int* flag, int* out) {
    if (threadIdx.x != 0) return;
    cuda::atomic_ref<int, cuda::thread_scope_device> ready(*flag);
    if (blockIdx.x == 1) {
        message[0] = 7;
        ready.store(1, cuda::memory_order_release);
        message[1] = 8;  // BUG: written after the release, which does not cover it
    } else {
        while (ready.load(cuda::memory_order_acquire) == 0) {
        }
        out[0] = message[0] + message[1];
    }
}

// The project also times its launch on the GPU's clock (below the kernel, so that the lines the
// tests name stay where they are).
#include <simt/simt.hpp>

int main() {
    int *message, *flag, *out;
    cudaMalloc(&message, 2 * sizeof(int));
    cudaMalloc(&flag, sizeof(int));
    cudaMalloc(&out, sizeof(int));
    cudaMemset(flag, 0, sizeof(int));
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start);
    pass<<<2, 32>>>(message, flag, out);
    cudaEventRecord(stop);
    int h = 0;
    cudaMemcpy(&h, out, sizeof(int), cudaMemcpyDeviceToHost);
    float ms = 0;
    simt::gpu_elapsed_time(&ms, start, stop);
    std::printf("missing_fence: %d, %s: %s\n", h, simt::gpu_time_label().c_str(),
                ms > 0 ? "timed" : "not timed");
    return 0;
}
