// Lesson 06: launches are asynchronous. simt::launch queues the kernel and returns at once; the
// host carries on until it waits: simt::synchronize(), a copy to the host, or an event. Honest
// timing waits for the work it measures. Streams are separate queues, ordered by events.
#include <simt/simt.hpp>

#include <chrono>
#include <cstdio>
#include <vector>

__global__ void scale(simt::span<float> a, float factor, int rounds) {
    for (unsigned i = simt::grid<1>(); i < a.size(); i += simt::gridsize<1>()) {
        float v = a[i];
        for (int r = 0; r < rounds; ++r) v = v * factor + 1.0f;  // enough work to be timed
        a[i] = v;
    }
}

__global__ void add(simt::span<const float> a, simt::span<const float> b, simt::span<float> out) {
    for (unsigned i = simt::grid<1>(); i < out.size(); i += simt::gridsize<1>()) out[i] = a[i] + b[i];
}

double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

int main() {
    const int n = 1 << 18;
    auto a = simt::to_device(std::vector<float>(n, 1.0f));

    std::printf("-- the launch returns before the kernel is done\n");
    auto t0 = std::chrono::steady_clock::now();
    simt::launch(scale, 64, 256)(a, 0.5f, 200);
    double queued = ms_since(t0);
    simt::synchronize();
    double finished = ms_since(t0);
    std::printf("launch returned after %.3f ms; the kernel finished after %.3f ms\n", queued, finished);

    std::printf("-- events time the work on the stream, not the host's waiting\n");
    simt::Event start, stop;
    start.record();
    simt::launch(scale, 64, 256)(a, 0.5f, 200);
    stop.record();
    // simt's elapsed_ms waits for both events itself, but CUDA's cudaEventElapsedTime does not:
    // on an event the GPU has not reached yet it returns cudaErrorNotReady. So wait first.
    stop.synchronize();
    std::printf("the kernel took %.3f ms between the two events\n", start.elapsed_ms(stop));

    std::printf("-- two streams, then an event makes the second wait for the first\n");
    simt::Stream s1, s2;
    auto b = simt::to_device(std::vector<float>(n, 3.0f));
    auto out = simt::device_array<float>(n);
    simt::launch(scale, 64, 256, {.stream = &s1})(a, 1.0f, 1);   // a = a + 1
    simt::launch(scale, 64, 256, {.stream = &s2})(b, 2.0f, 1);   // b = 2b + 1, meanwhile
    simt::Event a_ready;
    a_ready.record(s1);
    s2.wait(a_ready);  // without this the add could read `a` while s1 still writes it
    simt::launch(add, 64, 256, {.stream = &s2})(a, b, out);
    std::vector<float> result = out.copy_to_host();  // a copy waits for every stream

    // The CPU reference: both scale kernels converge (v -> 0.5 v + 1 tends to 2), then +1 and add.
    float v = 1.0f;
    for (int k = 0; k < 400; ++k) v = v * 0.5f + 1.0f;
    float expect = (v + 1.0f) + (3.0f * 2.0f + 1.0f);
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
