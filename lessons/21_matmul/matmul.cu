// Lesson 21: matrix multiplication, C = A B, as a ladder of kernels, each checked against a CPU
// product within the rounding a float dot product may have. 1: one thread per element of C,
// straight from global memory. 2: tiles of A and B staged in shared memory, each loaded once per
// block. 3: each thread computes 8 elements of a column of C, keeping the B value it shares
// among them in a register. 4: the same, loading the tiles with float4. 5: a warp at a time on
// tensor cores (wmma), with A and B rounded to half and C in float. With the argument `race`
// the program runs step 2 without the barrier at the end of its tile loop, for the checker.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>
#include <simt/simt.hpp>  // simt::gpu_elapsed_time: the GPU's time, measured or predicted

using namespace nvcuda;

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t err_ = (call);                                                       \
        if (err_ != cudaSuccess) {                                                       \
            std::fprintf(stderr, "%s:%d: %s (%s)\n", __FILE__, __LINE__,                 \
                         cudaGetErrorString(err_), cudaGetErrorName(err_));              \
            std::exit(EXIT_FAILURE);                                                     \
        }                                                                                \
    } while (0)

// The matrices are n x n floats, row-major: element (r, c) of A is A[r * n + c]. n is a multiple
// of 64, so every tile below is whole and no thread needs a bounds check.
constexpr int TILE = 32;           // steps 1 and 2: a block of 32x32 threads, one element of C each
constexpr int BM = 64, BN = 64;    // steps 3 and 4: the block's tile of C, 64x64
constexpr int BK = 32;             // steps 3 and 4: the width of the A and B tiles along k
constexpr int TM = 8;              // steps 3 and 4: the elements of C (a column of 8) per thread
constexpr int THREADS = BM * BN / TM;  // 512 threads in a block of steps 3 and 4
static_assert(THREADS * 4 == BM * BK && THREADS * 4 == BK * BN,
              "step 4 loads one float4 of each tile per thread");

// --- Step 1: one thread per element of C --------------------------------------------------------

// x runs along the columns: the 32 lanes of a warp have one row and 32 neighbouring columns, so
// at each k they read one element of A (the same for all: a broadcast) and 32 neighbouring
// elements of one row of B (coalesced), and write 32 neighbouring elements of C.
__global__ void matmul_naive(const float* A, const float* B, float* C, int n) {
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float sum = 0.0f;
    for (int k = 0; k < n; ++k) sum += A[row * n + k] * B[k * n + col];
    C[row * n + col] = sum;
}

// --- Step 2: tiles in shared memory ------------------------------------------------------------

// The block walks along k a 32x32 tile at a time: its threads load one element each of A's tile
// and of B's tile, wait, and each adds its 32 products from shared memory. Every element loaded
// from global memory is used by 32 threads.
__global__ void matmul_tiled(const float* A, const float* B, float* C, int n) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < n; t += TILE) {
        As[ty][tx] = A[row * n + t + tx];
        Bs[ty][tx] = B[(t + ty) * n + col];
        __syncthreads();  // the whole tile is in before anyone reads it
        for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[k][tx];
        __syncthreads();  // everyone is done with this tile before the next overwrites it
    }
    C[row * n + col] = sum;
}

