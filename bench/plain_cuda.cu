// The benchmark's plain-CUDA half: raw pointers, plain __shared__, <<<>>>. bench/CMakeLists.txt
// builds it twice, instrumented (checked raw accesses, the default) and UNCHECKED; simt_bench runs
// both with its sizes and reports them side by side. Prints one "name value" line per figure
// (ns per thread); exits non-zero on a wrong result, a finding or a CUDA error. With the one
// argument independent-blocks it times only blocks with real work per thread, under the settings
// of its environment, which simt_bench sets to one worker and then two. With matmul <side> it
// times the course's naive matrix multiply of side x side, checked and not.
#include <simt/simt.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {

double median_ns_per_thread(const std::function<void()>& f, double threads,
                            const std::function<void()>& before = [] {}) {
    before();
    f();  // warm-up
    std::vector<double> t;
    for (int r = 0; r < 5; ++r) {
        before();  // untimed: resets what the run accumulates into
        auto a = std::chrono::steady_clock::now();
        f();
        auto b = std::chrono::steady_clock::now();
        t.push_back(std::chrono::duration<double, std::nano>(b - a).count() / threads);
    }
    std::sort(t.begin(), t.end());
    return t[2];
}

[[noreturn]] void wrong_result(const char* kernel) {
    std::fprintf(stderr, "FAILED: the benchmark kernel %s computed a wrong result\n", kernel);
    std::exit(1);
}

}  // namespace

__global__ void vector_add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

constexpr int TILE = 32, ROWS = 8;

__global__ void transpose(const float* in, float* out, int n) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void block_sum(const float* in, float* out) {
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * 256 + t];
    __syncthreads();
    for (unsigned half = 128; half > 0; half /= 2) {
        if (t < half) s[t] += s[t + half];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void atomic_counter(int* counter) { atomicAdd(counter, 1); }

__host__ __device__ float heavy_value(int i) {
    float x = static_cast<float>(i) * 1e-6f;
    for (int k = 0; k < 400; ++k) x = x * 0.999f + 0.5f / (1.0f + x * x);
    return x;
}

__global__ void independent_blocks(float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = heavy_value(i);
}

// 2048 blocks of 256 threads that share nothing, checked against the host on every 64th thread.
int time_independent_blocks() {
    const int blocks = 2048, threads = blocks * 256;
    float* out;
    cudaMalloc(&out, threads * sizeof(float));
    double ns = median_ns_per_thread([&] {
        independent_blocks<<<blocks, 256>>>(out);
        cudaDeviceSynchronize();
    }, threads);
    std::vector<float> back(threads);
    cudaMemcpy(back.data(), out, threads * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(out);
    for (int i = 0; i < threads; i += 64)
        if (back[i] != heavy_value(i)) wrong_result("independent_blocks");
    if (cudaGetLastError() != cudaSuccess) return 1;
    std::printf("independent_blocks %g\n", ns);
    return 0;
}

// The course's first matrix multiply: one thread per element of C, a row of A against a column of
// B, in 16 x 16 blocks.
__global__ void matmul(const float* A, const float* B, float* C, int n) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n && col < n) {
        float sum = 0;
        for (int k = 0; k < n; ++k) sum += A[row * n + k] * B[k * n + col];
        C[row * n + col] = sum;
    }
}

