// Lesson 20: unified memory and CUDA graphs. Part 1 allocates with cudaMallocManaged, one pointer
// that the host and the kernels both use: the host fills it, a kernel updates it, the host reads
// it after cudaDeviceSynchronize. It times the kernel with its pages left on the host (a GPU
// migrates them on first touch, fault by fault) against the same kernel after
// cudaMemPrefetchAsync, and gives two hints with cudaMemAdvise. Part 2 runs a step of 20 tiny
// kernels 100 times, first as 2000 plain launches, then captured once from a stream into a graph
// and launched once per step; the results must agree, and events time both.
#include <cstdio>
#include <cstdlib>
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

constexpr int THREADS = 256;

// --- Where managed memory should be: CUDA 13 names a place with a cudaMemLocation ---------------

// CUDA 13 removed the forms that took an int device (cudaCpuDeviceId for the host); CUDA 12.2 and
// later have both. The #else keeps the lesson building with an older toolkit.
cudaError_t prefetch(const void* p, size_t bytes, int device, cudaStream_t stream) {
#if CUDART_VERSION >= 13000
    cudaMemLocation where{};
    where.type = device == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
    where.id = device == cudaCpuDeviceId ? 0 : device;
    return cudaMemPrefetchAsync(p, bytes, where, 0, stream);
#else
    return cudaMemPrefetchAsync(p, bytes, device, stream);
#endif
}

cudaError_t advise(const void* p, size_t bytes, cudaMemoryAdvise advice, int device) {
#if CUDART_VERSION >= 13000
    cudaMemLocation where{};
    where.type = device == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
    where.id = device == cudaCpuDeviceId ? 0 : device;
    return cudaMemAdvise(p, bytes, advice, where);
#else
    return cudaMemAdvise(p, bytes, advice, device);
#endif
}

// --- Part 1: unified memory --------------------------------------------------------------------

__global__ void update(float* x, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        x[i] = 2.0f * x[i] + 1.0f;
}

// Adds table[i % size]: every thread reads the table, nobody writes it.
__global__ void add_table(float* x, int n, const float* table, int size) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        x[i] += table[i % size];
}

// --- Part 2: many tiny kernels, then one graph -------------------------------------------------

// One stage of a step. x * 0.5f is exact, so the GPU's fused multiply-add and the CPU's multiply
// then add round the same way, and the results can be compared exactly.
__global__ void stage(float* x, int n, float k) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * 0.5f + k;
}

// --- The host ----------------------------------------------------------------------------------

// The GPU's milliseconds between two events: measured on a GPU; in the simulator, predicted for
// the GPU it models, whose time model knows neither page faults nor what a graph saves (the
// README says what a GPU shows).
float elapsed(cudaEvent_t a, cudaEvent_t b) {
    float ms = 0;
    CHECK(simt::gpu_elapsed_time(&ms, a, b));
    return ms;
}

