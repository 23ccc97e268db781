// The CUDA runtime as simt sees it: errors become simt::CudaError, and no device means skip.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the CUDA backend's headers"
#endif
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "simt/core/errors.hpp"

namespace simt::cuda::detail {

/// The exit code ctest reads as "skipped" (SKIP_RETURN_CODE): a GPU build with no GPU to run on.
inline constexpr int skip_exit_code = 77;

/// Errors that come from a kernel having failed on the device, not from the call that saw them.
inline bool is_kernel_fault(cudaError_t e) {
    switch (e) {
        case cudaErrorIllegalAddress:
        case cudaErrorLaunchFailure:
        case cudaErrorAssert:
        case cudaErrorIllegalInstruction:
        case cudaErrorMisalignedAddress:
        case cudaErrorInvalidAddressSpace:
        case cudaErrorInvalidPc:
        case cudaErrorHardwareStackError:
        case cudaErrorLaunchTimeout:
            return true;
        default:
            return false;
    }
}

/// Throws CudaError for anything but cudaSuccess, naming the call and the runtime's message.
/// A fault from a kernel gets the hint a learner needs: the GPU does not say which thread.
inline void check(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return;
    // The runtime keeps a failed call's error as the last error too, and successful calls leave
    // it there: a later launch's cudaGetLastError would report it again as its own. This error
    // is reported here, so it is taken off (a kernel fault stays: it is sticky).
    (void)cudaGetLastError();
    std::string msg = std::string("simt: ") + what + " failed: " + cudaGetErrorName(e) + ": " +
                      cudaGetErrorString(e);
    if (is_kernel_fault(e))
        msg += ". A kernel failed on the GPU; the device is unusable until the program restarts. "
               "To find the thread, block and line, run the simulator build of this program, "
               "or this one under compute-sanitizer (or rebuild with SIMT_CUDA_BOUNDS_CHECK)";
    throw CudaError(msg);
}

/// The device count, or the reason there is none (a missing driver reads as no device).
inline int device_count(cudaError_t* why = nullptr) {
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (why) *why = e;
    return e == cudaSuccess ? n : 0;
}

/// Called before the first use of the GPU. With no device there is nothing a GPU build can
/// run, so it says so and exits with the skip code instead of failing with a runtime error.
inline void require_device() {
    static const bool present = [] {
        cudaError_t why = cudaSuccess;
        if (device_count(&why) > 0) return true;
        std::fflush(stdout);
        std::fprintf(stderr,
                     "simt: no CUDA device found (%s). This is the GPU build of the program; "
                     "run its simulator build (the name without _cuda) on this machine. "
                     "Exiting with code %d (skipped).\n",
                     why == cudaSuccess ? "the runtime lists 0 devices" : cudaGetErrorString(why),
                     skip_exit_code);
        std::exit(skip_exit_code);
    }();
    (void)present;
}

}  // namespace simt::cuda::detail
