// Lesson 07: the racy counter and the atomic counter. Every thread adds one to a global counter.
// Without an atomic, two threads can read the same old value and one increment is lost; the
// simulator's race checker names the two threads and the line, whatever the values came out as.
#include <simt/simt.hpp>

#include <cstdio>
#include <vector>

// Read, add one, write back: three steps that other threads can interleave with.
__global__ void count_racy(simt::span<int> counter) {
    counter[0] += 1;  // the race: nothing orders this thread's read and write against others'
}

// The same increment as one indivisible step.
__global__ void count_atomic(simt::span<int> counter) {
    atomicAdd(&counter[0], 1);
}

int main() {
    const int blocks = 64, threads = 64, expected = blocks * threads;

    auto racy = simt::to_device(std::vector<int>{0});
    simt::launch(count_racy, blocks, threads)(racy);
    int racy_total = racy.copy_to_host()[0];

    auto safe = simt::to_device(std::vector<int>{0});
    simt::launch(count_atomic, blocks, threads)(safe);
    int atomic_total = safe.copy_to_host()[0];

    std::printf("-- %d threads each add 1 to a counter\n", expected);
    std::printf("racy counter:   %d%s\n", racy_total,
                racy_total == expected
                    ? "  (right by luck: this schedule ran one thread's read and write together)"
                    : "  (updates were lost)");
    std::printf("atomic counter: %d\n", atomic_total);
    std::printf("checksum %d\n", atomic_total);
    if (atomic_total != expected) {
        std::printf("FAILED: the atomic counter should be %d\n", expected);
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
