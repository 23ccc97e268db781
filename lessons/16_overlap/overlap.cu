// Lesson 16: copies that overlap with kernels. Host memory that is page-locked ("pinned",
// cudaMallocHost) can be copied by the GPU's copy engines on their own, without the host; with
// cudaMemcpyAsync in several streams, one chunk's copy in, another's kernel and a third's copy
// out can run at once. The program times pageable against pinned copies, then each step of the
// work in one stream, then the same work in four streams, and prints when each stream's steps
// ended. The kernel's multiply-adds per element are an argument, so that on a GPU you can find
// where computing takes as long as copying.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#include <simt/simt.hpp>  // simt::gpu_elapsed_time: the GPU's time, measured or predicted

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t err_ = (call);                                                       \
        if (err_ != cudaSuccess) {                                                       \
            std::fprintf(stderr, "%s:%d: %s (%s)\n", __FILE__, __LINE__,                 \
                         cudaGetErrorString(err_), cudaGetErrorName(err_));              \
            std::exit(EXIT_FAILURE);                                                     \
        }                                                                                \
    } while (0)

// `steps` dependent multiply-adds per element between one 4-byte read and one 4-byte write: the
// knob between a kernel bound by memory (few steps) and one bound by arithmetic (many).
__global__ void work(const float* in, float* out, int n, int steps) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float v = in[i];
        for (int k = 0; k < steps; ++k) v = v * 0.75f + 0.5f;
        out[i] = v;
    }
}

float cpu_work(float v, int steps) {
    for (int k = 0; k < steps; ++k) v = v * 0.75f + 0.5f;
    return v;
}

// Equal within float rounding: nvcc fuses v * 0.75f + 0.5f into one multiply-add, which rounds
// once where the CPU rounds twice.
bool close(float got, float want) { return std::fabs(got - want) <= 1e-5f * (1.0f + std::fabs(want)); }

// The GPU's milliseconds between two events that the device has passed: measured on a GPU; in
// the simulator, predicted for the GPU it models, which runs copies and kernels on its engines
// as a GPU would, whatever the simulator took.
float elapsed(cudaEvent_t a, cudaEvent_t b) {
    float ms = 0;
    CHECK(simt::gpu_elapsed_time(&ms, a, b));
    return ms;
}

// "  (simulator 12.3 ms)": the simulator's own time beside the GPU's; nothing on a GPU build.
std::string simulator_time(cudaEvent_t a, cudaEvent_t b) {
    float ms = 0;
    CHECK(simt::simulator_elapsed_time(&ms, a, b));
    if (std::isnan(ms)) return "";
    char text[48];
    std::snprintf(text, sizeof text, "  (simulator %.1f ms)", ms);
    return text;
}

