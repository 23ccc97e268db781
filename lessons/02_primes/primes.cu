// Lesson 02: all primes below 10000, three ways. On the CPU; with one kernel launch per number,
// which drowns the device in launch overhead; and with one launch over an array of numbers, one
// thread per number, which gives the device enough work at once.
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

// The CPU version: trial division by every smaller number, as in the tutorial.
std::vector<int> find_all_primes_cpu(int upper) {
    std::vector<int> primes;
    for (int num = 2; num < upper; ++num) {
        bool prime = true;
        for (int i = 2; i < num; ++i)
            if (num % i == 0) {
                prime = false;
                break;
            }
        if (prime) primes.push_back(num);
    }
    return primes;
}

// A kernel returns nothing: it writes its answer into device memory, here a single int.
__global__ void check_prime_kernel(int num, int* result) {
    *result = num;
    for (int i = 2; i < num; ++i)
        if (num % i == 0) {
            *result = 0;
            break;
        }
}

// One thread per number: result[k] is nums[k] if it is prime, else 0.
__global__ void check_primes(const int* nums, int* result, int n) {
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n) return;
    int num = nums[k];
    int answer = num;
    for (int i = 2; i < num; ++i)
        if (num % i == 0) {
            answer = 0;
            break;
        }
    result[k] = answer;
}

double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

int main() {
    const int upper = 10000;
    // The first runtime call creates the device's context, which takes a GPU tens to hundreds of
    // milliseconds. Make it here, outside every timed region, so no timing pays for it.
    CHECK(cudaFree(0));

    auto t0 = std::chrono::steady_clock::now();
    std::vector<int> cpu = find_all_primes_cpu(upper);
    double cpu_ms = ms_since(t0);

    // Events are marks in the device's queue: the time between them is the GPU's, measured on a
    // GPU and, in the simulator, predicted for the GPU it models (simt::gpu_time_label says
    // which), whatever the simulator itself took.
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));

    // One launch per number, and a copy back per number to read the answer: slow by design.
    int* d_result;
    CHECK(cudaMalloc(&d_result, sizeof(int)));
    check_prime_kernel<<<1, 1>>>(2, d_result);  // warm-up: the first launch loads the module
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventRecord(start));
    std::vector<int> one_by_one;
    for (int num = 2; num < upper; ++num) {
        check_prime_kernel<<<1, 1>>>(num, d_result);
        CHECK(cudaGetLastError());
        int answer;
        CHECK(cudaMemcpy(&answer, d_result, sizeof(int), cudaMemcpyDeviceToHost));
        if (answer > 0) one_by_one.push_back(num);
    }
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float launches_ms;
    CHECK(simt::gpu_elapsed_time(&launches_ms, start, stop));
    CHECK(cudaFree(d_result));

    // One launch over all numbers.
    const int n = upper - 2;
    std::vector<int> nums(n), flags(n);
    for (int k = 0; k < n; ++k) nums[k] = k + 2;
    int *d_nums, *d_flags;
    CHECK(cudaMalloc(&d_nums, n * sizeof(int)));
    CHECK(cudaMalloc(&d_flags, n * sizeof(int)));
    CHECK(cudaMemcpy(d_nums, nums.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    const int threads = 128, blocks = (n + threads - 1) / threads;
    check_primes<<<blocks, threads>>>(d_nums, d_flags, n);  // warm-up, not timed
    CHECK(cudaGetLastError());
    // Several launches between the two events: their mean is steadier than any single one.
    const int repeats = 3;
    CHECK(cudaEventRecord(start));
    for (int r = 0; r < repeats; ++r) check_primes<<<blocks, threads>>>(d_nums, d_flags, n);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));  // the time is only known once the device reached stop
    float total_ms;
    CHECK(simt::gpu_elapsed_time(&total_ms, start, stop));
    float kernel_ms = total_ms / repeats;
    CHECK(cudaMemcpy(flags.data(), d_flags, n * sizeof(int), cudaMemcpyDeviceToHost));
    std::vector<int> array;
    for (int v : flags)
        if (v > 0) array.push_back(v);
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(d_nums));
    CHECK(cudaFree(d_flags));

    std::printf("-- primes below %d: %zu of them, the last %d\n", upper, cpu.size(), cpu.back());
    std::printf("CPU loop:                      %9.2f ms  (this machine's wall clock)\n", cpu_ms);
    std::printf("-- GPU time: %s\n", simt::gpu_time_label().c_str());
    std::printf("one launch per number:         %9.2f ms  (%d launches, %d copies back)\n",
                launches_ms, n, n);
    std::printf("one launch over the array:     %9.2f us  (the mean of %d launches between two events)\n",
                kernel_ms * 1e3, repeats);

    long checksum = 0;
    for (int p : array) checksum += p;
    bool ok = one_by_one == cpu && array == cpu;
    std::printf("all three agree: %s\n", ok ? "yes" : "no");
    std::printf("checksum %ld\n", checksum);
    if (!ok) {
        std::printf("FAILED: a device result differs from the CPU's\n");
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
