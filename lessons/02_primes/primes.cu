// Lesson 02: all primes below 10000, three ways. On the CPU; with one kernel launch per number,
// which drowns the device in launch overhead; and with one launch over an array of numbers, one
// thread per number, which gives the device enough work at once.
#include <simt/simt.hpp>

#include <chrono>
#include <cstdio>
#include <vector>

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

// A kernel returns nothing: it writes its answer into device memory, here a one-element array.
__global__ void check_prime_kernel(int num, simt::span<int> result) {
    result[0] = num;
    for (int i = 2; i < num; ++i)
        if (num % i == 0) {
            result[0] = 0;
            break;
        }
}

// One thread per number: nums[k] stays or becomes 0.
__global__ void check_primes(simt::span<const int> nums, simt::span<int> result) {
    int k = simt::grid<1>();
    if (k >= static_cast<int>(nums.size())) return;
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
    auto t0 = std::chrono::steady_clock::now();
    std::vector<int> cpu = find_all_primes_cpu(upper);
    double cpu_ms = ms_since(t0);

    // One launch per number, and a copy back per number to read the answer: slow by design.
    t0 = std::chrono::steady_clock::now();
    std::vector<int> one_by_one;
    auto result = simt::device_array<int>(1);
    for (int num = 2; num < upper; ++num) {
        simt::launch(check_prime_kernel, 1, 1)(num, result);
        if (result.copy_to_host()[0] > 0) one_by_one.push_back(num);
    }
    double launches_ms = ms_since(t0);

    // One launch over all numbers.
    std::vector<int> nums(upper - 2);
    for (int k = 0; k < upper - 2; ++k) nums[k] = k + 2;
    auto dnums = simt::to_device(nums);
    auto dresult = simt::device_array_like(dnums);
    simt::Event start, stop;
    start.record();
    const int threads = 128, blocks = (upper - 2 + threads - 1) / threads;
    simt::launch(check_primes, blocks, threads)(dnums, dresult);
    stop.record();
    std::vector<int> flags = dresult.copy_to_host();
    std::vector<int> array;
    for (int v : flags)
        if (v > 0) array.push_back(v);

    std::printf("-- primes below %d: %zu of them, the last %d\n", upper, cpu.size(), cpu.back());
    std::printf("CPU loop:                      %9.2f ms\n", cpu_ms);
    std::printf("one launch per number:         %9.2f ms  (%d launches, %d copies back)\n",
                launches_ms, upper - 2, upper - 2);
    std::printf("one launch over the array:     %9.2f ms  (kernel time between two events)\n",
                start.elapsed_ms(stop));

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
