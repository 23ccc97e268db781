// Lesson 10, the libraries: the same sum with Thrust, which ships with the CUDA toolkit, and
// with cuBLAS, NVIDIA's BLAS. A library's reduction is tuned for each GPU; reach for it before
// writing the ladder yourself. Run it with `./lab run lessons/10_reduction/libraries.cu`.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <thrust/device_vector.h>
#include <thrust/extrema.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t err_ = (call);                                                       \
        if (err_ != cudaSuccess) {                                                       \
            std::fprintf(stderr, "%s:%d: %s (%s)\n", __FILE__, __LINE__,                 \
                         cudaGetErrorString(err_), cudaGetErrorName(err_));              \
            std::exit(EXIT_FAILURE);                                                     \
        }                                                                                \
    } while (0)

#define CUBLAS_CHECK(call)                                                               \
    do {                                                                                 \
        cublasStatus_t st_ = (call);                                                     \
        if (st_ != CUBLAS_STATUS_SUCCESS) {                                              \
            std::fprintf(stderr, "%s:%d: cuBLAS status %d\n", __FILE__, __LINE__, int(st_)); \
            std::exit(EXIT_FAILURE);                                                     \
        }                                                                                \
    } while (0)

int main() {
    const int n = 1 << 17;
    std::vector<float> host(n);
    for (int i = 0; i < n; ++i) host[i] = static_cast<float>(i % 10);  // sums stay exact in float
    double expect = 0;
    for (float v : host) expect += v;

    // Thrust: a device_vector is device memory that knows its size; reduce runs a tree on it.
    thrust::device_vector<float> d(host.begin(), host.end());
    float sum = thrust::reduce(d.begin(), d.end(), 0.0f, thrust::plus<float>());
    float largest = *thrust::max_element(d.begin(), d.end());  // copies one float back

    // cuBLAS has no plain sum. Sasum sums absolute values, the same here; a dot product with a
    // vector of ones is the sum of anything. cuBLAS takes raw device pointers and a handle.
    cublasHandle_t handle;
    CUBLAS_CHECK(cublasCreate(&handle));
    thrust::device_vector<float> ones(n, 1.0f);
    float dot = 0;
    CUBLAS_CHECK(cublasSdot(handle, n, thrust::raw_pointer_cast(d.data()), 1,
                            thrust::raw_pointer_cast(ones.data()), 1, &dot));
    CUBLAS_CHECK(cublasDestroy(handle));

    std::printf("-- the sum of %d floats: %.1f on the CPU\n", n, expect);
    std::printf("thrust::reduce        %12.1f  (max_element %.1f)\n", sum, largest);
    std::printf("cublasSdot with ones  %12.1f\n", dot);
    bool ok = sum == expect && dot == expect && largest == 9.0f;
    std::printf("checksum %.1f\n", sum);
    if (!ok) {
        std::printf("FAILED: a library's sum differs from the CPU's\n");
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
