// Lesson 06: launches are asynchronous. <<<>>> queues the kernel and returns at once; the host
// carries on until it waits: cudaDeviceSynchronize, a cudaMemcpy, or an event. Honest timing
// waits for the work it measures. Streams are separate queues, ordered by events.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>
#include <simt/simt.hpp>  // simt::gpu_elapsed_time: the GPU's time, measured or predicted

// Stop at the runtime call that failed, with its line (lesson 01).
#define CHECK(call) check((call), #call, __FILE__, __LINE__)
void check(cudaError_t err, const char* call, const char* file, int line) {
    if (err == cudaSuccess) return;
    std::fprintf(stderr, "%s:%d: %s: %s\n", file, line, call, cudaGetErrorString(err));
    std::exit(EXIT_FAILURE);
}

__global__ void scale(float* a, int n, float factor, int rounds) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float v = a[i];
        for (int r = 0; r < rounds; ++r) v = v * factor + 1.0f;  // enough work to be timed
        a[i] = v;
    }
}

__global__ void add(const float* a, const float* b, float* out, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        out[i] = a[i] + b[i];
}

double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

int main() {
    const int n = 1 << 17;
    const size_t bytes = n * sizeof(float);
    std::vector<float> a(n, 1.0f), b(n, 3.0f), result(n);
    // The first runtime call creates the context: it is made here, before anything is timed.
    CHECK(cudaFree(0));
    // Four blocks per multiprocessor (lesson 05): 64 would leave most of an A100's 108 idle.
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const int blocks = 4 * sms;
    float *d_a, *d_b, *d_out;
    CHECK(cudaMalloc(&d_a, bytes));
    CHECK(cudaMalloc(&d_b, bytes));
    CHECK(cudaMalloc(&d_out, bytes));
    CHECK(cudaMemcpy(d_a, a.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_b, b.data(), bytes, cudaMemcpyHostToDevice));
    // Warm-up: the first launch of a kernel also loads its module (CUDA loads modules lazily).
    scale<<<blocks, 256>>>(d_a, n, 0.5f, 1);
    add<<<blocks, 256>>>(d_a, d_b, d_out, n);
    CHECK(cudaDeviceSynchronize());

    // One warp whose every thread runs a chain of 200000 dependent multiply-adds: about half a
    // millisecond on a GPU, long beside the few microseconds that queuing a launch takes.
    std::printf("-- the launch returns before the kernel is done\n");
    auto t0 = std::chrono::steady_clock::now();
    scale<<<1, 32>>>(d_a, 32, 0.5f, 200000);
    double queued = ms_since(t0);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    double finished = ms_since(t0);
    std::printf("launch returned after %.3f ms; the kernel finished after %.3f ms (this machine's "
                "wall clock)\n", queued, finished);

    std::printf("-- events time the work on the stream, not the host's waiting\n");
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    // Several launches between the events, and their mean: one launch is at the mercy of clocks
    // ramping up and of whatever else the device was doing.
    const int repeats = 3;
    CHECK(cudaEventRecord(start));
    for (int r = 0; r < repeats; ++r) scale<<<blocks, 256>>>(d_a, n, 0.5f, 200);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    // cudaEventElapsedTime does not wait: on an event the GPU has not reached yet it returns
    // cudaErrorNotReady. So wait for stop first.
    CHECK(cudaEventSynchronize(stop));
    // simt::gpu_elapsed_time is cudaEventElapsedTime on a GPU; in the simulator it gives the time
    // the GPU it models would take, where cudaEventElapsedTime gives the simulator's own.
    float total_ms;
    CHECK(simt::gpu_elapsed_time(&total_ms, start, stop));
    std::printf("the kernel took %.3f ms between the two events (the mean of %d launches; GPU "
                "time: %s)\n", total_ms / repeats, repeats, simt::gpu_time_label().c_str());

    std::printf("-- two streams, then an event makes the second wait for the first\n");
    cudaStream_t s1, s2;
    CHECK(cudaStreamCreate(&s1));
    CHECK(cudaStreamCreate(&s2));
    // An event used only to order streams needs no timestamp.
    cudaEvent_t a_ready;
    CHECK(cudaEventCreateWithFlags(&a_ready, cudaEventDisableTiming));
    scale<<<blocks, 256, 0, s1>>>(d_a, n, 1.0f, 1);   // a = a + 1
    CHECK(cudaGetLastError());
    scale<<<blocks, 256, 0, s2>>>(d_b, n, 2.0f, 1);   // b = 2b + 1, meanwhile
    CHECK(cudaGetLastError());
    // s2 waits for s1's work so far; without this the add could read a while s1 still writes it.
    CHECK(cudaEventRecord(a_ready, s1));
    CHECK(cudaStreamWaitEvent(s2, a_ready, 0));
    add<<<blocks, 256, 0, s2>>>(d_a, d_b, d_out, n);
    CHECK(cudaGetLastError());
    // cudaMemcpy goes on the default stream. The legacy default stream (nvcc's default, unless
    // --default-stream per-thread) waits for the work of every blocking stream, which
    // cudaStreamCreate makes; a stream made with cudaStreamNonBlocking it would not wait for.
    CHECK(cudaMemcpy(result.data(), d_out, bytes, cudaMemcpyDeviceToHost));

    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaEventDestroy(a_ready));
    CHECK(cudaStreamDestroy(s1));
    CHECK(cudaStreamDestroy(s2));
    CHECK(cudaFree(d_a));
    CHECK(cudaFree(d_b));
    CHECK(cudaFree(d_out));

    // The CPU reference: the scale kernels converge (v -> 0.5 v + 1 tends to 2, reached exactly in
    // float after a few dozen rounds; every element gets at least 601), then +1 and add.
    float v = 1.0f;
    for (int k = 0; k < 601; ++k) v = v * 0.5f + 1.0f;
    float expect = (v + 1.0f) + (3.0f * 2.0f + 1.0f);  // b was 3, then 2b + 1
    int bad = 0;
    double checksum = 0;
    for (float r : result) bad += r != expect, checksum += r;
    std::printf("every element is %.1f: %s\n", expect, bad ? "no" : "yes");
    std::printf("checksum %.1f\n", checksum);
    if (bad) {
        std::printf("FAILED: %d elements differ from the CPU reference\n", bad);
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
