// Threads that write different members of one __shared__ struct element share no byte, so they
// do not race (a pair of threads fills one {low, high} element). Run with "same", both threads
// of a pair write `low`: a data race on the element's first bytes at that line.
#include <cstdio>
#include <cstring>

struct Pair {
    int low;
    int high;
};

__global__ void pairs(int* out, bool same) {
    __shared__ Pair halves[64];
    int t = threadIdx.x;
    if (t % 2 == 0 || same) halves[t / 2].low = t;  // BUG with "same": both threads of a pair
    else halves[t / 2].high = t;
    __syncthreads();
    if (t < 64) out[t] = halves[t].low + halves[t].high;
}

int main(int argc, char** argv) {
    bool same = argc > 1 && std::strcmp(argv[1], "same") == 0;
    int* out;
    cudaMallocManaged(&out, 64 * sizeof(int));
    pairs<<<1, 128>>>(out, same);
    cudaDeviceSynchronize();
    printf("out[1] = %d\n", out[1]);  // 2 + 3 when each thread writes its own member
    cudaFree(out);
    return 0;
}
