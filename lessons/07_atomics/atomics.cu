// Lesson 07: the racy counter and the atomic counter. Every thread adds one to a global counter.
// Without an atomic, two threads can read the same old value and one increment is lost; the
// simulator's race checker names the two threads and the line, whatever the values came out as.
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

// Stops the program with the file, the line and CUDA's message when a runtime call fails.
#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t err_ = (call);                                                       \
        if (err_ != cudaSuccess) {                                                       \
            std::fprintf(stderr, "%s:%d: %s (%s)\n", __FILE__, __LINE__,                 \
                         cudaGetErrorString(err_), cudaGetErrorName(err_));              \
            std::exit(EXIT_FAILURE);                                                     \
        }                                                                                \
    } while (0)

// Read, add one, write back: three steps that other threads can interleave with.
__global__ void count_racy(int* counter) {
    counter[0] += 1;  // the race: nothing orders this thread's read and write against others'
}

// The same increment as one indivisible step.
__global__ void count_atomic(int* counter) {
    atomicAdd(&counter[0], 1);
}

// Starts a counter at 0, runs `kernel` on it, and returns the count.
int count_with(void (*kernel)(int*), int blocks, int threads) {
    int* d_counter;
    CHECK(cudaMalloc(&d_counter, sizeof(int)));
    CHECK(cudaMemset(d_counter, 0, sizeof(int)));
    kernel<<<blocks, threads>>>(d_counter);
    CHECK(cudaGetLastError());
    int total = 0;
    CHECK(cudaMemcpy(&total, d_counter, sizeof(int), cudaMemcpyDeviceToHost));  // waits for the kernel
    CHECK(cudaFree(d_counter));
    return total;
}

int main() {
    const int blocks = 64, threads = 64, expected = blocks * threads;
    int racy_total = count_with(count_racy, blocks, threads);
    int atomic_total = count_with(count_atomic, blocks, threads);

    std::printf("-- %d threads each add 1 to a counter\n", expected);
    std::printf("racy counter:   %d%s\n", racy_total,
                racy_total == expected
                    ? "  (right by luck: this schedule ran one thread's read and write together)"
                    : "  (updates were lost)");
    std::printf("atomic counter: %d\n", atomic_total);
    std::printf("checksum %d\n", atomic_total);
    if (atomic_total != expected) {
        std::printf("FAILED: the atomic counter should be %d\n", expected);
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
