// Which OS threads ran a launch's blocks, built two ways (tests/CMakeLists.txt): UNCHECKED, and as
// programs are by default. Each block notes the host thread it ran on; the kernel also races on
// `total` (every thread adds to it without an atomic) and the program never frees `seen`, so a
// checked run has a race and a leak to report, and an UNCHECKED one must say nothing of either.
// With the argument `check-all` the program turns every checker on itself, as simt's benchmark
// does between its runs, rather than through SIMT_CHECK.
#include <simt/simt.hpp>

#include <cstdio>
#include <cstring>
#include <functional>
#include <set>
#include <thread>

constexpr int blocks = 64;

__global__ void note_worker(unsigned long long* seen, int* total) {
    // Enough work per block that a second worker wakes before the first has taken every block.
    volatile float x = 1.0f;
    for (int i = 0; i < 60000; ++i) x = x * 1.0000001f;
    *total += 1;
    if (threadIdx.x == 0) seen[blockIdx.x] = std::hash<std::thread::id>{}(std::this_thread::get_id());
}

int main(int argc, char** argv) {
    if (argc > 1 && std::strcmp(argv[1], "check-all") == 0)
        simt::sim::apply_setting(simt::sim::config(), "SIMT_CHECK", "all");
    unsigned long long* seen = nullptr;
    int* total = nullptr;
    cudaMalloc(&seen, blocks * sizeof(unsigned long long));
    cudaMallocManaged(&total, sizeof(int));
    *total = 0;
    note_worker<<<blocks, 32>>>(seen, total);
    cudaDeviceSynchronize();
    unsigned long long host[blocks];
    cudaMemcpy(host, seen, sizeof host, cudaMemcpyDeviceToHost);
    std::set<unsigned long long> workers(host, host + blocks);
    std::printf("blocks ran on %s\n", workers.size() > 1 ? "several workers" : "one worker");
    cudaFree(total);
    return 0;
}
