// Synchronisation between threads through atomics and fences, the idioms a course reaches after
// atomicAdd: message passing with a flag, a spin lock, the last-block reduction, scoped atomics.
// Plain CUDA, built for the simulator and by nvcc. Each idiom is run by its name (the first
// argument); the right forms must leave no finding and the wrong ones a data race at their lines
// (tests.cmake). Every form prints what it computed, which is the same on a GPU.
#include <cuda/atomic>

#include <cstdio>
#include <cstring>

#define N 4

// Message passing between blocks: block `writer` fills data, then raises the flag; block
// `reader` waits for the flag, then reads data. Block 0 reads, block 1 writes: the reader waits
// for a block that starts after it.
__global__ void message(int* data, int* flag, int* out, bool writer_fence, bool reader_fence) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 1) {
        for (int i = 0; i < N; ++i) data[i] = 10 + i;  // the message
        if (writer_fence) __threadfence();
        atomicExch(flag, 1);                            // the flag
    } else {
        while (atomicAdd(flag, 0) == 0) {              // waits for the flag
        }
        if (reader_fence) __threadfence();
        int sum = 0;
        for (int i = 0; i < N; ++i) sum += data[i];     // reads the message
        out[0] = sum;
    }
}

// The same with a volatile flag, written and polled as the Programming Guide's examples do.
__global__ void message_volatile(int* data, volatile int* flag, int* out) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 1) {
        for (int i = 0; i < N; ++i) data[i] = 10 + i;
        __threadfence();
        *flag = 1;
    } else {
        while (*flag == 0) {
        }
        __threadfence();
        int sum = 0;
        for (int i = 0; i < N; ++i) sum += data[i];
        out[0] = sum;
    }
}

// Message passing between two warps of one block: thread 0 waits for a flag that thread 32
// raises after it runs (a thread spinning in the simulator lets the block's other threads run).
__global__ void message_in_block(int* data, int* flag, int* out, bool fences) {
    if (threadIdx.x == 32) {
        for (int i = 0; i < N; ++i) data[i] = 20 + i;
        if (fences) __threadfence_block();
        atomicExch(flag, 1);
    } else if (threadIdx.x == 0) {
        while (atomicAdd(flag, 0) == 0) {
        }
        if (fences) __threadfence_block();
        int sum = 0;
        for (int i = 0; i < N; ++i) sum += data[i];  // without the fences: the race shows here
        out[0] = sum;
    }
}

// Message passing with libcu++: a release store and an acquire load order the message, with no
// fence; relaxed, they order nothing.
__global__ void message_libcu(int* data, int* flag, int* out, bool release_acquire) {
    if (threadIdx.x != 0) return;
    cuda::atomic_ref<int, cuda::thread_scope_device> ready(*flag);
    if (blockIdx.x == 1) {
        for (int i = 0; i < N; ++i) data[i] = 10 + i;
        ready.store(1, release_acquire ? cuda::memory_order_release : cuda::memory_order_relaxed);
    } else {
        while (ready.load(release_acquire ? cuda::memory_order_acquire
                                          : cuda::memory_order_relaxed) == 0) {
        }
        int sum = 0;
        for (int i = 0; i < N; ++i) sum += data[i];
        out[0] = sum;
    }
}

// A spin lock taken by one thread of each warp of every block, guarding a plain counter.
__device__ void lock(int* mutex, bool fence) {
    while (atomicCAS(mutex, 0, 1) != 0) {
    }
    if (fence) __threadfence();
}
__device__ void unlock(int* mutex, bool fence) {
    if (fence) __threadfence();
    atomicExch(mutex, 0);
}
__global__ void locked_count(int* mutex, int* count, bool fence) {
    if (threadIdx.x % 32 != 0) return;
    lock(mutex, fence);
    count[0] = count[0] + 1;  // guarded by the lock
    unlock(mutex, fence);
}

// The same lock with atomics and fences of block scope: a lock for one block only.
__global__ void block_scoped_lock(int* mutex, int* count) {
    if (threadIdx.x % 32 != 0) return;
    while (atomicCAS_block(mutex, 0, 1) != 0) {
    }
    __threadfence_block();
    count[0] = count[0] + 1;
    __threadfence_block();
    atomicExch_block(mutex, 0);
}

// The last-block reduction of NVIDIA's threadFenceReduction sample and the Programming Guide:
// each block writes its sum, takes a ticket, and the block with the last ticket adds the sums.
// The sample has no fence after the ticket: the barrier that follows is a fence of block scope,
// which completes the acquire on today's GPUs but not in CUDA's memory model (a finding of its
// own kind); the reader's fence makes it one the model promises.
__device__ unsigned int tickets = 0;
__global__ void sum_last_block(const int* in, int* partial, int* total, bool fence,
                               bool reader_fence) {
    __shared__ int s[64];
    __shared__ bool last;
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) {
        partial[blockIdx.x] = s[0];
        if (fence) __threadfence();  // the sum is written before the ticket is taken
        unsigned int ticket = atomicInc(&tickets, gridDim.x);
        last = ticket == gridDim.x - 1;
        if (last && reader_fence) __threadfence();  // every block's sum is seen from here on
    }
    __syncthreads();
    if (last && t == 0) {
        int sum = 0;
        for (unsigned int b = 0; b < gridDim.x; ++b) sum += partial[b];
        total[0] = sum;
        tickets = 0;  // for the next launch
    }
}

