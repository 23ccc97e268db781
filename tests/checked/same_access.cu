// Corners of racecheck's "already recorded" early exit (sim/src/check/race.cpp): accesses that
// repeat one already in a shadow cell in all but one respect (kind, block, barrier interval,
// launch) must still be checked. Each case prints how many findings it left; the test matches
// the finding's kind and lines, or its absence.
#include <cuda_runtime.h>
#include <simt/simt.hpp>

#include <cstdio>
#include <cstring>

// Thread 0 reads then writes data[0]; thread 32 (another warp) then reads it with nothing between.
__global__ void read_then_write(int* data, int* out, bool barrier) {
    if (threadIdx.x == 0) {
        int seen = data[0];
        data[0] = seen + 1;
    }
    if (barrier) __syncthreads();
    if (threadIdx.x == 32) out[0] = data[0];
}

// Thread 0 of every block writes out[0] at the same line: the same access but for the block.
__global__ void same_line_every_block(int* out) {
    if (threadIdx.x == 0) out[0] = blockIdx.x;
}

// Thread 0 writes tile[0] at the same line in two barrier intervals; in the second, thread 32
// reads it before the barrier that would order them. (`rounds` is 2: a count known only at run
// time keeps the compiler from unrolling the loop into two stores at two addresses of code.)
__global__ void write_again_after_barrier(int* out, int rounds) {
    __shared__ int tile[1];
    for (int round = 0; round < rounds; ++round) {
        if (threadIdx.x == 0) tile[0] = round;
        if (round == 1 && threadIdx.x == 32) out[0] = tile[0];
        __syncthreads();
    }
}

// Every thread writes its own element: launched twice, only the launch order can order it.
__global__ void fill(int* data, int value) {
    data[threadIdx.x] = value;
}

// One launch site for both launches, so that both run the very same store instruction.
void launch_fill(int* data, int value, cudaStream_t stream) {
    fill<<<1, 64, 0, stream>>>(data, value);
}

// Every thread reads its own element.
__global__ void read_each(const int* data, int* out) { out[threadIdx.x] = data[threadIdx.x]; }

// Shared memory, settled on the checked path's shortcut for stamps that a barrier or program order
// already orders (race.cpp, settle_shared, which takes sites seen before: launched twice): the
// barrier orders thread 0's write before thread 32's read, and thread 64's write races with it.
__global__ void shared_read_then_write(int* out, bool write) {
    __shared__ int s[1];
    if (threadIdx.x == 0) s[0] = 1;
    __syncthreads();
    if (threadIdx.x == 32) out[0] = s[0];
    if (write && threadIdx.x == 64) s[0] = 2;
}

// Shared memory is fresh for every block: block 1 reads the element that only block 0 wrote.
__global__ void shared_written_by_another_block(int* out) {
    __shared__ int s[1];
    if (blockIdx.x == 0 && threadIdx.x == 0) s[0] = 1;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

int main(int argc, char** argv) {
    const char* which = argc > 1 ? argv[1] : "";
    int *data, *out;
    cudaMalloc(&data, 64 * sizeof(int));
    cudaMalloc(&out, 64 * sizeof(int));
    cudaMemset(data, 0, 64 * sizeof(int));
    cudaMemset(out, 0, 64 * sizeof(int));
    if (std::strcmp(which, "read-then-write") == 0 || std::strcmp(which, "read-then-write-barrier") == 0) {
        read_then_write<<<1, 64>>>(data, out, std::strcmp(which, "read-then-write-barrier") == 0);
    } else if (std::strcmp(which, "two-blocks") == 0) {
        same_line_every_block<<<2, 32>>>(out);
    } else if (std::strcmp(which, "after-barrier") == 0) {
        write_again_after_barrier<<<1, 64>>>(out, 2);
    } else if (std::strcmp(which, "two-streams") == 0 || std::strcmp(which, "one-stream") == 0) {
        cudaStream_t first, second;
        cudaStreamCreate(&first);
        cudaStreamCreate(&second);
        launch_fill(data, 1, first);
        launch_fill(data, 2, std::strcmp(which, "two-streams") == 0 ? second : first);
        cudaStreamDestroy(first);
        cudaStreamDestroy(second);
    } else if (std::strcmp(which, "ordered-then-other-stream") == 0) {
        // The second fill is ordered after the first (the host waited), so each of its stores is
        // the launch's first to its element with only ordered stamps in the cell; the read on the
        // other stream is ordered after the first fill only, and races with the second.
        cudaStream_t first, second;
        cudaStreamCreate(&first);
        cudaStreamCreate(&second);
        launch_fill(data, 1, first);
        cudaDeviceSynchronize();
        launch_fill(data, 2, first);
        read_each<<<1, 64, 0, second>>>(data, out);
        cudaStreamDestroy(first);
        cudaStreamDestroy(second);
    } else if (std::strcmp(which, "unwritten-after-a-launch") == 0) {
        // A launch's first read of an element that nothing wrote, after an earlier launch that
        // happens before it: still an uninitialised read.
        int* unwritten;
        cudaMalloc(&unwritten, 64 * sizeof(int));
        launch_fill(data, 1, 0);
        read_each<<<1, 64>>>(unwritten, out);
        cudaDeviceSynchronize();
        cudaFree(unwritten);
    } else if (std::strcmp(which, "shared-read-then-write") == 0) {
        shared_read_then_write<<<1, 96>>>(out, false);
        shared_read_then_write<<<1, 96>>>(out, true);
    } else if (std::strcmp(which, "shared-another-block") == 0) {
        shared_written_by_another_block<<<2, 32>>>(out);
    } else {
        std::fprintf(
            stderr,
            "usage: same_access read-then-write[-barrier] | two-blocks | after-barrier | "
            "two-streams | one-stream | ordered-then-other-stream | unwritten-after-a-launch | "
            "shared-read-then-write | shared-another-block\n");
        return 2;
    }
    cudaDeviceSynchronize();
    cudaFree(data);
    cudaFree(out);
    std::printf("findings: %zu\n", simt::sim::findings().size());
    return 0;
}
