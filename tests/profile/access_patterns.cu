// Memory access patterns a CUDA course shows, with raw pointers and __shared__ arrays. Run with
// SIMT_PROFILE, each launch's counts are those worked out by hand in access_patterns.expect
// (the launch and the line each names are marked here with "// @name").
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t err_ = (call);                                                       \
        if (err_ != cudaSuccess) {                                                       \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
            std::exit(EXIT_FAILURE);                                                     \
        }                                                                                \
    } while (0)

__global__ void copy_strided(const float* in, float* out, int stride) {
    int i = threadIdx.x;
    out[i] = in[i * stride];  // @strided-load
}

__global__ void copy_shifted(const float* in, float* out) {
    int i = threadIdx.x;
    out[i] = in[i + 1];  // @shifted-load
}

__global__ void copy_doubles(const double* in, double* out) {
    int i = threadIdx.x;
    out[i] = in[i];
}

__global__ void copy_float4s(const float4* in, float4* out) {
    int i = threadIdx.x;
    out[i] = in[i];
}

__global__ void copy_some(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}

__global__ void transpose_tile(const float* in, float* out) {
    __shared__ float tile[32][32];
    tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
    __syncthreads();
    out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];  // @column-read
}

__global__ void transpose_padded_tile(const float* in, float* out) {
    __shared__ float tile[32][33];
    tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
    __syncthreads();
    out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];  // @padded-column-read
}

__global__ void broadcast_first(const float* in, float* out) {
    __shared__ float first;
    if (threadIdx.x == 0) first = in[0];  // @broadcast-write
    __syncthreads();
    out[threadIdx.x] = first;  // @broadcast-read
}

__global__ void shared_doubles(const double* in, double* out) {
    __shared__ double d[64];
    d[threadIdx.x] = in[threadIdx.x];
    d[threadIdx.x + 32] = in[threadIdx.x + 32];
    __syncthreads();
    out[threadIdx.x] = d[threadIdx.x] + d[2 * threadIdx.x];  // @double-reads
}

// Three ways to sum 64 numbers in one block.
__global__ void reduce_interleaved(const float* in, float* out) {
    __shared__ float sum[64];
    unsigned t = threadIdx.x;
    sum[t] = in[t];
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        if (t % (2 * s) == 0) sum[t] += sum[t + s];  // @interleaved-add
        __syncthreads();
    }
    if (t == 0) *out = sum[0];
}

__global__ void reduce_strided_index(const float* in, float* out) {
    __shared__ float sum[64];
    unsigned t = threadIdx.x;
    sum[t] = in[t];
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        unsigned k = 2 * s * t;
        if (k < blockDim.x) sum[k] += sum[k + s];  // @strided-index-add
        __syncthreads();
    }
    if (t == 0) *out = sum[0];
}

__global__ void reduce_sequential(const float* in, float* out) {
    __shared__ float sum[64];
    unsigned t = threadIdx.x;
    sum[t] = in[t];
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
        if (t < s) sum[t] += sum[t + s];  // @sequential-add
        __syncthreads();
    }
    if (t == 0) *out = sum[0];
}

__global__ void split_even_odd(const int* in, int* evens, int* odds) {
    int i = threadIdx.x;
    int v = in[i];
    if (i % 2 == 0) evens[i / 2] = v;  // @even-store
    else odds[i / 2] = v + 1;          // @odd-store
}

// Even lanes store in the first round, odd lanes in the second: the barrier (or __syncwarp)
// between keeps them two requests, as on a GPU.
__global__ void take_turns(int* out) {
    for (int round = 0; round < 2; ++round) {
        if (threadIdx.x % 2 == round) out[threadIdx.x] = round;  // @turn-store
        __syncthreads();
    }
}

__global__ void take_turns_in_warp(int* out) {
    for (int round = 0; round < 2; ++round) {
        if (threadIdx.x % 2 == round) out[threadIdx.x] = round;  // @warp-turn-store
        __syncwarp();
    }
}

__global__ void count_threads(int* counter) { atomicAdd(counter, 1); }

int main() {
    const int n = 4096;
    std::vector<float> host(n);
    for (int i = 0; i < n; ++i) host[i] = float(i % 17);
    float *in, *out;
    double *din, *dout;
    int *iin, *evens, *odds, *counter;
    CHECK(cudaMalloc(&in, n * sizeof(float)));
    CHECK(cudaMalloc(&out, n * sizeof(float)));
    CHECK(cudaMalloc(&din, n * sizeof(double)));
    CHECK(cudaMalloc(&dout, n * sizeof(double)));
    CHECK(cudaMalloc(&iin, 32 * sizeof(int)));
    CHECK(cudaMalloc(&evens, 16 * sizeof(int)));
    CHECK(cudaMalloc(&odds, 16 * sizeof(int)));
    CHECK(cudaMalloc(&counter, sizeof(int)));
    CHECK(cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(din, 0, n * sizeof(double)));
    CHECK(cudaMemset(iin, 0, 32 * sizeof(int)));
    CHECK(cudaMemset(counter, 0, sizeof(int)));

    copy_strided<<<1, 32>>>(in, out, 1);   // @stride1
    copy_strided<<<1, 32>>>(in, out, 2);   // @stride2
    copy_strided<<<1, 32>>>(in, out, 32);  // @stride32
    copy_shifted<<<1, 32>>>(in, out);      // @shifted
    copy_doubles<<<1, 32>>>(din, dout);    // @doubles
    copy_float4s<<<1, 32>>>(reinterpret_cast<const float4*>(in), reinterpret_cast<float4*>(out));  // @float4s
    copy_some<<<1, 48>>>(in, out, 48);     // @partial-warp
    transpose_tile<<<1, dim3(32, 32)>>>(in, out);         // @tile
    transpose_padded_tile<<<1, dim3(32, 32)>>>(in, out);  // @padded-tile
    broadcast_first<<<1, 32>>>(in, out);   // @broadcast
    shared_doubles<<<1, 32>>>(din, dout);  // @shared-doubles
    reduce_interleaved<<<1, 64>>>(in, out);    // @interleaved
    reduce_strided_index<<<1, 64>>>(in, out);  // @strided-index
    reduce_sequential<<<1, 64>>>(in, out);     // @sequential
    split_even_odd<<<1, 32>>>(iin, evens, odds);  // @if-else
    take_turns<<<1, 32>>>(iin);            // @turns
    take_turns_in_warp<<<1, 32>>>(iin);    // @warp-turns
    count_threads<<<1, 64>>>(counter);     // @atomics
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    int count = 0;
    CHECK(cudaMemcpy(&count, counter, sizeof(int), cudaMemcpyDeviceToHost));
    std::printf("threads counted: %d\n", count);
    for (void* p : {(void*)in, (void*)out, (void*)din, (void*)dout, (void*)iin, (void*)evens,
                    (void*)odds, (void*)counter})
        CHECK(cudaFree(p));
    return count == 64 ? 0 : 1;
}
