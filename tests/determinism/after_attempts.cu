// Findings that a launch tried on every worker leaves for a later launch to make, or makes late
// in its own run. A kept attempt must leave every shadow cell as the run one block at a time
// does, so a later launch's report, which names what an earlier launch's blocks did, is the same
// at any worker count; and a finding in the last blocks of a launch ends its attempt there.
// tests/determinism/ runs each form at 1, 2, 4 and 8 workers.
#include <cstdio>
#include <cstring>
#include <vector>

// Every block reads all eight weights: each weight is read by every block, many times.
__global__ void scale(const float* weights, const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * weights[i % 8];
}

// Raises one weight, for a launch the stream has not waited for.
__global__ void raise_weight(float* weights) {
    if (threadIdx.x == 3) weights[3] += 1.0f;
}

// Fills the even elements only.
__global__ void fill_evens(int* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (2 * i < n) a[2 * i] = i;
}

// Sums each block's part of `a`: reads every element, the odd ones never written.
__global__ void sum_parts(const int* a, int* sums) {
    __shared__ int part[64];
    int t = threadIdx.x;
    part[t] = a[blockIdx.x * 64 + t];
    __syncthreads();
    if (t == 0) {
        int s = 0;
        for (int k = 0; k < 64; ++k) s += part[k];
        sums[blockIdx.x] = s;
    }
}

// Each block writes its own elements; the last block also reads the block before it's first
// element, with nothing ordering the two blocks.
__global__ void last_block_peeks(int* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = i;
    if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0) a[i] += a[i - blockDim.x];
}

// A per-block sum in shared memory whose barrier one block skips (`skip` names it).
__global__ void tile_sums(const int* in, int* sums, int skip) {
    __shared__ int tile[32];
    int t = threadIdx.x;
    tile[t] = in[blockIdx.x * 32 + t];
    if (blockIdx.x != skip) __syncthreads();
    if (t == 0) {
        int s = 0;
        for (int k = 0; k < 32; ++k) s += tile[k];
        sums[blockIdx.x] = s;
    }
}

// Copies its input's first element, which the host passes as a host array: on a GPU, an
// illegal address.
__global__ void copy_first(const int* in, int* out) {
    out[blockIdx.x * blockDim.x + threadIdx.x] = in[0];
}

int main(int argc, char** argv) {
    const char* which = argc > 1 ? argv[1] : "";
    auto is = [&](const char* name) { return std::strcmp(which, name) == 0; };
    const int n = 64 * 48;
    int *ints, *sums;
    cudaMalloc(&ints, n * sizeof(int));
    cudaMalloc(&sums, 48 * sizeof(int));
    if (is("race-with-an-earlier-launch")) {
        float *weights, *x, *y;
        float host_weights[8] = {1, 2, 3, 4, 5, 6, 7, 8}, host_x[n];
        for (int i = 0; i < n; ++i) host_x[i] = float(i % 13);
        cudaMalloc(&weights, sizeof host_weights);
        cudaMalloc(&x, n * sizeof(float));
        cudaMalloc(&y, n * sizeof(float));
        cudaMemcpy(weights, host_weights, sizeof host_weights, cudaMemcpyHostToDevice);
        cudaMemcpy(x, host_x, n * sizeof(float), cudaMemcpyHostToDevice);
        cudaStream_t other;
        cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking);  // not joined to stream 0
        scale<<<n / 64, 64>>>(weights, x, y, n);
        raise_weight<<<1, 32, 0, other>>>(weights);  // so not ordered after scale
        cudaDeviceSynchronize();
        float host_y[n];
        cudaMemcpy(host_y, y, n * sizeof(float), cudaMemcpyDeviceToHost);
        int wrong = 0;
        for (int i = 0; i < n; ++i) wrong += host_y[i] != host_x[i] * host_weights[i % 8];
        std::printf("%s: %d wrong\n", which, wrong);
        cudaStreamDestroy(other);
        cudaFree(weights);
        cudaFree(x);
        cudaFree(y);
    } else if (is("uninitialised-after-a-kept-launch")) {
        fill_evens<<<n / 2 / 64, 64>>>(ints, n);
        sum_parts<<<48, 64>>>(ints, sums);
        cudaDeviceSynchronize();
        std::printf("%s: done\n", which);
    } else if (is("race-in-the-last-block")) {
        last_block_peeks<<<48, 64>>>(ints);
        int last = 0;
        cudaMemcpy(&last, ints + 47 * 64, sizeof last, cudaMemcpyDeviceToHost);
        std::printf("%s: %d (expected %d)\n", which, last, 47 * 64 + 46 * 64);
    } else if (is("shared-race-in-one-block")) {
        int host[n];
        for (int i = 0; i < n; ++i) host[i] = i % 5;
        cudaMemcpy(ints, host, sizeof host, cudaMemcpyHostToDevice);
        tile_sums<<<48, 32>>>(ints, sums, 29);
        cudaDeviceSynchronize();
        std::printf("%s: done\n", which);
    } else if (is("host-array")) {
        std::vector<int> host(4, 2);
        copy_first<<<48, 64>>>(host.data(), ints);
        std::printf("%s: %s\n", which, cudaGetErrorName(cudaDeviceSynchronize()));
    } else {
        std::printf("usage: after_attempts race-with-an-earlier-launch|"
                    "uninitialised-after-a-kept-launch|race-in-the-last-block|"
                    "shared-race-in-one-block|host-array\n");
        return 2;
    }
    cudaFree(ints);
    cudaFree(sums);
    return 0;
}
