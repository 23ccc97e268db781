// cudaStreamWaitEvent waits for the event's record made before it, as CUDA says: for nothing if
// none was, never for a record the host makes later. And launches from several host threads
// onto one stream. Checked launches run in the order they were queued, so a wait that reached
// forward to a later record, or a queue out of that order, would hang; each form prints "done".
#include <cstdio>
#include <cstring>
#include <thread>

__global__ void busy(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = 0;
    for (int k = 0; k < 200; ++k) x += in[(i + k) & 4095];
    out[i] = x;
}

__global__ void mark(int* p, int value) { p[threadIdx.x] = value; }

int main(int argc, char** argv) {
    const char* which = argc > 1 ? argv[1] : "";
    auto is = [&](const char* name) { return std::strcmp(which, name) == 0; };
    cudaStream_t a, b;
    cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking);
    float *f, *g;
    int *x, *y;
    cudaMalloc(&f, 4096 * sizeof(float));
    cudaMalloc(&g, 4096 * sizeof(float));
    cudaMalloc(&x, 32 * sizeof(int));
    cudaMalloc(&y, 32 * sizeof(int));
    cudaMemset(f, 0, 4096 * sizeof(float));
    cudaEvent_t e;
    cudaEventCreate(&e);
    if (is("record-after-wait")) {
        busy<<<16, 256, 0, a>>>(f, g);  // keeps stream a busy
        cudaStreamWaitEvent(a, e, 0);  // e not recorded yet: waits for nothing
        mark<<<1, 32, 0, a>>>(x, 1);
        mark<<<1, 32, 0, b>>>(y, 2);
        cudaEventRecord(e, b);         // a later record, which a's wait is not for
    } else if (is("re-recorded")) {
        for (int i = 0; i < 4; ++i) {
            cudaEventRecord(e, b);
            cudaStreamWaitEvent(a, e, 0);  // for this record, not the next one
            busy<<<16, 256, 0, a>>>(f, g);
            mark<<<1, 32, 0, b>>>(y, i);
            cudaStreamSynchronize(b);
        }
    } else if (is("two-host-threads")) {
        auto launch_many = [&](int* out) {
            for (int i = 0; i < 50; ++i) mark<<<1, 32>>>(out, i);
        };
        std::thread one(launch_many, x), two(launch_many, y);
        one.join();
        two.join();
    } else {
        std::printf("usage: event_waits record-after-wait|re-recorded|two-host-threads\n");
        return 2;
    }
    std::printf("%s: %s\n", which, cudaGetErrorName(cudaDeviceSynchronize()));
    cudaEventDestroy(e);
    cudaStreamDestroy(a);
    cudaStreamDestroy(b);
    cudaFree(f);
    cudaFree(g);
    cudaFree(x);
    cudaFree(y);
    return 0;
}
