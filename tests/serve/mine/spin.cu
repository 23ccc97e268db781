// A program that never ends, served as the playground's own folder (tests/serve/serve_test.mjs,
// tests/playground/check_playground.mjs): its kernel spins on a flag nobody sets, so run
// unchecked only Stop, the time limits or the server's death end it. (Checked, the simulator sees
// that nothing can set the flag and reports the spin as a deadlock.)
#include <cstdio>

__global__ void spin(volatile int* flag) {
    while (flag[0] == 0) {
    }
}

int main() {
    int* flag;
    cudaMalloc(&flag, sizeof(int));
    cudaMemset(flag, 0, sizeof(int));
    printf("spinning\n");
    fflush(stdout);
    spin<<<1, 1>>>(flag);
    cudaDeviceSynchronize();
    printf("never printed\n");
    return 0;
}
