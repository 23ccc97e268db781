// A learner's kernel faults on purpose, one per argument. Each must end the launch with CUDA's
// error, the thread, the block and the line, and the program with status 1: never a signal.
#undef NDEBUG  // the test's builds define it, and assert() must stay
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void write_through_null(int* out) {
    int* p = nullptr;
    if (threadIdx.x == 5) p[threadIdx.x] = 1;  // fault: null pointer
    out[blockIdx.x * blockDim.x + threadIdx.x] = 2;
}

__global__ void write_wild(int* out) {
    int* p = reinterpret_cast<int*>(0x7000deadbee0);
    if (blockIdx.x == 1 && threadIdx.x == 2) *p = 1;  // fault: wild pointer
    out[blockIdx.x * blockDim.x + threadIdx.x] = 2;
}

__device__ int depth(int n, volatile int* sink) {
    volatile char pad[512];
    pad[0] = static_cast<char>(n);
    if (n == 0) return pad[0];
    int r = depth(n - 1, sink) + pad[0];
    *sink = r;
    return r;
}

__global__ void recurse_forever(int* out) {
    int local = 0;
    out[threadIdx.x] = depth(1 << 20, &local);  // fault: stack overflow
}

__global__ void trap_on_negative(const int* in, int* out) {
    if (in[threadIdx.x] < 0) __trap();  // fault: trap
    out[threadIdx.x] = in[threadIdx.x];
}

__global__ void assert_positive(const int* in, int* out) {
    assert(in[threadIdx.x] >= 0);  // fault: assert
    out[threadIdx.x] = in[threadIdx.x];
}

__global__ void abort_on_negative(const int* in, int* out) {
    if (in[threadIdx.x] < 0) abort();  // fault: abort
    out[threadIdx.x] = in[threadIdx.x];
}

__global__ void exit_on_negative(const int* in, int* out) {
    if (in[threadIdx.x] < 0) exit(3);  // fault: exit
    out[threadIdx.x] = in[threadIdx.x];
}

__global__ void double_it(const int* in, int* out) { out[threadIdx.x] = 2 * in[threadIdx.x]; }

__global__ void read_far_past(const int* in, int* out) {
    out[threadIdx.x] = in[threadIdx.x + (1 << 26)];  // fault: far past the end
}

__global__ void scale(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2 * in[i];  // fault: host memory, unless `in` is pinned
}

__global__ void scale_unless_null(const float* in, const float* unused, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = unused ? 2 * in[i] : in[i];  // `unused` is compared, never read
}

int main(int argc, char** argv) {
    const char* mode = argc > 1 ? argv[1] : "";
    auto is = [&](const char* m) { return std::strcmp(mode, m) == 0; };
    const int n = 32;
    int *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(int));
    cudaMalloc(&d_out, 2 * n * sizeof(int));
    int host[n];
    for (int i = 0; i < n; ++i) host[i] = i == 7 ? -1 : i;
    cudaMemcpy(d_in, host, sizeof host, cudaMemcpyHostToDevice);

    if (is("null")) write_through_null<<<2, n>>>(d_out);
    else if (is("wild")) write_wild<<<2, n>>>(d_out);
    else if (is("stack-overflow")) recurse_forever<<<1, 4>>>(d_out);
    else if (is("trap")) trap_on_negative<<<1, n>>>(d_in, d_out);
    else if (is("assert")) assert_positive<<<1, n>>>(d_in, d_out);
    else if (is("abort")) abort_on_negative<<<1, n>>>(d_in, d_out);
    else if (is("exit")) exit_on_negative<<<1, n>>>(d_in, d_out);
    else if (is("far-read")) read_far_past<<<1, n>>>(d_in, d_out);
    else if (is("recover")) {
        // A program that handles the error: after a reset, kernels run again as before.
        recurse_forever<<<1, 4>>>(d_out);
        write_through_null<<<2, n>>>(d_out);
        std::printf("the faulting launches: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
        cudaDeviceReset();
        cudaMalloc(&d_in, n * sizeof(int));
        cudaMalloc(&d_out, n * sizeof(int));
        cudaMemcpy(d_in, host, sizeof host, cudaMemcpyHostToDevice);
        double_it<<<1, n>>>(d_in, d_out);
        cudaError_t e = cudaMemcpy(host, d_out, sizeof host, cudaMemcpyDeviceToHost);
        std::printf("after a reset: %s, out[31] = %d\n", cudaGetErrorName(e), host[31]);
        cudaFree(d_in);
        cudaFree(d_out);
        return 0;
    }
    else if (is("host-heap") || is("host-new") || is("host-stack") || is("pinned") ||
             is("host-unread")) {
        // A host array handed to a kernel: a GPU faults at the first access, unless the array
        // is pinned (mapped into the device's address space) or never read.
        float* d_f = reinterpret_cast<float*>(d_out);
        float on_stack[n];
        for (int i = 0; i < n; ++i) on_stack[i] = static_cast<float>(i);
        float* big = new float[1 << 20];  // large enough for a mapping of its own
        float* in = on_stack;
        if (is("host-heap")) in = static_cast<float*>(std::calloc(n, sizeof(float)));
        if (is("host-new")) in = big;
        if (is("pinned")) cudaMallocHost(&in, n * sizeof(float));
        if (is("pinned")) for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i);
        if (is("host-unread")) {
            cudaMemcpy(d_f, on_stack, sizeof on_stack, cudaMemcpyHostToDevice);
            scale_unless_null<<<1, n>>>(d_f, on_stack, d_f + n, n);
        } else {
            scale<<<1, n>>>(in, d_f + n, n);
        }
        float back[n] = {};
        cudaError_t e = cudaMemcpy(back, d_f + n, sizeof back, cudaMemcpyDeviceToHost);
        std::printf("after the launch: %s, out[31] = %g\n", cudaGetErrorName(e), back[31]);
        if (is("pinned")) cudaFreeHost(in);
        if (is("host-heap")) std::free(in);
        delete[] big;
        cudaFree(d_in);
        cudaFree(d_out);
        return e == cudaSuccess ? 0 : 1;
    }
    else if (is("host-assert")) assert(argc > 5);  // on the host, glibc's assert as always
    else if (is("host-exit")) exit(5);             // on the host, glibc's exit as always
    else {
        std::fprintf(stderr, "kernel_faults: unknown mode '%s'\n", mode);
        return 64;
    }
    cudaError_t e = cudaDeviceSynchronize();
    std::printf("after the launch: %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
    // The error is sticky: the next call reports it too.
    e = cudaMemcpy(host, d_out, sizeof host, cudaMemcpyDeviceToHost);
    std::printf("the next call: %s\n", cudaGetErrorName(e));
    cudaFree(d_in);
    cudaFree(d_out);
    return e == cudaSuccess ? 0 : 1;
}