int main(int argc, char** argv) {
    // 2^20 floats (4 MiB) and 20 multiply-adds per element unless given
    // (`16_overlap_cuda 24 2000` on a GPU: 2^24 floats, 2000 each).
    const int log2_n = argc > 1 ? std::atoi(argv[1]) : 20;
    const int steps = argc > 2 ? std::atoi(argv[2]) : 20;
    if (log2_n < 12 || log2_n > 28 || steps < 0 || steps > 100000) {
        std::printf("usage: 16_overlap [log2 of the floats, 12 to 28] [multiply-adds per element, 0 to 100000]\n");
        return 2;
    }
    const int n = 1 << log2_n, chunks = 4, chunk = n / chunks;
    const size_t bytes = size_t(n) * sizeof(float), chunk_bytes = bytes / chunks;
    CHECK(cudaFree(0));  // the context, made before anything is timed
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    int copy_engines = 0;  // 2 or more: a copy in and a copy out can run at the same time
    CHECK(cudaDeviceGetAttribute(&copy_engines, cudaDevAttrAsyncEngineCount, 0));
    const int threads = 256, blocks = 4 * sms;

    std::vector<float> pageable(n);
    float *pinned_in, *pinned_out;  // page-locked: the copy engines read and write it directly
    CHECK(cudaMallocHost(&pinned_in, bytes));
    CHECK(cudaMallocHost(&pinned_out, bytes));
    for (int i = 0; i < n; ++i) pageable[i] = pinned_in[i] = static_cast<float>(i % 100);
    // The inputs take 100 values: the CPU computes each once, so that a check costs n lookups
    // rather than n * steps multiply-adds.
    std::vector<float> expect(100);
    for (int v = 0; v < 100; ++v) expect[v] = cpu_work(static_cast<float>(v), steps);
    float *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, bytes));
    CHECK(cudaMalloc(&d_out, bytes));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    const int repeats = 3;

    // 1. Pageable against pinned: the same copy in, warmed up, then timed `repeats` times.
    std::printf("-- GPU times: %s\n", simt::gpu_time_label().c_str());
    std::printf("-- copying %zu MiB to the device, the mean of %d copies\n", bytes >> 20, repeats);
    for (const float* src : {static_cast<const float*>(pageable.data()), static_cast<const float*>(pinned_in)}) {
        CHECK(cudaMemcpy(d_in, src, bytes, cudaMemcpyHostToDevice));  // warm-up
        CHECK(cudaEventRecord(start));
        for (int r = 0; r < repeats; ++r) CHECK(cudaMemcpy(d_in, src, bytes, cudaMemcpyHostToDevice));
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        float ms = elapsed(start, stop) / repeats;
        std::printf("%-9s %8.3f ms  %7.2f GB/s%s\n", src == pinned_in ? "pinned" : "pageable", ms,
                    bytes / (ms * 1e-3) / 1e9, simulator_time(start, stop).c_str());
    }

    // 2. All of it in one stream: copy everything in, compute, copy everything out. Each step
    // waits for the one before, so the copy engines and the multiprocessors take turns; the
    // events between the steps time each one.
    work<<<blocks, threads>>>(d_in, d_out, n, steps);  // warm-up: the kernel is loaded
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    cudaEvent_t after_in, after_kernel;
    CHECK(cudaEventCreate(&after_in));
    CHECK(cudaEventCreate(&after_kernel));
    CHECK(cudaEventRecord(start));
    CHECK(cudaMemcpyAsync(d_in, pinned_in, bytes, cudaMemcpyHostToDevice, 0));
    CHECK(cudaEventRecord(after_in));
    work<<<blocks, threads>>>(d_in, d_out, n, steps);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(after_kernel));
    CHECK(cudaMemcpyAsync(pinned_out, d_out, bytes, cudaMemcpyDeviceToHost, 0));
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    const float in_ms = elapsed(start, after_in), kernel_ms = elapsed(after_in, after_kernel),
                out_ms = elapsed(after_kernel, stop), serial_ms = elapsed(start, stop);
    const std::string serial_simulated = simulator_time(start, stop);
    CHECK(cudaEventDestroy(after_in));
    CHECK(cudaEventDestroy(after_kernel));
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += !close(pinned_out[i], expect[i % 100]);
    for (int i = 0; i < n; ++i) pinned_out[i] = -1.0f;  // so that the next run must write it all

    // 3. Four streams, a quarter each: stream s copies its chunk in, computes it and copies it
    // out, in order within the stream; across streams the copy engines and the multiprocessors
    // may work on different chunks at once. Events mark when each step of each stream ended.
    cudaStream_t streams[chunks];
    cudaEvent_t copied_in[chunks], computed[chunks], copied_out[chunks];
    for (int s = 0; s < chunks; ++s) {
        CHECK(cudaStreamCreate(&streams[s]));
        CHECK(cudaEventCreate(&copied_in[s]));
        CHECK(cudaEventCreate(&computed[s]));
        CHECK(cudaEventCreate(&copied_out[s]));
    }
    CHECK(cudaEventRecord(start));  // on the legacy default stream: every stream's work follows it
    for (int s = 0; s < chunks; ++s) {
        size_t at = size_t(s) * chunk;
        CHECK(cudaMemcpyAsync(d_in + at, pinned_in + at, chunk_bytes, cudaMemcpyHostToDevice, streams[s]));
        CHECK(cudaEventRecord(copied_in[s], streams[s]));
        work<<<blocks / chunks > 0 ? blocks / chunks : 1, threads, 0, streams[s]>>>(d_in + at, d_out + at, chunk, steps);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(computed[s], streams[s]));
        CHECK(cudaMemcpyAsync(pinned_out + at, d_out + at, chunk_bytes, cudaMemcpyDeviceToHost, streams[s]));
        CHECK(cudaEventRecord(copied_out[s], streams[s]));
    }
    CHECK(cudaEventRecord(stop));  // waits for every stream's work
    CHECK(cudaEventSynchronize(stop));
    // Every stream's events are read below, and an event read before the device reaches it is
    // cudaErrorNotReady: wait for all the work, not only for `stop`.
    CHECK(cudaDeviceSynchronize());
    float streamed_ms = elapsed(start, stop);
    for (int i = 0; i < n; ++i) wrong += !close(pinned_out[i], expect[i % 100]);

    std::printf("-- copy in, compute, copy out: %d floats, %d multiply-adds each; %d copy engines\n",
                n, steps, copy_engines);
    std::printf("one stream: copy in %8.3f ms  kernel %8.3f ms  copy out %8.3f ms  in all %8.3f ms%s\n",
                in_ms, kernel_ms, out_ms, serial_ms, serial_simulated.c_str());
    std::printf("%d streams:  in all %8.3f ms, %.0f%% of one stream's%s\n", chunks, streamed_ms,
                100.0 * streamed_ms / serial_ms, simulator_time(start, stop).c_str());
    // Where the kernel is much shorter than a copy, the streams gain by overlapping the copies in
    // with the copies out; where it is about as long, by overlapping it with both.
    std::printf("the kernel took %.2f times as long as the copy in\n", kernel_ms / in_ms);
    std::printf("-- when each stream's steps ended, in ms after the start\n");
    for (int s = 0; s < chunks; ++s)
        std::printf("stream %d: copied in %8.3f  computed %8.3f  copied out %8.3f\n", s,
                    elapsed(start, copied_in[s]), elapsed(start, computed[s]),
                    elapsed(start, copied_out[s]));

    double checksum = 0;
    for (int i = 0; i < n; ++i) checksum += pinned_out[i];
    for (int s = 0; s < chunks; ++s) {
        CHECK(cudaStreamDestroy(streams[s]));
        CHECK(cudaEventDestroy(copied_in[s]));
        CHECK(cudaEventDestroy(computed[s]));
        CHECK(cudaEventDestroy(copied_out[s]));
    }
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFreeHost(pinned_in));
    CHECK(cudaFreeHost(pinned_out));

    std::printf("both ways match the CPU: %s\n", wrong ? "no" : "yes");
    std::printf("checksum %.3f\n", checksum);
    if (wrong) {
        std::printf("FAILED: %d results differ from the CPU's\n", wrong);
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
