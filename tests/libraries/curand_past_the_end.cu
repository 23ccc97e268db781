// Broken: the array holds 1000 floats, but the call asks for 1024 numbers. On a GPU the
// generator writes past the allocation; the simulator names the call that did.
#include <cstdio>

#include <cuda_runtime.h>
#include <curand.h>

int main() {
    const int n = 1000;
    float* d_noise;
    cudaMalloc(&d_noise, n * sizeof(float));
    curandGenerator_t gen;
    curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT);
    curandSetPseudoRandomGeneratorSeed(gen, 1234ULL);
    curandGenerateUniform(gen, d_noise, 1024);  // BUG: n is 1000
    cudaDeviceSynchronize();
    std::printf("generated\n");
    curandDestroyGenerator(gen);
    cudaFree(d_noise);
    return 0;
}