// Step 2 without the second barrier: a thread that finishes its 32 products goes on to load the
// next tile over the one that slower threads are still reading. (Run with the argument `race`.)
__global__ void matmul_tiled_racy(const float* A, const float* B, float* C, int n) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < n; t += TILE) {
        As[ty][tx] = A[row * n + t + tx];
        Bs[ty][tx] = B[(t + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[k][tx];  // the race is here
    }
    C[row * n + col] = sum;
}

// --- Step 3: a register tile of 8 rows per thread ----------------------------------------------

// A block of 512 threads computes a 64x64 tile of C, walking along k 32 at a time. Thread tid
// computes column tid % 64 of the tile, rows 8 (tid / 64) to 8 (tid / 64) + 7: at each k it reads
// B's element once into a register and multiplies it with 8 elements of A. Its warp shares its
// row of threads, so those 8 reads of A are broadcasts.
__global__ void matmul_register_tile(const float* A, const float* B, float* C, int n) {
    __shared__ float As[BM][BK];
    __shared__ float Bs[BK][BN];
    const int tid = threadIdx.x;
    const int col = tid % BN, row0 = tid / BN * TM;  // this thread's column, and its first row
    const float* a = A + blockIdx.y * BM * n;        // the block's 64 rows of A
    const float* b = B + blockIdx.x * BN;            // the block's 64 columns of B
    float acc[TM] = {};
    for (int t = 0; t < n; t += BK) {
        // 2048 elements of each tile, 4 per thread; a warp loads 32 neighbours of one row.
        for (int i = tid; i < BM * BK; i += THREADS) As[i / BK][i % BK] = a[i / BK * n + t + i % BK];
        for (int i = tid; i < BK * BN; i += THREADS) Bs[i / BN][i % BN] = b[(t + i / BN) * n + i % BN];
        __syncthreads();
        for (int k = 0; k < BK; ++k) {
            const float bk = Bs[k][col];  // one shared load, used by 8 multiply-adds
            for (int m = 0; m < TM; ++m) acc[m] += As[row0 + m][k] * bk;
        }
        __syncthreads();
    }
    float* c = C + (blockIdx.y * BM + row0) * n + blockIdx.x * BN + col;
    for (int m = 0; m < TM; ++m) c[m * n] = acc[m];
}

// --- Step 4: the tiles loaded with float4 ------------------------------------------------------

// Step 3 with each thread's 4 loads of A and 4 of B made one 16-byte load each, and one 16-byte
// store into shared memory. A float4 access must be 16-byte aligned: cudaMalloc returns 256-byte
// aligned memory, n is a multiple of 4 (every row starts 16-byte aligned) and t and the column
// offsets are multiples of 4; the shared arrays are declared 16-byte aligned.
__global__ void matmul_float4(const float* A, const float* B, float* C, int n) {
    __shared__ __align__(16) float As[BM][BK];
    __shared__ __align__(16) float Bs[BK][BN];
    const int tid = threadIdx.x;
    const int col = tid % BN, row0 = tid / BN * TM;
    const int ar = tid / (BK / 4), ac = tid % (BK / 4) * 4;  // A's tile: 64 rows of 8 float4s
    const int br = tid / (BN / 4), bc = tid % (BN / 4) * 4;  // B's tile: 32 rows of 16 float4s
    const float* a = A + blockIdx.y * BM * n;
    const float* b = B + blockIdx.x * BN;
    float acc[TM] = {};
    for (int t = 0; t < n; t += BK) {
        *reinterpret_cast<float4*>(&As[ar][ac]) = *reinterpret_cast<const float4*>(&a[ar * n + t + ac]);
        *reinterpret_cast<float4*>(&Bs[br][bc]) = *reinterpret_cast<const float4*>(&b[(t + br) * n + bc]);
        __syncthreads();
        for (int k = 0; k < BK; ++k) {
            const float bk = Bs[k][col];
            for (int m = 0; m < TM; ++m) acc[m] += As[row0 + m][k] * bk;
        }
        __syncthreads();
    }
    float* c = C + (blockIdx.y * BM + row0) * n + blockIdx.x * BN + col;
    for (int m = 0; m < TM; ++m) c[m * n] = acc[m];
}

// --- Step 5: tensor cores with wmma ------------------------------------------------------------

// A tensor core multiplies small tiles in warp-wide instructions: one mma_sync here takes 16x16 of
// A (half) by 16x16 of B (half), added to 16x16 of C (float). The 32 lanes of a warp hold the tiles
// as fragments (which lane holds which element is the hardware's business), and every wmma call
// is made by the whole warp. A block of 4 warps computes a 32x32 tile of C, each warp a 16x16
// quarter, walking along k 16 at a time and loading its fragments straight from global memory.
constexpr int WM = 16, WN = 16, WK = 16;  // the wmma tile: m16n16k16
__global__ void matmul_wmma(const half* A, const half* B, float* C, int n) {
    const int warp = threadIdx.x / 32;
    const int row = blockIdx.y * 32 + warp / 2 * WM, col = blockIdx.x * 32 + warp % 2 * WN;
    wmma::fragment<wmma::matrix_a, WM, WN, WK, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, WM, WN, WK, half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, WM, WN, WK, float> c;
    wmma::fill_fragment(c, 0.0f);
    for (int k = 0; k < n; k += WK) {
        wmma::load_matrix_sync(a, A + row * n + k, n);  // rows n elements apart
        wmma::load_matrix_sync(b, B + k * n + col, n);
        wmma::mma_sync(c, a, b, c);  // c += a b, one tile
    }
    wmma::store_matrix_sync(C + row * n + col, c, n, wmma::mem_row_major);
}

// The inputs rounded to half once, before step 5 (its own launch, not timed).
__global__ void to_half(const float* in, half* out, int count) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += blockDim.x * gridDim.x)
        out[i] = __float2half(in[i]);
}

