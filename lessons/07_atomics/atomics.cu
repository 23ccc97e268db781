// Lesson 07: the racy counter and the atomic counter. Every thread adds one to a global counter.
// Without an atomic, two threads can read the same old value and one increment is lost; the
// simulator's race checker names the two threads and the line, whatever the values came out as.
// Part 2 goes on to atomics that order other memory, with fences: a spin lock around a plain
// total, and the last-block sum.
#include <cstdio>
#include <cstdlib>
#include <cstring>

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

// --- Part 2: atomics that order other memory --------------------------------------------------

// A spin lock: atomicCAS takes it (turns 0 into 1, or fails while another thread holds it), and
// atomicExch gives it back. The fences make it a lock for the memory it guards, not only for
// itself: the one after taking it is the acquire, the one before giving it back the release.
__device__ void lock(int* mutex) {
    while (atomicCAS(mutex, 0, 1) != 0) {
    }
    __threadfence();  // what the last holder wrote is seen from here on
}
__device__ void unlock(int* mutex) {
    __threadfence();  // what this thread wrote is seen before the lock is seen free
    atomicExch(mutex, 0);
}

// Thread 0 of each block adds its block's size to a plain, non-atomic total, under the lock.
__global__ void count_locked(int* mutex, int* total) {
    if (threadIdx.x == 0) {
        lock(mutex);
        total[0] += blockDim.x;  // guarded: one holder at a time, each after the last one's write
        unlock(mutex);
    }
}

// The last-block sum (NVIDIA's threadFenceReduction sample): each block writes its own result,
// then takes a ticket; the block that takes the last ticket knows every other block has written
// its result, and adds them up. atomicInc counts 0, 1, ..., gridDim.x - 1 and then wraps to 0,
// ready for the next launch. NVIDIA's sample has no fence after the ticket and relies on the
// __syncthreads() that follows: a barrier is a fence for its own block only, which today's GPUs
// let stand in and CUDA's memory model does not (simt calls it a memory-model finding).
__device__ unsigned int blocks_done = 0;

__global__ void count_last_block(int* partial, int* total, bool fence) {
    __shared__ bool last;
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = blockDim.x;  // this block's result
        if (fence) __threadfence();        // the result is out before the ticket is taken
        unsigned int ticket = atomicInc(&blocks_done, gridDim.x - 1);
        last = ticket == gridDim.x - 1;
        if (last) __threadfence();         // every block's result is seen from here on
    }
    __syncthreads();  // every thread of the block sees `last`
    if (last && threadIdx.x == 0) {
        int sum = 0;
        for (unsigned int b = 0; b < gridDim.x; ++b)
            sum += partial[b];  // without the fence: the race shows here
        total[0] = sum;
    }
}

// Runs the lock and the last-block sum; returns both counts.
void count_synchronised(int blocks, int threads, bool fence, int& locked, int& last_block) {
    int *d_mutex, *d_total, *d_partial;
    CHECK(cudaMalloc(&d_mutex, sizeof(int)));
    CHECK(cudaMalloc(&d_total, 2 * sizeof(int)));
    CHECK(cudaMalloc(&d_partial, blocks * sizeof(int)));
    CHECK(cudaMemset(d_mutex, 0, sizeof(int)));
    CHECK(cudaMemset(d_total, 0, 2 * sizeof(int)));
    count_locked<<<blocks, threads>>>(d_mutex, d_total);
    CHECK(cudaGetLastError());
    count_last_block<<<blocks, threads>>>(d_partial, d_total + 1, fence);
    CHECK(cudaGetLastError());
    int totals[2];
    CHECK(cudaMemcpy(totals, d_total, sizeof totals, cudaMemcpyDeviceToHost));
    locked = totals[0];
    last_block = totals[1];
    CHECK(cudaFree(d_mutex));
    CHECK(cudaFree(d_total));
    CHECK(cudaFree(d_partial));
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

int main(int argc, char** argv) {
    // `./lab run 07_atomics nofence`: the last-block sum without its fence.
    const bool fence = !(argc > 1 && std::strcmp(argv[1], "nofence") == 0);
    const int blocks = 64, threads = 64, expected = blocks * threads;
    int racy_total = count_with(count_racy, blocks, threads);
    int atomic_total = count_with(count_atomic, blocks, threads);

    std::printf("-- %d threads each add 1 to a counter\n", expected);
    std::printf("racy counter:   %d%s\n", racy_total,
                racy_total == expected
                    ? "  (right by luck: this schedule ran one thread's read and write together)"
                    : "  (updates were lost)");
    std::printf("atomic counter: %d\n", atomic_total);

    int locked_total = 0, last_block_total = 0;
    count_synchronised(blocks, threads, fence, locked_total, last_block_total);
    std::printf("-- thread 0 of each of %d blocks adds its block's %d threads\n", blocks, threads);
    std::printf("under a lock:        %d\n", locked_total);
    std::printf("by the last block:   %d%s\n", last_block_total,
                fence ? "" : "  (without the fence)");
    std::printf("checksum %d\n", atomic_total + locked_total + last_block_total);
    if (atomic_total != expected || locked_total != expected || last_block_total != expected) {
        std::printf("FAILED: every count should be %d\n", expected);
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
