// Lesson 16: copies that overlap with kernels. Host memory that is page-locked ("pinned",
// cudaMallocHost) can be copied by the GPU's copy engines on their own, without the host; with
// cudaMemcpyAsync in several streams, the copy of one chunk runs while another chunk's kernel
// computes. The program times pageable against pinned copies, then the same work in one stream
// and in four, and prints when each stream's copies and kernels ended.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t err_ = (call);                                                       \
        if (err_ != cudaSuccess) {                                                       \
            std::fprintf(stderr, "%s:%d: %s (%s)\n", __FILE__, __LINE__,                 \
                         cudaGetErrorString(err_), cudaGetErrorName(err_));              \
            std::exit(EXIT_FAILURE);                                                     \
        }                                                                                \
    } while (0)

// Some arithmetic per element, so that the kernel's time is comparable with its copies'.
__global__ void work(const float* in, float* out, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float v = in[i];
        for (int k = 0; k < 20; ++k) v = v * 0.75f + 0.5f;
        out[i] = v;
    }
}

float cpu_work(float v) {
    for (int k = 0; k < 20; ++k) v = v * 0.75f + 0.5f;
    return v;
}

// Equal within float rounding: nvcc fuses v * 0.75f + 0.5f into one multiply-add, which rounds
// once where the CPU rounds twice.
bool close(float got, float want) { return std::fabs(got - want) <= 1e-5f * (1.0f + std::fabs(want)); }

// Milliseconds between two events that the device has passed.
float elapsed(cudaEvent_t a, cudaEvent_t b) {
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    return ms;
}

int main(int argc, char** argv) {
    // 2^20 floats (4 MiB) unless given as a power of two (`16_overlap_cuda 24` on a GPU).
    const int log2_n = argc > 1 ? std::atoi(argv[1]) : 20;
    if (log2_n < 12 || log2_n > 28) {
        std::printf("give the size as a power of two from 12 to 28\n");
        return 2;
    }
    const int n = 1 << log2_n, chunks = 4, chunk = n / chunks;
    const size_t bytes = size_t(n) * sizeof(float), chunk_bytes = bytes / chunks;
    CHECK(cudaFree(0));  // the context, made before anything is timed
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const int threads = 256, blocks = 4 * sms;

    std::vector<float> pageable(n);
    float *pinned_in, *pinned_out;  // page-locked: the copy engines read and write it directly
    CHECK(cudaMallocHost(&pinned_in, bytes));
    CHECK(cudaMallocHost(&pinned_out, bytes));
    for (int i = 0; i < n; ++i) pageable[i] = pinned_in[i] = static_cast<float>(i % 100);
    float *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, bytes));
    CHECK(cudaMalloc(&d_out, bytes));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    const int repeats = 3;

    // 1. Pageable against pinned: the same copy in, warmed up, then timed `repeats` times.
    std::printf("-- copying %zu MiB to the device, the mean of %d copies\n", bytes >> 20, repeats);
    for (const float* src : {static_cast<const float*>(pageable.data()), static_cast<const float*>(pinned_in)}) {
        CHECK(cudaMemcpy(d_in, src, bytes, cudaMemcpyHostToDevice));  // warm-up
        CHECK(cudaEventRecord(start));
        for (int r = 0; r < repeats; ++r) CHECK(cudaMemcpy(d_in, src, bytes, cudaMemcpyHostToDevice));
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        float ms = elapsed(start, stop) / repeats;
        std::printf("%-9s %8.3f ms  %7.2f GB/s\n", src == pinned_in ? "pinned" : "pageable", ms,
                    bytes / (ms * 1e-3) / 1e9);
    }

    // 2. All of it in one stream: copy everything in, compute, copy everything out. Each step
    // waits for the one before, so the copy engines and the multiprocessors take turns.
    work<<<blocks, threads>>>(d_in, d_out, n);  // warm-up: the kernel's module is loaded
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventRecord(start));
    CHECK(cudaMemcpyAsync(d_in, pinned_in, bytes, cudaMemcpyHostToDevice, 0));
    work<<<blocks, threads>>>(d_in, d_out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(pinned_out, d_out, bytes, cudaMemcpyDeviceToHost, 0));
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float serial_ms = elapsed(start, stop);
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += !close(pinned_out[i], cpu_work(pinned_in[i]));
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
        work<<<blocks / chunks > 0 ? blocks / chunks : 1, threads, 0, streams[s]>>>(d_in + at, d_out + at, chunk);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(computed[s], streams[s]));
        CHECK(cudaMemcpyAsync(pinned_out + at, d_out + at, chunk_bytes, cudaMemcpyDeviceToHost, streams[s]));
        CHECK(cudaEventRecord(copied_out[s], streams[s]));
    }
    CHECK(cudaEventRecord(stop));  // waits for every stream's work
    CHECK(cudaEventSynchronize(stop));
    float streamed_ms = elapsed(start, stop);
    for (int i = 0; i < n; ++i) wrong += !close(pinned_out[i], cpu_work(pinned_in[i]));

    std::printf("-- copy in, compute, copy out: %d floats\n", n);
    std::printf("one stream:   %8.3f ms\n", serial_ms);
    std::printf("%d streams:    %8.3f ms\n", chunks, streamed_ms);
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
