// Tensor cores through nvcuda::wmma, as NVIDIA's cudaTensorCoreGemm sample and the Programming
// Guide's example use them: half A and B, float accumulators, each warp one 16x16 tile of C,
// looping over K in steps of 16; B both row-major and column-major; C loaded, scaled and stored.
// Checked against a CPU product with a tolerance (a tensor core adds in its own order).
// `race`: the block stages its A tiles in shared memory and a warp reads another warp's tile
// without the barrier between, a data race at the load.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <vector>

#include <cuda_fp16.h>
#include <mma.h>

#include "check_cuda.h"

using namespace nvcuda;

constexpr int M = 64, N = 64, K = 64;  // C (M x N) = A (M x K) * B (K x N) + C
constexpr int T = 16;                  // the wmma tile

// One warp per 16x16 tile of C; blocks of 4 warps side by side along N.
template <class BLayout>
__global__ void gemm(const half* a, const half* b, float* c, int ldb) {
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int tile_row = warp / (N / T), tile_col = warp % (N / T);
    wmma::fragment<wmma::matrix_a, T, T, T, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, T, T, T, half, BLayout> fb;
    wmma::fragment<wmma::accumulator, T, T, T, float> acc;
    float* c_tile = c + tile_row * T * N + tile_col * T;
    wmma::load_matrix_sync(acc, c_tile, N, wmma::mem_row_major);
    for (int i = 0; i < acc.num_elements; ++i) acc.x[i] *= 0.5f;  // C/2 + A * B
    for (int k = 0; k < K; k += T) {
        wmma::load_matrix_sync(fa, a + tile_row * T * K + k, K);
        const half* b_tile = std::is_same<BLayout, wmma::row_major>::value
                                 ? b + k * ldb + tile_col * T
                                 : b + tile_col * T * ldb + k;
        wmma::load_matrix_sync(fb, b_tile, ldb);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(c_tile, acc, N, wmma::mem_row_major);
}

// Four warps stage the A tiles of their row in shared memory, then each multiplies the tile the
// next warp staged. Without the barrier, warp w reads warp w+1's tile as it is written.
__global__ void gemm_shared_a(const half* a, const half* b, float* c, bool barrier) {
    __shared__ half a_tiles[4][T * T];
    int w = threadIdx.x / 32, lane = threadIdx.x % 32;
    for (int i = lane; i < T * T; i += 32) a_tiles[w][i] = a[(i / T) * K + w * T + i % T];
    if (barrier) __syncthreads();
    int src = (w + 1) % 4;
    wmma::fragment<wmma::matrix_a, T, T, T, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, T, T, T, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, T, T, T, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    wmma::load_matrix_sync(fa, a_tiles[src], T);  // the race is here
    wmma::load_matrix_sync(fb, b + src * T * N + w * T, N);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(c + w * T, acc, N, wmma::mem_row_major);
}

int main(int argc, char** argv) {
    bool race = argc > 1 && std::strcmp(argv[1], "race") == 0;
    std::vector<half> ha(M * K), hb(K * N), hbt(N * K);
    std::vector<float> hc(M * N), fa(M * K), fb(K * N);
    for (int i = 0; i < M * K; ++i) fa[i] = float((i * 37) % 17 - 8) / 8, ha[i] = __float2half(fa[i]);
    for (int i = 0; i < K * N; ++i) fb[i] = float((i * 11) % 13 - 6) / 4, hb[i] = __float2half(fb[i]);
    for (int r = 0; r < K; ++r)
        for (int col = 0; col < N; ++col) hbt[col * K + r] = hb[r * N + col];
    for (int i = 0; i < M * N; ++i) hc[i] = float(i % 7);
    half *da, *db, *dbt;
    float* dc;
    CHECK(cudaMalloc(&da, M * K * sizeof(half)));
    CHECK(cudaMalloc(&db, K * N * sizeof(half)));
    CHECK(cudaMalloc(&dbt, N * K * sizeof(half)));
    CHECK(cudaMalloc(&dc, M * N * sizeof(float)));
    CHECK(cudaMemcpy(da, ha.data(), M * K * sizeof(half), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, hb.data(), K * N * sizeof(half), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dbt, hbt.data(), N * K * sizeof(half), cudaMemcpyHostToDevice));

    if (argc > 1 && std::strcmp(argv[1], "null") == 0) {
        // A null A: the first load of A faults, a GPU's illegal address.
        CHECK(cudaMemset(dc, 0, M * N * sizeof(float)));
        gemm<wmma::row_major><<<2, 128>>>(nullptr, db, dc, N);
        printf("null A: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
        return 0;
    }
    if (race) {
        gemm_shared_a<<<1, 128>>>(da, db, dc, false);
        CHECK(cudaDeviceSynchronize());
        printf("staged without the barrier\n");
        return 0;
    }
    int wrong = 0;
    for (int layout = 0; layout < 2; ++layout) {
        CHECK(cudaMemcpy(dc, hc.data(), M * N * sizeof(float), cudaMemcpyHostToDevice));
        const int warps = (M / T) * (N / T);
        if (layout == 0) gemm<wmma::row_major><<<warps / 4, 128>>>(da, db, dc, N);
        else gemm<wmma::col_major><<<warps / 4, 128>>>(da, dbt, dc, K);
        CHECK(cudaGetLastError());
        std::vector<float> got(M * N);
        CHECK(cudaMemcpy(got.data(), dc, M * N * sizeof(float), cudaMemcpyDeviceToHost));
        for (int r = 0; r < M; ++r)
            for (int col = 0; col < N; ++col) {
                double want = 0.5 * hc[r * N + col];
                for (int k = 0; k < K; ++k) want += double(fa[r * K + k]) * fb[k * N + col];
                if (std::fabs(got[r * N + col] - want) > 1e-3 * (1 + std::fabs(want)) && wrong++ < 5)
                    printf("FAILED: B %s, C[%d][%d] = %f, expected %f\n",
                           layout ? "column-major" : "row-major", r, col, got[r * N + col], want);
            }
    }
    // The shared-memory form with its barrier: C's first 16 rows, tile w = A's tile w+1 times B's.
    gemm_shared_a<<<1, 128>>>(da, db, dc, true);
    std::vector<float> got(M * N);
    CHECK(cudaMemcpy(got.data(), dc, M * N * sizeof(float), cudaMemcpyDeviceToHost));
    for (int w = 0; w < 4; ++w)
        for (int r = 0; r < T; ++r)
            for (int col = 0; col < T; ++col) {
                int src = (w + 1) % 4;
                double want = 0;
                for (int k = 0; k < T; ++k) want += double(fa[r * K + src * T + k]) * fb[(src * T + k) * N + w * T + col];
                float g = got[r * N + w * T + col];
                if (std::fabs(g - want) > 1e-3 * (1 + std::fabs(want)) && wrong++ < 5)
                    printf("FAILED: staged tile %d, [%d][%d] = %f, expected %f\n", w, r, col, g, want);
            }
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dbt));
    CHECK(cudaFree(dc));
    printf(wrong ? "FAILED\n" : "PASS\n");
    return wrong ? 1 : 0;
}
