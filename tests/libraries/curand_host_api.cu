// cuRAND's host API as a course uses it: a generator fills device arrays with uniforms for a
// Monte Carlo estimate of pi, then with normals; a host generator fills a host array; each call
// gives new numbers, the seed at offset 0 the first ones again. Prints PASS.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>
#include <curand.h>

#define CURAND_CHECK(call)                                                         \
    do {                                                                           \
        curandStatus_t st_ = (call);                                               \
        if (st_ != CURAND_STATUS_SUCCESS) {                                        \
            std::printf("%s:%d: cuRAND error %d\n", __FILE__, __LINE__, int(st_)); \
            std::exit(1);                                                          \
        }                                                                          \
    } while (0)

static int failures = 0;

static void expect(bool ok, const char* what) {
    std::printf("%s: %s\n", ok ? "ok" : "FAILED", what);
    if (!ok) ++failures;
}

__global__ void count_inside(const float* x, const float* y, int n, unsigned* hits) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && x[i] * x[i] + y[i] * y[i] <= 1.0f) atomicAdd(hits, 1u);
}

int main() {
    const int n = 1 << 20;
    float *d_x, *d_y;
    unsigned* d_hits;
    cudaMalloc(&d_x, n * sizeof(float));
    cudaMalloc(&d_y, n * sizeof(float));
    cudaMalloc(&d_hits, sizeof(unsigned));
    cudaMemset(d_hits, 0, sizeof(unsigned));

    curandGenerator_t gen;
    CURAND_CHECK(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT));
    CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(gen, 1234ULL));
    CURAND_CHECK(curandGenerateUniform(gen, d_x, n));
    CURAND_CHECK(curandGenerateUniform(gen, d_y, n));
    count_inside<<<n / 256, 256>>>(d_x, d_y, n, d_hits);
    unsigned hits;
    cudaMemcpy(&hits, d_hits, sizeof hits, cudaMemcpyDeviceToHost);
    double pi = 4.0 * hits / n;
    char text[160];
    // 1,048,576 points: the estimate's standard error is 0.0016.
    std::snprintf(text, sizeof text, "Monte Carlo pi from curandGenerateUniform: %.4f", pi);
    expect(std::fabs(pi - 3.14159265) < 0.008, text);

    std::vector<float> x(n), y(n);
    cudaMemcpy(x.data(), d_x, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(y.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost);
    int outside = 0, same = 0;
    for (int i = 0; i < n; ++i) {
        if (!(x[i] > 0.0f && x[i] <= 1.0f)) ++outside;
        if (x[i] == y[i]) ++same;
    }
    std::snprintf(text, sizeof text,
                  "uniforms in (0, 1] (%d outside), the second call new numbers (%d repeats)",
                  outside, same);
    expect(outside == 0 && same < 100, text);

    // Setting the seed leaves the generator's offset where it was: the same seed alone goes on
    // with new numbers, and the offset set back to 0 replays the first call, as on a GPU.
    std::vector<float> again(n);
    auto generate_again = [&] {
        CURAND_CHECK(curandGenerateUniform(gen, d_y, n));
        cudaMemcpy(again.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost);
    };
    CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(gen, 1234ULL));
    generate_again();
    expect(again != x && again != y, "the same seed alone goes on from the generator's offset");
    CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(gen, 1234ULL));
    CURAND_CHECK(curandSetGeneratorOffset(gen, 0));
    generate_again();
    expect(again == x, "the same seed at offset 0 gives the first numbers again");
    CURAND_CHECK(curandSetGeneratorOffset(gen, n));
    generate_again();
    expect(again == y, "offset n gives the numbers of the second call");

    CURAND_CHECK(curandGenerateNormal(gen, d_x, n, 2.0f, 0.5f));
    cudaMemcpy(x.data(), d_x, n * sizeof(float), cudaMemcpyDeviceToHost);
    double sum = 0, squares = 0;
    for (float v : x) {
        sum += v;
        squares += double(v) * v;
    }
    double mean = sum / n, sd = std::sqrt(squares / n - mean * mean);
    std::snprintf(text, sizeof text,
                  "curandGenerateNormal(mean 2, stddev 0.5): mean %.4f, stddev %.4f", mean, sd);
    expect(std::fabs(mean - 2.0) < 0.005 && std::fabs(sd - 0.5) < 0.005, text);
    expect(curandGenerateNormal(gen, d_x, 1001, 0.0f, 1.0f) == CURAND_STATUS_LENGTH_NOT_MULTIPLE,
           "an odd count of normals is CURAND_STATUS_LENGTH_NOT_MULTIPLE");
    CURAND_CHECK(curandDestroyGenerator(gen));

    curandGenerator_t host_gen;
    CURAND_CHECK(curandCreateGeneratorHost(&host_gen, CURAND_RNG_PSEUDO_PHILOX4_32_10));
    CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(host_gen, 99ULL));
    std::vector<double> h(10000);
    CURAND_CHECK(curandGenerateUniformDouble(host_gen, h.data(), h.size()));
    double h_sum = 0;
    bool in_range = true;
    for (double v : h) {
        h_sum += v;
        in_range = in_range && v > 0.0 && v <= 1.0;
    }
    std::snprintf(text, sizeof text, "a host Philox generator fills host memory: mean %.4f",
                  h_sum / h.size());
    expect(in_range && std::fabs(h_sum / h.size() - 0.5) < 0.01, text);
    CURAND_CHECK(curandDestroyGenerator(host_gen));

    cudaFree(d_x);
    cudaFree(d_y);
    cudaFree(d_hits);
    std::printf(failures == 0 ? "PASS\n" : "FAILED: %d checks\n", failures);
    return failures == 0 ? 0 : 1;
}
