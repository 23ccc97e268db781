// What the plain-CUDA device tests share: CHECK around runtime calls, expect() for results, and
// the exit status: 0 with PASS, 1 with the failed checks (a GPU build exits 77, skipped, before
// main where there is no GPU: simt links that check in).
#pragma once
#include <cstdio>
#include <cstdlib>

#include "check_cuda.h"

inline int failures = 0;

// Counts a failed check and names it (the first 20), with the case's index if it has one.
inline void expect(bool ok, const char* what, long long index = -1) {
    if (ok) return;
    if (++failures > 20) return;
    if (index < 0) fprintf(stderr, "FAILED: %s\n", what);
    else fprintf(stderr, "FAILED: %s (case %lld)\n", what, index);
}

// PASS and 0 when every check held.
inline int report() {
    if (failures != 0) {
        fprintf(stderr, "%d checks failed\n", failures);
        return EXIT_FAILURE;
    }
    printf("PASS\n");
    return 0;
}
