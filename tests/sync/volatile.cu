// Races through volatile, and acquires without their fence (docs/checkers.md, "volatile" and
// "Memory-model findings"). Plain CUDA, built for the simulator and by nvcc. Each shape runs by
// its name (the first argument), its data through an `int*` or, with the second argument
// `volatile`, through a `volatile int*`, as older CUDA code and many tutorials write it: volatile
// keeps the compiler from caching a value, and orders and protects nothing, so each racy shape is
// a data race at both its lines either way (tests.cmake). The shapes a GPU runs right but only
// as today's GPUs happen to order memory are memory-model findings, never data races.
#include <cstdio>
#include <cstring>

// A spin lock with no fence at all: it makes one holder at a time, but orders nothing between
// them, so the two blocks' writes race.
template <class Data>
__global__ void lock_without_fences(Data data, int* mutex) {
    if (threadIdx.x != 0) return;
    while (atomicCAS(mutex, 0, 1) != 0) {
    }
    if (blockIdx.x == 0) data[0] = 1;
    if (blockIdx.x == 1) data[0] = 2;
    atomicExch(mutex, 0);
}

// No lock and no flag.
template <class Data>
__global__ void unguarded(Data data) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) data[0] = 1;
    if (blockIdx.x == 1) data[0] = 2;
}

// Block 0 publishes data[0] with a fenced flag, then reads it again; block 1, having seen the
// flag, writes it. The flag orders what came before it, not the read after it.
template <class Data>
__global__ void reread_after_publish(Data data, int* flag, int* out) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        data[0] = 1;
        __threadfence();
        atomicExch(flag, 1);
        out[0] = data[0];
    } else {
        while (atomicAdd(flag, 0) == 0) {
        }
        __threadfence();
        data[0] = 2;
    }
}

// A spin lock with its fences, except the one after the atomicCAS in block 1: block 1's write
// may be performed before its atomicCAS has read the lock free.
template <class Data>
__global__ void lock_missing_acquire_fence(Data data, int* mutex) {
    if (threadIdx.x != 0) return;
    while (atomicCAS(mutex, 0, 1) != 0) {
    }
    if (blockIdx.x != 1) __threadfence();
    if (blockIdx.x == 0) data[0] = 1;
    if (blockIdx.x == 1) data[0] = 2;
    __threadfence();
    atomicExch(mutex, 0);
}

// The spin lock with both fences, taken by thread 0 of four blocks around a counter.
template <class Data>
__global__ void fenced_lock(Data data, int* mutex) {
    if (threadIdx.x != 0) return;
    while (atomicCAS(mutex, 0, 1) != 0) {
    }
    __threadfence();
    data[0] = data[0] + 1;
    __threadfence();
    atomicExch(mutex, 0);
}

// Message passing with fences on both sides, through a volatile flag (the Programming Guide's
// form) or an atomic one. Block 0 reads, block 1 writes: the reader waits for a later block.
template <class Data>
__global__ void fenced_flag(Data data, int* flag, int* out, bool volatile_flag) {
    if (threadIdx.x != 0) return;
    volatile int* vflag = flag;
    if (blockIdx.x == 1) {
        for (int i = 0; i < 4; ++i) data[i] = 10 + i;
        __threadfence();
        if (volatile_flag) *vflag = 1;
        else atomicExch(flag, 1);
    } else {
        if (volatile_flag) {
            while (*vflag == 0) {
            }
        } else {
            while (atomicAdd(flag, 0) == 0) {
            }
        }
        __threadfence();
        int sum = 0;
        for (int i = 0; i < 4; ++i) sum += data[i];
        out[0] = sum;
    }
}

// The same with the writer first (block 0): the reader's first read already sees the flag, so it
// never spins, and its fence alone makes the read an acquire.
template <class Data>
__global__ void fenced_flag_writer_first(Data data, int* flag, int* out) {
    if (threadIdx.x != 0) return;
    volatile int* vflag = flag;
    if (blockIdx.x == 0) {
        data[0] = 7;
        __threadfence();
        *vflag = 1;
    } else {
        while (*vflag == 0) {
        }
        __threadfence();
        out[0] = data[0];
    }
}

// A spin on an atomic flag, then the data read with no fence (memory-model), or the data
// written with no fence (a data race: the write may be performed before the flag's read).
template <class Data>
__global__ void spin_without_fence(Data data, int* flag, int* out, bool then_write) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 1) {
        data[0] = 5;
        __threadfence();
        atomicExch(flag, 1);
    } else {
        while (atomicAdd(flag, 0) == 0) {
        }
        if (then_write) data[0] = 6;
        else out[0] = data[0];
    }
}

// The acquire's fence of block scope after another block's release: memory-model.
template <class Data>
__global__ void acquire_with_block_fence(Data data, int* flag, int* out) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 1) {
        data[0] = 8;
        __threadfence();
        atomicExch(flag, 1);
    } else {
        while (atomicAdd(flag, 0) == 0) {
        }
        __threadfence_block();
        out[0] = data[0];
    }
}

