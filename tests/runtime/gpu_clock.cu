// The GPU's time between events (simt::gpu_elapsed_time) in the simulator: copies at the link's
// speed on their engines, kernels at the time model's prediction, streams that overlap where a
// GPU's engines let them, and a host that waits. Each line prints what it measured and whether
// the rule of docs/profiling.md's "The GPU's clock" holds for it. `gpu_clock race` reads what
// another stream writes with no event between them: the clock still times it, and the race
// checker still reports it.
#include <cmath>
#include <cstdio>
#include <cstring>

#include <simt/simt.hpp>

#define CHECK(call)                                                                   \
    do {                                                                              \
        cudaError_t err_ = (call);                                                    \
        if (err_ != cudaSuccess) {                                                    \
            std::printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorName(err_));   \
            return 1;                                                                 \
        }                                                                             \
    } while (0)

__global__ void fill(float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = 1.0f;  // the write of the race
}

__global__ void sum_into(const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i] + 1.0f;  // the read of the race
}

__global__ void scale(float* x, int n, int steps) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    for (int k = 0; k < steps; ++k) v = v * 0.5f + 1.0f;
    x[i] = v;
}

float gpu_ms(cudaEvent_t a, cudaEvent_t b) {
    float ms = -1;
    if (simt::gpu_elapsed_time(&ms, a, b) != cudaSuccess) return -1;
    return ms;
}

bool near(float a, float b) { return std::fabs(a - b) <= 1e-3f * (1.0f + std::fabs(b)); }

// Two non-blocking streams, a writer and a reader, and nothing ordering them.
int race() {
    const int n = 1024;
    float *x, *y;
    CHECK(cudaMalloc(&x, n * sizeof(float)));
    CHECK(cudaMalloc(&y, n * sizeof(float)));
    cudaStream_t a, b;
    CHECK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start, a));
    fill<<<n / 256, 256, 0, a>>>(x, n);
    sum_into<<<n / 256, 256, 0, b>>>(x, y, n);  // needs cudaStreamWaitEvent on a's work
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventRecord(stop, b));
    CHECK(cudaEventSynchronize(stop));
    std::printf("label: %s\nthe two kernels: %s\n", simt::gpu_time_label().c_str(),
                gpu_ms(start, stop) > 0 ? "timed" : "not timed");
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    return 0;
}

