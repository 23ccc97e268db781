// Vector addition as the CUDA books write it: the runtime API, raw pointers, <<<>>>, and a check
// after every call.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "check_cuda.h"  // CHECK(call), as a course's helper header defines it

__global__ void vectorAdd(const float* A, const float* B, float* C, int numElements) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < numElements) C[i] = A[i] + B[i] + 0.0f;
}

int main() {
    const int numElements = 50000;
    size_t size = numElements * sizeof(float);
    std::vector<float> h_A(numElements), h_B(numElements), h_C(numElements);
    for (int i = 0; i < numElements; ++i) {
        h_A[i] = rand() / (float)RAND_MAX;
        h_B[i] = rand() / (float)RAND_MAX;
    }

    float *d_A = NULL, *d_B = NULL, *d_C = NULL;
    CHECK(cudaMalloc((void**)&d_A, size));
    CHECK(cudaMalloc(&d_B, size));
    CHECK(cudaMalloc(&d_C, size));
    CHECK(cudaMemcpy(d_A, h_A.data(), size, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_B, h_B.data(), size, cudaMemcpyHostToDevice));

    int threadsPerBlock = 256;
    int blocksPerGrid = (numElements + threadsPerBlock - 1) / threadsPerBlock;
    printf("CUDA kernel launch with %d blocks of %d threads\n", blocksPerGrid, threadsPerBlock);
    vectorAdd<<<blocksPerGrid, threadsPerBlock>>>(d_A, d_B, d_C, numElements);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_C.data(), d_C, size, cudaMemcpyDeviceToHost));

    for (int i = 0; i < numElements; ++i) {
        if (std::fabs(h_A[i] + h_B[i] - h_C[i]) > 1e-5f) {
            fprintf(stderr, "Result verification failed at element %d!\n", i);
            return EXIT_FAILURE;
        }
    }
    CHECK(cudaFree(d_A));
    CHECK(cudaFree(d_B));
    CHECK(cudaFree(d_C));
    printf("Test PASSED\n");
    return 0;
}
