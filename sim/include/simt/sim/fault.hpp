// CUDA's ways for a kernel to stop itself: __trap() here; assert() is the C library's own macro,
// whose failure function the simulator defines (sim/src/thread/fault.cpp).
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif

/// Ends the kernel: the launch fails with cudaErrorLaunchFailure ("unspecified launch failure"),
/// as on a GPU, and simt names the thread, the block and the line.
[[noreturn]] void __trap();
