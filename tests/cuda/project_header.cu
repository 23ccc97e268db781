// A program whose kernel and launch are in a project header (stencil.cuh): the front end reads
// the header too, so its <<<>>> and __shared__ work and are checked as in the .cu itself.
#include <cstdio>
#include <vector>

#include "stencil.cuh"

int main() {
    const int n = 1000;
    std::vector<int> h_in(n), h_out(n);
    for (int i = 0; i < n; ++i) h_in[i] = (i * 37) % 11;
    int *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMalloc(&d_out, n * sizeof(int)));
    CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    run_stencil(d_in, d_out, n);
    CHECK(cudaMemcpy(h_out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        int sum = 0;
        for (int j = i - STENCIL_RADIUS; j <= i + STENCIL_RADIUS; ++j)
            if (j >= 0 && j < n) sum += h_in[j];
        bad += sum != h_out[i];
    }
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    if (bad) {
        printf("FAILED: %d elements differ\n", bad);
        return 1;
    }
    printf("Test PASSED\n");
    return 0;
}
