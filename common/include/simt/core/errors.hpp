// The exceptions simt throws on the host, shared by both backends.
#pragma once
#include <stdexcept>
#include <string>

namespace simt {

/// Base of every error simt reports to the host.
struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// A launch configuration CUDA would refuse (grid, block or shared memory out of range).
/// The message names the limit and the value given, identically in both backends.
struct LaunchError : Error {
    using Error::Error;
};

/// Something went wrong inside a kernel: an exception, a deadlock, a bad warp mask.
/// The message names the thread, the block and, where known, file:line.
struct KernelError : Error {
    using Error::Error;
};

/// An error reported by the CUDA runtime, carrying its message.
struct CudaError : Error {
    using Error::Error;
};

}  // namespace simt
