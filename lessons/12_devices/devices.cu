// Lesson 12: which device is this, what can it do, and when is it worth using? simt::detect()
// lists the devices; simt::device_properties() gives their limits. Then the classic VectorAdd,
// timed against a plain CPU loop, with the copies counted, to see why the device loses on it.
#include <simt/simt.hpp>

#include <chrono>
#include <cstdio>
#include <vector>

__global__ void vector_add(simt::span<const float> a, simt::span<const float> b, simt::span<float> c) {
    int i = simt::grid<1>();
    if (i < static_cast<int>(c.size())) c[i] = a[i] + b[i];
}

double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

int main() {
    std::printf("-- the devices\n");
    simt::detect();
    simt::DeviceProperties p = simt::device_properties();
    std::printf("running on '%s', compute capability %d.%d, %d multiprocessors%s\n", p.name.c_str(),
                p.major, p.minor, p.multi_processor_count,
                p.simulator ? " (in the simulator: the cores that run blocks)" : "");

    const int n = 1 << 20;
    std::vector<float> a(n), b(n), c_cpu(n);
    for (int i = 0; i < n; ++i) a[i] = 0.5f * i, b[i] = 1.0f - i;

    std::printf("-- VectorAdd over %d floats\n", n);
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i) c_cpu[i] = a[i] + b[i];
    double cpu = ms_since(t0);

    // Everything the device version has to do: copy in, add, copy out.
    const int threads = 256, blocks = (n + threads - 1) / threads;
    t0 = std::chrono::steady_clock::now();
    auto da = simt::to_device(a), db = simt::to_device(b);
    double copy_in = ms_since(t0);
    auto dc = simt::device_array<float>(n);
    simt::Event start, stop;
    start.record();
    simt::launch(vector_add, blocks, threads)(da, db, dc);
    stop.record();
    stop.synchronize();
    double kernel = start.elapsed_ms(stop);
    auto t1 = std::chrono::steady_clock::now();
    std::vector<float> c_dev = dc.copy_to_host();
    double copy_out = ms_since(t1);
    double total = ms_since(t0);

    std::printf("CPU loop:                         %9.3f ms\n", cpu);
    std::printf("device: copy a and b in           %9.3f ms\n", copy_in);
    std::printf("        the kernel                %9.3f ms\n", kernel);
    std::printf("        copy c out                %9.3f ms\n", copy_out);
    std::printf("        all of it                 %9.3f ms\n", total);

    int bad = 0;
    double checksum = 0;
    for (int i = 0; i < n; ++i) bad += c_dev[i] != c_cpu[i], checksum += c_dev[i];
    std::printf("device result equals the CPU's: %s\n", bad ? "no" : "yes");
    std::printf("checksum %.1f\n", checksum);
    if (bad) {
        std::printf("FAILED: %d elements differ from the CPU reference\n", bad);
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