// A counter that every block adds to with an atomic of block scope.
__global__ void block_scoped_add(int* count) {
    if (threadIdx.x == 0) atomicAdd_block(count, 1);
}

// A flag that nothing ever raises.
__global__ void wait_forever(int* flag) {
    if (threadIdx.x == 0)
        while (atomicAdd(flag, 0) == 0) {
        }
}

// Blocks 0, 1 and 2 read data[0]; blocks 0 and 1 then say so through a counter, and block 3
// overwrites data[0] once the counter says two have read it. Block 2 never says it has: its
// read and block 3's write race, though the two reads block 3 waited for happen before it.
__global__ void overwrite_after_two_readers(int* data, int* readers, int* out) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x < 3) {
        atomicAdd(out, data[0]);  // each reader adds what it read
        if (blockIdx.x < 2) {
            __threadfence();
            atomicAdd(readers, 1);
        }
    } else {
        while (atomicAdd(readers, 0) < 2) {
        }
        __threadfence();
        data[0] = 99;
    }
}

int main(int argc, char** argv) {
    const char* which = argc > 1 ? argv[1] : "";
    auto is = [&](const char* name) { return std::strcmp(which, name) == 0; };
    int *data, *flag, *out, *in, *partial;
    cudaMalloc(&data, N * sizeof(int));
    cudaMalloc(&flag, sizeof(int));
    cudaMalloc(&out, sizeof(int));
    cudaMalloc(&in, 8 * 64 * sizeof(int));
    cudaMalloc(&partial, 8 * sizeof(int));
    cudaMemset(flag, 0, sizeof(int));
    cudaMemset(out, 0, sizeof(int));
    int result = -1, expect = 0;
    if (is("message") || is("message-no-writer-fence") || is("message-no-reader-fence")) {
        message<<<2, 32>>>(data, flag, out, !is("message-no-writer-fence"),
                           !is("message-no-reader-fence"));
        expect = 10 + 11 + 12 + 13;
    } else if (is("message-volatile")) {
        message_volatile<<<2, 32>>>(data, flag, out);
        expect = 10 + 11 + 12 + 13;
    } else if (is("message-in-block") || is("message-in-block-no-fence")) {
        message_in_block<<<1, 64>>>(data, flag, out, is("message-in-block"));
        expect = 20 + 21 + 22 + 23;
    } else if (is("libcu-release-acquire") || is("libcu-relaxed")) {
        message_libcu<<<2, 32>>>(data, flag, out, is("libcu-release-acquire"));
        expect = 10 + 11 + 12 + 13;
    } else if (is("lock") || is("lock-no-fence") || is("lock-one-block")) {
        int blocks = is("lock-one-block") ? 1 : 4;
        locked_count<<<blocks, 128>>>(flag, out, !is("lock-no-fence"));
        expect = blocks * 4;
    } else if (is("block-scoped-lock")) {
        block_scoped_lock<<<2, 64>>>(flag, out);
        expect = 4;
    } else if (is("last-block") || is("last-block-no-fence") || is("last-block-barrier-only")) {
        int host[8 * 64];
        for (int i = 0; i < 8 * 64; ++i) host[i] = i % 7;
        cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
        sum_last_block<<<8, 64>>>(in, partial, out, !is("last-block-no-fence"),
                                  !is("last-block-barrier-only"));
        for (int i = 0; i < 8 * 64; ++i) expect += i % 7;
    } else if (is("overwrite-after-two-of-three-readers")) {
        const int value = 5;
        cudaMemcpy(data, &value, sizeof value, cudaMemcpyHostToDevice);
        overwrite_after_two_readers<<<4, 32>>>(data, flag, out);
        expect = 3 * value;  // what the blocks add in block order: on a GPU, block 2 may see 99
    } else if (is("block-scoped-add")) {
        block_scoped_add<<<2, 32>>>(out);
        expect = 2;
    } else if (is("wait-forever")) {
        wait_forever<<<2, 32>>>(flag);
    } else {
        std::printf("usage: idioms message|message-no-writer-fence|message-no-reader-fence|"
                    "message-volatile|message-in-block|message-in-block-no-fence|libcu-release-acquire|libcu-relaxed|lock|lock-no-fence|lock-one-block|block-scoped-lock|"
                    "last-block|last-block-no-fence|last-block-barrier-only|overwrite-after-two-of-three-readers|block-scoped-add|"
                    "wait-forever\n");
        return 2;
    }
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        std::printf("%s: %s\n", which, cudaGetErrorName(e));
        return 0;
    }
    cudaMemcpy(&result, out, sizeof(int), cudaMemcpyDeviceToHost);
    std::printf("%s: %d (expected %d)\n", which, result, expect);
    cudaFree(data);
    cudaFree(flag);
    cudaFree(out);
    cudaFree(in);
    cudaFree(partial);
    return result == expect ? 0 : 1;
}