// --- The host ----------------------------------------------------------------------------------

// The inputs: fractions in [0, 1) with 24 significant bits, so that products round.
float input(unsigned int i, unsigned int seed) {
    return static_cast<float>((i * 2654435761u + seed) >> 8) / 16777216.0f;
}

// Usage: 21_matmul [n [repeats]] (n a multiple of 64, 128 unless given; each kernel launched
// `repeats` times, 1 unless given, after a warm-up launch when more than 1), or 21_matmul race.
int main(int argc, char** argv) {
    const bool race = argc > 1 && std::strcmp(argv[1], "race") == 0;
    const int n = argc > 1 && !race ? std::atoi(argv[1]) : 128;
    const int repeats = argc > 2 ? std::atoi(argv[2]) : 1;
    if (n < 64 || n % 64 != 0 || n > 8192 || repeats < 1 || repeats > 1000) {
        std::printf("usage: 21_matmul [n [repeats]], n a multiple of 64 up to 8192; or 21_matmul race\n");
        return 2;
    }
    const size_t elements = size_t(n) * n, bytes = elements * sizeof(float);
    std::vector<float> hA(elements), hB(elements), hC(elements);
    for (size_t i = 0; i < elements; ++i) hA[i] = input(unsigned(i), 1), hB[i] = input(unsigned(i), 2);

    // The CPU's product in double, and the bound on a float result's error: a dot product of
    // length n summed in float is within n u sum_k |a_rk b_kc| of the exact one, u = 2^-24 the
    // unit roundoff (Higham, "Accuracy and Stability of Numerical Algorithms", 3.1); twice that
    // allows for FMA or not and any order of the sum. For large n only every (n / 128)th row is
    // checked, to keep the CPU's share short.
    const int row_step = n > 128 ? n / 128 : 1;
    std::vector<double> expect(elements), bound(elements);
    for (int r = 0; r < n; r += row_step)
        for (int k = 0; k < n; ++k) {
            const double a = hA[size_t(r) * n + k];
            for (int c = 0; c < n; ++c) {
                expect[size_t(r) * n + c] += a * hB[size_t(k) * n + c];
                bound[size_t(r) * n + c] += std::fabs(a * hB[size_t(k) * n + c]);
            }
        }
    const double u = std::ldexp(1.0, -24);
    for (double& b : bound) b *= 2.0 * n * u;
    // Step 5 multiplies A and B rounded to half: its exact product is that of the rounded inputs.
    // A product of two halves is exact in float, so the same bound holds for its float sums.
    std::vector<double> expect16(elements), bound16(elements);
    auto halved = [](float v) { return double(__half2float(__float2half(v))); };
    for (int r = 0; r < n; r += row_step)
        for (int k = 0; k < n; ++k) {
            const double a = halved(hA[size_t(r) * n + k]);
            for (int c = 0; c < n; ++c) {
                expect16[size_t(r) * n + c] += a * halved(hB[size_t(k) * n + c]);
                bound16[size_t(r) * n + c] += std::fabs(a * halved(hB[size_t(k) * n + c]));
            }
        }
    for (double& b : bound16) b *= 2.0 * n * u;

    float *dA, *dB, *dC;
    CHECK(cudaMalloc(&dA, bytes));
    CHECK(cudaMalloc(&dB, bytes));
    CHECK(cudaMalloc(&dC, bytes));
    CHECK(cudaMemcpy(dA, hA.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dB, hB.data(), bytes, cudaMemcpyHostToDevice));
    half *dA16, *dB16;  // step 5's inputs
    CHECK(cudaMalloc(&dA16, elements * sizeof(half)));
    CHECK(cudaMalloc(&dB16, elements * sizeof(half)));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));

    // Runs one step through `launch()`: a warm-up launch when repeats > 1, then `repeats` launches
    // between two events. Prints the mean time, the rate (2 n^3 floating-point operations per
    // product) and how many checked elements are off by more than their bound; returns that
    // count. Each kernel is launched at its own line below, so that SIMT_PROFILE=text names it.
    double checksum = 0;
    auto run = [&](const char* name, auto launch, bool may_fail,
                   const std::vector<double>& want, const std::vector<double>& tolerance) {
        CHECK(cudaMemset(dC, 0, bytes));
        if (repeats > 1) launch();
        CHECK(cudaEventRecord(start));
        for (int r = 0; r < repeats; ++r) launch();
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        float ms = 0, simulator_ms = 0;
        CHECK(simt::gpu_elapsed_time(&ms, start, stop));
        CHECK(simt::simulator_elapsed_time(&simulator_ms, start, stop));
        ms /= repeats;
        CHECK(cudaMemcpy(hC.data(), dC, bytes, cudaMemcpyDeviceToHost));
        int wrong = 0;
        for (int r = 0; r < n; r += row_step)
            for (int c = 0; c < n; ++c) {
                const size_t i = size_t(r) * n + c;
                wrong += !(std::fabs(hC[i] - want[i]) <= tolerance[i]);  // a NaN is wrong too
            }
        if (!may_fail)
            for (float v : hC) checksum += v;
        std::printf("%-36s %10.2f us %9.0f GFLOP/s  ", name, ms * 1e3, 2.0 * n * n * n / (ms * 1e-3) / 1e9);
        if (wrong == 0)
            std::printf("matches the CPU  ");
        else
            std::printf("%d elements WRONG  ", wrong);
        if (!std::isnan(simulator_ms))  // a GPU build has no simulator time
            std::printf("simulator %.1f ms", simulator_ms / repeats);
        std::printf("\n");
        return may_fail ? 0 : wrong;
    };

    const dim3 tiles(n / TILE, n / TILE), block(TILE, TILE);
    const dim3 tiles34(n / BN, n / BM);
    std::printf("-- C = A B, %dx%d floats; %d launch%s each", n, n, repeats,
                repeats > 1 ? "es after a warm-up" : "");
    if (row_step > 1) std::printf("; one row in %d checked", row_step);
    std::printf("\n-- GPU time and rate: %s\n", simt::gpu_time_label().c_str());
    int wrong = 0;
    if (race) {
        // Its result may be right or wrong: the race is the point, not the values.
        run("2 shared tiles, no second barrier",
            [&] { matmul_tiled_racy<<<tiles, block>>>(dA, dB, dC, n); }, true, expect, bound);
    } else {
        wrong += run("1 naive, one thread per element",
                     [&] { matmul_naive<<<tiles, block>>>(dA, dB, dC, n); }, false, expect, bound);
        wrong += run("2 shared tiles of 32x32",
                     [&] { matmul_tiled<<<tiles, block>>>(dA, dB, dC, n); }, false, expect, bound);
        wrong += run("3 register tile, 8 rows per thread",
                     [&] { matmul_register_tile<<<tiles34, THREADS>>>(dA, dB, dC, n); }, false, expect, bound);
        wrong += run("4 float4 loads into shared memory",
                     [&] { matmul_float4<<<tiles34, THREADS>>>(dA, dB, dC, n); }, false, expect, bound);
        to_half<<<64, 256>>>(dA, dA16, int(elements));
        to_half<<<64, 256>>>(dB, dB16, int(elements));
        wrong += run("5 tensor cores (wmma), half inputs",
                     [&] { matmul_wmma<<<dim3(n / 32, n / 32), 128>>>(dA16, dB16, dC, n); }, false,
                     expect16, bound16);
    }
    std::printf("checksum %.1f\n", checksum);

    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(dA));
    CHECK(cudaFree(dB));
    CHECK(cudaFree(dC));
    CHECK(cudaFree(dA16));
    CHECK(cudaFree(dB16));
    if (wrong) {
        std::printf("FAILED: a step's product differs from the CPU's\n");
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