int main(int argc, char** argv) {
    if (argc > 1 && std::strcmp(argv[1], "race") == 0) return race();
    const size_t bytes = 25000000;  // 25 MB: 1 ms at 25 GB/s
    const int n = int(bytes / sizeof(float));
    float *pinned, *d_a, *d_b;
    static float pageable[25000000 / sizeof(float)];
    CHECK(cudaMallocHost(&pinned, bytes));
    CHECK(cudaMalloc(&d_a, bytes));
    CHECK(cudaMalloc(&d_b, bytes));
    for (int i = 0; i < n; ++i) pinned[i] = pageable[i] = float(i % 7);
    cudaStream_t s1, s2;
    CHECK(cudaStreamCreate(&s1));
    CHECK(cudaStreamCreate(&s2));
    cudaEvent_t e[6];
    for (cudaEvent_t& x : e) CHECK(cudaEventCreate(&x));
    std::printf("label: %s\n", simt::gpu_time_label().c_str());

    // Nothing between two events: no time.
    CHECK(cudaEventRecord(e[0]));
    CHECK(cudaEventRecord(e[1]));
    CHECK(cudaEventSynchronize(e[1]));
    std::printf("nothing: %.3f ms\n", gpu_ms(e[0], e[1]));

    // One copy of each kind, in the legacy default stream.
    CHECK(cudaEventRecord(e[0]));
    CHECK(cudaMemcpy(d_a, pinned, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaEventRecord(e[1]));
    CHECK(cudaMemcpy(d_a, pageable, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaEventRecord(e[2]));
    CHECK(cudaMemcpy(d_b, d_a, bytes, cudaMemcpyDeviceToDevice));
    CHECK(cudaEventRecord(e[3]));
    CHECK(cudaEventSynchronize(e[3]));
    const float pinned_ms = gpu_ms(e[0], e[1]);
    std::printf("copy in, pinned: %.3f ms\ncopy in, pageable: %.3f ms\ncopy on the device: %.3f ms\n",
                pinned_ms, gpu_ms(e[1], e[2]), gpu_ms(e[2], e[3]));

    // In, kernel, out in one stream: each step after the one before.
    CHECK(cudaEventRecord(e[0], s1));
    CHECK(cudaMemcpyAsync(d_a, pinned, bytes, cudaMemcpyHostToDevice, s1));
    CHECK(cudaEventRecord(e[1], s1));
    scale<<<(n + 255) / 256, 256, 0, s1>>>(d_a, n, 8);
    CHECK(cudaEventRecord(e[2], s1));
    CHECK(cudaMemcpyAsync(pinned, d_a, bytes, cudaMemcpyDeviceToHost, s1));
    CHECK(cudaEventRecord(e[3], s1));
    CHECK(cudaStreamSynchronize(s1));
    const float in = gpu_ms(e[0], e[1]), kernel = gpu_ms(e[1], e[2]), out = gpu_ms(e[2], e[3]);
    std::printf("one stream: kernel longer than 0: %s, in all the sum of its steps: %s\n",
                kernel > 0 ? "yes" : "no", near(gpu_ms(e[0], e[3]), in + kernel + out) ? "yes" : "no");

    // Two copies in, in two streams: one engine takes them in turn.
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventRecord(e[0]));
    CHECK(cudaMemcpyAsync(d_a, pinned, bytes, cudaMemcpyHostToDevice, s1));
    CHECK(cudaMemcpyAsync(d_b, pinned, bytes, cudaMemcpyHostToDevice, s2));
    CHECK(cudaEventRecord(e[1]));  // the legacy stream: after both
    CHECK(cudaEventSynchronize(e[1]));
    std::printf("two copies in, two streams: %.2f copies' time\n", gpu_ms(e[0], e[1]) / pinned_ms);

    // A copy in and a copy out, in two streams: an engine each, at once.
    CHECK(cudaEventRecord(e[0]));
    CHECK(cudaMemcpyAsync(d_a, pinned, bytes, cudaMemcpyHostToDevice, s1));
    CHECK(cudaMemcpyAsync(pinned, d_b, bytes, cudaMemcpyDeviceToHost, s2));
    CHECK(cudaEventRecord(e[1]));
    CHECK(cudaEventSynchronize(e[1]));
    std::printf("a copy in and a copy out, two streams: %.2f copies' time\n",
                gpu_ms(e[0], e[1]) / pinned_ms);

    // A kernel in s2 made to wait for a copy in s1 starts after it.
    CHECK(cudaEventRecord(e[0]));
    CHECK(cudaMemcpyAsync(d_a, pinned, bytes, cudaMemcpyHostToDevice, s1));
    CHECK(cudaEventRecord(e[1], s1));
    CHECK(cudaStreamWaitEvent(s2, e[1], 0));
    scale<<<(n + 255) / 256, 256, 0, s2>>>(d_a, n, 8);
    CHECK(cudaEventRecord(e[2], s2));
    CHECK(cudaEventSynchronize(e[2]));
    std::printf("a kernel that waits for a copy in another stream: %s\n",
                near(gpu_ms(e[0], e[2]), pinned_ms + kernel) ? "after it" : "not after it");

    // The host waits: an event recorded after a synchronize is no earlier than the work before.
    CHECK(cudaEventRecord(e[0]));
    CHECK(cudaMemcpyAsync(d_a, pinned, bytes, cudaMemcpyHostToDevice, s1));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventRecord(e[1], s2));
    CHECK(cudaEventSynchronize(e[1]));
    std::printf("an event after the host waited: %s\n",
                near(gpu_ms(e[0], e[1]), pinned_ms) ? "at the end of the work" : "before it");

    for (cudaEvent_t& x : e) CHECK(cudaEventDestroy(x));
    CHECK(cudaStreamDestroy(s1));
    CHECK(cudaStreamDestroy(s2));
    CHECK(cudaFreeHost(pinned));
    CHECK(cudaFree(d_a));
    CHECK(cudaFree(d_b));
    return 0;
}
