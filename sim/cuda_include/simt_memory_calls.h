// memcpy, memmove and memset in a checked simulator build: the same functions under simt's names.
//
// The compiler's instrumentation sees loads and stores, not the library's copy functions, so a
// kernel's memcpy into device memory (or the host's, out of it) would go unchecked. Declared here
// first, before any C library header, with an assembler name, every call of these three in the
// .cu goes to simt_memcpy and friends (sim/src/check/raw_access.cpp), which check the ranges as
// one access each and then call the C library. cmake/simt.cmake compiles checked sources with
// -fno-builtin-memcpy (and memmove, memset) so that the compiler makes the call instead of
// copying inline. Included by <cuda_runtime.h>, which the front end puts first in every .cu.
#pragma once
#if defined(SIMT_RAW_CHECKS) && !defined(__CUDACC__)
#include <stddef.h>

extern "C" {
void* memcpy(void* __restrict dst, const void* __restrict src, size_t n) noexcept
    __asm__("simt_memcpy");
void* memmove(void* dst, const void* src, size_t n) noexcept __asm__("simt_memmove");
void* memset(void* dst, int value, size_t n) noexcept __asm__("simt_memset");
}
#endif