// The shape of NVIDIA's threadFenceReduction sample: each block reduces its part in shared
// memory, thread 0 writes the block's sum, fences, and takes a ticket; the block that takes the
// last one (told to its threads through shared memory and a barrier, with no fence after the
// ticket) sums the partial sums with all its threads, writes the total over partial[0] and
// resets the counter for the next launch.
__device__ unsigned int retired = 0;
template <class Data>
__global__ void fence_reduction(const int* in, Data partial, int n) {
    __shared__ int s[64];
    __shared__ bool last;
    const unsigned int t = threadIdx.x;
    const unsigned int i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) {
        partial[blockIdx.x] = s[0];
        __threadfence();
        const unsigned int ticket = atomicInc(&retired, gridDim.x);
        last = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (last) {
        int sum = 0;
        for (unsigned int b = t; b < gridDim.x; b += blockDim.x) sum += partial[b];
        s[t] = sum;
        __syncthreads();
        for (unsigned int stride = blockDim.x / 2; stride > 0; stride /= 2) {
            if (t < stride) s[t] += s[t + stride];
            __syncthreads();
        }
        if (t == 0) {
            partial[0] = s[0];
            retired = 0;
        }
    }
}

template <class Data>
int run(const char* which, Data data, int* flag, int* out, int* in) {
    auto is = [&](const char* name) { return std::strcmp(which, name) == 0; };
    int* const raw = const_cast<int*>(data);  // for the runtime's calls, which take void*
    int expect = 0;
    if (is("lock-without-fences")) {
        lock_without_fences<<<2, 32>>>(data, flag);
        expect = -1;
    } else if (is("unguarded")) {
        unguarded<<<2, 32>>>(data);
        expect = -1;
    } else if (is("reread-after-publish")) {
        reread_after_publish<<<2, 32>>>(data, flag, out);
        expect = 1;  // what block 0 reads when it runs first; on a GPU it may read 2
    } else if (is("lock-missing-acquire-fence")) {
        lock_missing_acquire_fence<<<2, 32>>>(data, flag);
        expect = -1;
    } else if (is("fenced-lock")) {
        cudaMemset(raw, 0, sizeof(int));
        fenced_lock<<<4, 32>>>(data, flag);
        cudaMemcpy(out, raw, sizeof(int), cudaMemcpyDeviceToDevice);
        expect = 4;
    } else if (is("fenced-flag") || is("fenced-volatile-flag")) {
        fenced_flag<<<2, 32>>>(data, flag, out, is("fenced-volatile-flag"));
        expect = 10 + 11 + 12 + 13;
    } else if (is("fenced-flag-writer-first")) {
        fenced_flag_writer_first<<<2, 32>>>(data, flag, out);
        expect = 7;
    } else if (is("spin-without-fence") || is("spin-without-fence-then-write")) {
        spin_without_fence<<<2, 32>>>(data, flag, out, is("spin-without-fence-then-write"));
        expect = is("spin-without-fence") ? 5 : -1;
    } else if (is("acquire-with-block-fence")) {
        acquire_with_block_fence<<<2, 32>>>(data, flag, out);
        expect = 8;
    } else if (is("fence-reduction")) {
        const int n = 16 * 64;
        int host[n];
        for (int i = 0; i < n; ++i) host[i] = i % 5;
        cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
        fence_reduction<<<16, 64>>>(in, data, n);
        cudaMemcpy(out, raw, sizeof(int), cudaMemcpyDeviceToDevice);
        for (int i = 0; i < n; ++i) expect += host[i] % 5;
    } else {
        std::printf("usage: volatile lock-without-fences|unguarded|reread-after-publish|"
                    "lock-missing-acquire-fence|fenced-lock|fenced-flag|fenced-volatile-flag|"
                    "fenced-flag-writer-first|spin-without-fence|spin-without-fence-then-write|"
                    "acquire-with-block-fence|fence-reduction [volatile]\n");
        return 2;
    }
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        std::printf("%s: %s\n", which, cudaGetErrorName(e));
        return 1;
    }
    if (expect < 0) {  // a race that writes data[0]: its value is the schedule's
        std::printf("%s: ran\n", which);
        return 0;
    }
    int result = -1;
    cudaMemcpy(&result, out, sizeof(int), cudaMemcpyDeviceToHost);
    std::printf("%s: %d (expected %d)\n", which, result, expect);
    return result == expect ? 0 : 1;
}

int main(int argc, char** argv) {
    const char* which = argc > 1 ? argv[1] : "";
    const bool through_volatile = argc > 2 && std::strcmp(argv[2], "volatile") == 0;
    int *data, *flag, *out, *in;
    cudaMalloc(&data, 16 * sizeof(int));
    cudaMalloc(&flag, sizeof(int));
    cudaMalloc(&out, sizeof(int));
    cudaMalloc(&in, 16 * 64 * sizeof(int));
    cudaMemset(flag, 0, sizeof(int));
    cudaMemset(out, 0, sizeof(int));
    const int status = through_volatile
                           ? run(which, static_cast<volatile int*>(data), flag, out, in)
                           : run(which, data, flag, out, in);
    cudaFree(data);
    cudaFree(flag);
    cudaFree(out);
    cudaFree(in);
    return status;
}