int main(int argc, char** argv) {
    // Part 1's floats: 2^20 (4 MiB) unless given (`20_unified_graphs_cuda 24` on a GPU: 64 MiB).
    const int log2_n = argc > 1 ? std::atoi(argv[1]) : 20;
    if (log2_n < 12 || log2_n > 28) {
        std::printf("usage: 20_unified_graphs [log2 of part 1's floats, 12 to 28]\n");
        return 2;
    }
    CHECK(cudaFree(0));  // the context, made before anything is timed
    int device = 0, sms = 0, concurrent = 0;
    CHECK(cudaGetDevice(&device));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    // 1 on Linux since Pascal: the host may touch managed memory while kernels run (and sees
    // whatever happens to be there); 0 (Windows, older GPUs): it may not, until a synchronize.
    CHECK(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, device));
    cudaEvent_t start, stop, mark1, mark2;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventCreate(&mark1));
    CHECK(cudaEventCreate(&mark2));
    int failures = 0;

    // 1. One pointer for both sides: no cudaMemcpy anywhere in this part.
    const int n = 1 << log2_n, table_size = 256;
    const size_t bytes = size_t(n) * sizeof(float);
    const int blocks = 4 * sms;
    float *data, *table;
    CHECK(cudaMallocManaged(&data, bytes));
    CHECK(cudaMallocManaged(&table, table_size * sizeof(float)));
    for (int k = 0; k < table_size; ++k) table[k] = 0.25f * k;
    auto wrong = [&](bool with_table) {  // data[i] against the CPU's 2 (i % 100) + 1 (+ table)
        int bad = 0;
        for (int i = 0; i < n; ++i)
            bad += data[i] != 2.0f * (i % 100) + 1.0f + (with_table ? table[i % table_size] : 0.0f);
        return bad;
    };
    std::printf("-- GPU times: %s\n", simt::gpu_time_label().c_str());
    std::printf("-- unified memory: %d floats (%zu KiB) from cudaMallocManaged; concurrent managed access: %d\n",
                n, bytes >> 10, concurrent);

    update<<<1, THREADS>>>(data, 0);  // warm-up: loads the kernel and touches no page
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    // On demand: the host wrote every page last, so on a GPU the kernel's first touch of each
    // page faults, and the driver migrates the pages to the device, a group of faults at a time.
    for (int i = 0; i < n; ++i) data[i] = static_cast<float>(i % 100);
    CHECK(cudaEventRecord(start));
    update<<<blocks, THREADS>>>(data, n);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaDeviceSynchronize());  // before the host reads what the kernel wrote
    const float on_demand_ms = elapsed(start, stop);
    int bad = wrong(false);  // on a GPU, these reads fault the pages back to the host
    failures += bad != 0;
    std::printf("on first touch:  kernel %8.3f ms                                    %s\n",
                on_demand_ms, bad ? "WRONG" : "right");

    // Prefetched: one bulk copy to the device before the kernel, one back before the host reads.
    for (int i = 0; i < n; ++i) data[i] = static_cast<float>(i % 100);
    CHECK(cudaEventRecord(start));
    CHECK(prefetch(data, bytes, device, 0));
    CHECK(cudaEventRecord(mark1));
    update<<<blocks, THREADS>>>(data, n);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(mark2));
    CHECK(prefetch(data, bytes, cudaCpuDeviceId, 0));
    CHECK(cudaEventRecord(stop));
    CHECK(cudaDeviceSynchronize());
    bad = wrong(false);
    failures += bad != 0;
    std::printf("prefetched:      kernel %8.3f ms  (to the device %8.3f ms, back %8.3f ms)  %s\n",
                elapsed(mark1, mark2), elapsed(start, mark1), elapsed(mark2, stop),
                bad ? "WRONG" : "right");

    // Hints. The table is read on both sides and written by neither: read-mostly lets each
    // processor keep a read-only copy instead of moving its pages back and forth. The data is
    // meant to live on the device: a fault there then maps it or moves it there, not away.
    CHECK(advise(table, table_size * sizeof(float), cudaMemAdviseSetReadMostly, device));
    CHECK(advise(data, bytes, cudaMemAdviseSetPreferredLocation, device));
    CHECK(prefetch(table, table_size * sizeof(float), device, 0));  // makes the device's copy
    CHECK(prefetch(data, bytes, device, 0));
    add_table<<<blocks, THREADS>>>(data, n, table, table_size);
    CHECK(cudaGetLastError());
    CHECK(prefetch(data, bytes, cudaCpuDeviceId, 0));
    CHECK(cudaDeviceSynchronize());
    bad = wrong(true);  // reads the table on the host too: its host copy stays valid
    failures += bad != 0;
    std::printf("with advice:     read-mostly table, data preferred on the device     %s\n",
                bad ? "WRONG" : "right");

    // 2. A step of `kernels` tiny launches, `steps` times: as plain launches, then as a graph.
    const int kernels = 20, steps = 100, m = 1024;
    const int m_blocks = (m + THREADS - 1) / THREADS;
    float *plain, *graphed;  // the same start, one for each way
    CHECK(cudaMallocManaged(&plain, m * sizeof(float)));
    CHECK(cudaMallocManaged(&graphed, m * sizeof(float)));
    for (int i = 0; i < m; ++i) plain[i] = graphed[i] = static_cast<float>(i % 64);
    std::vector<float> expect(m);  // the CPU's run of every stage of every step
    for (int i = 0; i < m; ++i) {
        float v = static_cast<float>(i % 64);
        for (int s = 0; s < steps; ++s)
            for (int k = 0; k < kernels; ++k) v = v * 0.5f + static_cast<float>(k);
        expect[i] = v;
    }
    cudaStream_t stream;  // capture needs a stream of its own: the legacy default stream refuses
    CHECK(cudaStreamCreate(&stream));
    // Both arrays on the device before anything is timed: no fault in the timed loops.
    CHECK(prefetch(plain, m * sizeof(float), device, stream));
    CHECK(prefetch(graphed, m * sizeof(float), device, stream));
    CHECK(cudaStreamSynchronize(stream));
    std::printf("-- %d steps of %d kernels on %d floats\n", steps, kernels, m);

    // Plain launches. Step 0 is the warm-up (the kernel is loaded at its first launch); the host
    // waits at the end of every step, as a simulation that looks at each step would.
    for (int k = 0; k < kernels; ++k) stage<<<m_blocks, THREADS, 0, stream>>>(plain, m, float(k));
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(stream));
    CHECK(cudaEventRecord(start, stream));
    for (int s = 1; s < steps; ++s) {
        for (int k = 0; k < kernels; ++k)
            stage<<<m_blocks, THREADS, 0, stream>>>(plain, m, float(k));
        CHECK(cudaStreamSynchronize(stream));
    }
    CHECK(cudaEventRecord(stop, stream));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaGetLastError());
    const float plain_ms = elapsed(start, stop);

    // The same step, captured: between BeginCapture and EndCapture the launches on `stream` run
    // nothing; each becomes a node of the graph, after the one before it.
    cudaGraph_t graph;
    cudaGraphExec_t step;
    CHECK(cudaEventRecord(mark1, stream));
    CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    for (int k = 0; k < kernels; ++k) stage<<<m_blocks, THREADS, 0, stream>>>(graphed, m, float(k));
    CHECK(cudaStreamEndCapture(stream, &graph));
    CHECK(cudaGraphInstantiate(&step, graph, 0));  // checked and prepared once
    CHECK(cudaEventRecord(mark2, stream));
    CHECK(cudaEventSynchronize(mark2));
    size_t nodes = 0;
    CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
    CHECK(cudaGraphLaunch(step, stream));  // step 0, the warm-up: the graph is uploaded
    CHECK(cudaStreamSynchronize(stream));
    CHECK(cudaEventRecord(start, stream));
    for (int s = 1; s < steps; ++s) {
        CHECK(cudaGraphLaunch(step, stream));  // one call for the step's 20 kernels
        CHECK(cudaStreamSynchronize(stream));
    }
    CHECK(cudaEventRecord(stop, stream));
    CHECK(cudaEventSynchronize(stop));
    const float graph_ms = elapsed(start, stop);

    int plain_wrong = 0, graph_wrong = 0, differ = 0;
    for (int i = 0; i < m; ++i) {  // the host reads managed memory: the stream is synchronized
        plain_wrong += plain[i] != expect[i];
        graph_wrong += graphed[i] != expect[i];
        differ += plain[i] != graphed[i];
    }
    failures += plain_wrong != 0;
    failures += graph_wrong != 0;
    const int timed = (steps - 1) * kernels;
    std::printf("plain launches: %9.3f ms for %d steps, %7.2f us a kernel\n", plain_ms, steps - 1,
                1000.0 * plain_ms / timed);
    std::printf("one graph:      %9.3f ms for %d steps, %7.2f us a kernel (%zu nodes; capture and instantiate %.3f ms, once)\n",
                graph_ms, steps - 1, 1000.0 * graph_ms / timed, nodes, elapsed(mark1, mark2));
    std::printf("the graph took %.0f%% of the plain launches' time\n", 100.0 * graph_ms / plain_ms);
    std::printf("both ways match the CPU: %s; they agree with each other: %s\n",
                plain_wrong || graph_wrong ? "no" : "yes", differ ? "no" : "yes");

    double checksum = 0;
    for (int i = 0; i < n; ++i) checksum += data[i];
    for (int i = 0; i < m; ++i) checksum += graphed[i];
    std::printf("checksum %.3f\n", checksum);

    CHECK(cudaGraphExecDestroy(step));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaStreamDestroy(stream));
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaEventDestroy(mark1));
    CHECK(cudaEventDestroy(mark2));
    CHECK(cudaFree(data));
    CHECK(cudaFree(table));
    CHECK(cudaFree(plain));
    CHECK(cudaFree(graphed));
    if (failures) {
        std::printf("FAILED: %d checks differ from the CPU's\n", failures);
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