// One n x n multiply under the settings of the environment, timed once (checked, 1024 x 1024
// takes minutes): "matmul <seconds>". simt_bench runs it in both builds. Small integers keep
// every sum exact, so the result is checked against the host on a few elements.
int time_matmul(int n) {
    std::vector<float> a(std::size_t(n) * n), b(a.size()), c(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = float(i % 7), b[i] = float(i % 5);
    float *A, *B, *C;
    const std::size_t bytes = a.size() * sizeof(float);
    cudaMalloc(&A, bytes);
    cudaMalloc(&B, bytes);
    cudaMalloc(&C, bytes);
    cudaMemcpy(A, a.data(), bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(B, b.data(), bytes, cudaMemcpyHostToDevice);
    {
        auto start = std::chrono::steady_clock::now();
        matmul<<<dim3((n + 15) / 16, (n + 15) / 16), dim3(16, 16)>>>(A, B, C, n);
        cudaDeviceSynchronize();
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        cudaMemcpy(c.data(), C, bytes, cudaMemcpyDeviceToHost);
        for (int row = 0; row < n; row += std::max(1, n / 7))
            for (int col = 0; col < n; col += std::max(1, n / 5)) {
                float want = 0;
                for (int k = 0; k < n; ++k)
                    want += a[std::size_t(row) * n + k] * b[std::size_t(k) * n + col];
                if (c[std::size_t(row) * n + col] != want) wrong_result("matmul");
            }
        std::printf("matmul %g\n", s);
    }
    cudaFree(A);
    cudaFree(B);
    cudaFree(C);
    if (!simt::sim::findings().empty() || cudaGetLastError() != cudaSuccess) return 1;
    return 0;
}

int main(int argc, char** argv) {
    if (argc == 2 && std::string(argv[1]) == "independent-blocks") return time_independent_blocks();
    if (argc == 3 && std::string(argv[1]) == "matmul") return time_matmul(std::atoi(argv[2]));
    if (argc != 5) {
        std::fprintf(stderr, "usage: %s <vector add threads> <transpose side> <reduction threads> "
                             "<atomic threads> (simt_bench passes its sizes), or: %s independent-blocks, or: "
                             "%s matmul <side>\n",
                     argv[0], argv[0], argv[0]);
        return 2;
    }
    const int n = std::atoi(argv[1]), side = std::atoi(argv[2]), rn = std::atoi(argv[3]),
              an = std::atoi(argv[4]);
    // The transpose and the reduction read a and write c, so those must hold them.
    if (n <= 0 || n % 256 || side % TILE || std::size_t(side) * side > std::size_t(n) || rn % 256 ||
        rn > n || an <= 0 || an % 256) {
        std::fprintf(stderr, "%s: sizes that this benchmark's grids do not cover\n", argv[0]);
        return 2;
    }
    std::vector<float> host(n), back(n);
    for (int i = 0; i < n; ++i) host[i] = float(i % 100);  // sums of 256 stay exact in float
    float *a, *b, *c;
    int* counter;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    cudaMalloc(&c, n * sizeof(float));
    cudaMalloc(&counter, sizeof(int));
    auto fill = [&] {
        cudaMemcpy(a, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
        cudaMemcpy(b, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    };
    auto fetch_c = [&](std::size_t count) {
        cudaMemcpy(back.data(), c, count * sizeof(float), cudaMemcpyDeviceToHost);
    };
    auto& cfg = simt::sim::config();
    for (const char* checks : {"none", "all"}) {
        simt::sim::apply_setting(cfg, "SIMT_CHECK", checks);
        fill();
        double vadd = median_ns_per_thread([&] {
            vector_add<<<n / 256, 256>>>(a, b, c, n);
            cudaDeviceSynchronize();
        }, n);
        fetch_c(n);
        for (int i = 0; i < n; ++i)
            if (back[i] != host[i] + host[i]) wrong_result("vector_add");
        double tr = median_ns_per_thread([&] {
            transpose<<<dim3(side / TILE, side / TILE), dim3(TILE, ROWS)>>>(a, c, side);
            cudaDeviceSynchronize();
        }, double(side) * side / (TILE / ROWS));
        fetch_c(std::size_t(side) * side);
        for (std::size_t y = 0; y < std::size_t(side); ++y)
            for (std::size_t x = 0; x < std::size_t(side); ++x)
                if (back[y * side + x] != host[x * side + y]) wrong_result("transpose");
        double red = median_ns_per_thread([&] {
            block_sum<<<rn / 256, 256>>>(a, c);
            cudaDeviceSynchronize();
        }, rn);
        fetch_c(rn / 256);
        for (int blk = 0; blk < rn / 256; ++blk) {
            float sum = 0;
            for (int t = 0; t < 256; ++t) sum += host[blk * 256 + t];
            if (back[blk] != sum) wrong_result("block_sum");
        }
        double atom = median_ns_per_thread([&] {
            atomic_counter<<<an / 256, 256>>>(counter);
            cudaDeviceSynchronize();
        }, an, [&] { cudaMemset(counter, 0, sizeof(int)); });
        int count = 0;
        cudaMemcpy(&count, counter, sizeof(int), cudaMemcpyDeviceToHost);
        if (count != an) wrong_result("atomic_counter");
        std::printf("vector_add_%s %g\ntranspose_%s %g\ntree_reduction_%s %g\natomic_counter_%s %g\n",
                    checks, vadd, checks, tr, checks, red, checks, atom);
    }
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    cudaFree(counter);
    if (!simt::sim::findings().empty() || cudaGetLastError() != cudaSuccess) {
        std::fprintf(stderr, "FAILED: a finding or an error in a correct benchmark kernel\n");
        return 1;
    }
    return 0;
}
