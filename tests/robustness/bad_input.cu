// A learner's mistakes on purpose, one per argument: each must end with a clear message and a
// documented exit status within seconds (tests/CMakeLists.txt says which).
#include <simt/simt.hpp>

#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

__global__ void fill(simt::span<int> out) {
    int i = simt::grid<1>();
    if (i < out.size()) out[i] = i;
}

__global__ void racy_count(simt::ptr<int> counter) { counter[0] += 1; }

__global__ void throws_in_thread_3(simt::span<int> out) {
    if (threadIdx.x == 3) throw std::runtime_error("bad input 42");
    out[threadIdx.x] = 1;
}

__global__ void halves_at_two_barriers() {
    if (threadIdx.x < 16) __syncthreads();
    else __syncthreads();
}

__global__ void spin_forever(simt::span<int> flag) {
    while (flag[0] == 0) {
    }
}

__global__ void spin_while_others_wait(simt::span<int> flag) {
    if (threadIdx.x == 0)
        while (flag[0] == 0) {
        }
    __syncthreads();
}

// Block 0 waits for a flag that the last block sets: blocks are not all resident at once.
__global__ void wait_for_last_block(simt::span<int> flag) {
    if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0) flag[0] = 1;
    if (blockIdx.x == 0 && threadIdx.x == 0)
        while (flag[0] == 0) {
        }
}

int main(int argc, char** argv) {
    const char* mode = argc > 1 ? argv[1] : "ok";
    auto is = [&](const char* m) { return std::strcmp(mode, m) == 0; };
    auto out = simt::to_device(std::vector<int>(64, 0));
    if (is("ok")) {
        simt::launch(fill, 2, 32)(out);
        std::printf("ok %d\n", out.copy_to_host()[63]);
    } else if (is("block-1025")) {
        simt::launch(fill, 1, 1025)(out);
    } else if (is("grid-0")) {
        simt::launch(fill, 0, 32)(out);
    } else if (is("more-blocks-than-checked")) {
        // 2^31 - 1 blocks: more than the race checker can number in one process.
        simt::launch(fill, dim3(2147483647u), 32)(out);
        simt::synchronize();
    } else if (is("kernel-throws")) {
        simt::launch(throws_in_thread_3, 1, 32)(out);
        simt::synchronize();
    } else if (is("uncollected")) {
        simt::launch(throws_in_thread_3, 1, 32)(out);  // and never synchronize
    } else if (is("deadlock")) {
        simt::launch(halves_at_two_barriers, 1, 32)();
        simt::synchronize();
    } else if (is("racy")) {
        auto counter = simt::to_device(std::vector<int>{0});
        simt::launch(racy_count, 2, 32)(counter);
        std::printf("count %d\n", counter.copy_to_host()[0]);
    } else if (is("huge-alloc")) {
        auto huge = simt::device_array<char>(std::size_t(1) << 50);
        std::printf("allocated %zu\n", huge.size());
    } else if (is("host-index")) {
        simt::span<int> s = out;
        int first = s[0];
        std::printf("%d\n", first);
    } else if (is("size-mismatch")) {
        std::vector<int> small(10);
        out.copy_to_host(small);
    } else if (is("spin")) {
        simt::launch(spin_forever, 1, 32)(out);
        simt::synchronize();
    } else if (is("spin-at-barrier")) {
        simt::launch(spin_while_others_wait, 1, 64)(out);
        simt::synchronize();
    } else if (is("spin-on-other-block")) {
        simt::launch(wait_for_last_block, 4096, 32)(out);
        simt::synchronize();
    } else {
        std::fprintf(stderr, "bad_input: unknown mode %s\n", mode);
        return 64;
    }
    return 0;
}
