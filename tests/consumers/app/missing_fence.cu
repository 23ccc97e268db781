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

int main() {
    int *message, *flag, *out;
    cudaMalloc(&message, 2 * sizeof(int));
    cudaMalloc(&flag, sizeof(int));
    cudaMalloc(&out, sizeof(int));
    cudaMemset(flag, 0, sizeof(int));
    pass<<<2, 32>>>(message, flag, out);
    int h = 0;
    cudaMemcpy(&h, out, sizeof(int), cudaMemcpyDeviceToHost);
    std::printf("missing_fence: %d\n", h);
    return 0;
}
