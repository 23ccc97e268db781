// simt::LaunchOptions: the optional part of a launch, the same in both backends.
#pragma once
#include <cstddef>

namespace simt {

class Stream;

/// The optional part of a launch: dynamic shared memory, the stream, and the opt-in to more than
/// 48 KiB of shared memory per block (cudaFuncAttributeMaxDynamicSharedMemorySize).
struct LaunchOptions {
    std::size_t shared_bytes = 0;
    const Stream* stream = nullptr;
    bool shared_optin = false;
};

}  // namespace simt
