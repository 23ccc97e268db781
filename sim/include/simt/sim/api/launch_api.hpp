// Launches through the runtime API: cudaLaunchKernel, cudaLaunchCooperativeKernel (arguments as
// void* args[], CUDA's signatures) and the occupancy query a cooperative grid is sized with.
//
// The kernel must be passed as itself, so that its parameter types say how to read args[]:
// `cudaLaunchCooperativeKernel(kernel, grid, block, args)`. The `(void*)kernel` that NVIDIA's
// samples write works too: the front end (sim/frontend) drops that cast inside these calls.
// A kernel only known as a `void*` elsewhere cannot be called here
// (cudaErrorInvalidDeviceFunction).
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp> or <cuda_runtime.h>, not the simulator's headers"
#endif
#include <cstddef>
#include <memory>
#include <source_location>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "simt/sim/api/runtime_api.hpp"

// cudaOccupancy*WithFlags' flags, as the toolkit's driver_types.h defines them.
#ifndef cudaOccupancyDefault
#define cudaOccupancyDefault 0x00
#define cudaOccupancyDisableCachingOverride 0x01
#endif

namespace simt::sim::detail {

/// Records `e` as the calling thread's last error and prints `message` (api/error.cpp).
cudaError_t cuda_fail(cudaError_t e, const std::string& message);
/// The sticky error a failed kernel left (cudaSuccess when none), made the last error
/// (api/error.cpp).
cudaError_t cuda_sticky_error();

/// Checks a launch made through void* args[] and queues it; the error CUDA would return.
cudaError_t cuda_launch_args(const char* call, dim3 grid, dim3 block, std::size_t shared_bytes,
                             cudaStream_t stream, bool cooperative, bool args_missing,
                             RunThreads run, std::shared_ptr<const void> closure,
                             std::source_location site, const PointerArgs& pointers = {});
/// A launch given a kernel as `const void*`: launched when the kernel was once named with its
/// type (a `(void*)kernel` in a .cu file, graph.cpp), else refused with how to write it.
cudaError_t cuda_launch_untyped(const char* call, const void* kernel, dim3 grid, dim3 block,
                                void** args, std::size_t shared_bytes, cudaStream_t stream,
                                bool cooperative, std::source_location site);
/// Blocks of `block_size` threads and `shared_bytes` of dynamic shared memory that one
/// multiprocessor of the simulated device holds at once.
int cuda_blocks_per_multiprocessor(int block_size, std::size_t shared_bytes);
/// The dynamic shared memory per block with which `blocks` blocks of `block_size` threads fit on
/// one multiprocessor, capped at what the kernel may have (device/occupancy.cpp); -1 when that
/// many never fit.
long long cuda_available_dynamic_shared(int blocks, int block_size);
/// The simulated device's multiprocessors (cudaDevAttrMultiProcessorCount).
int cuda_multiprocessors();

/// Reads the kernel's arguments out of args[] now, as CUDA copies them at the launch.
template <class... P, std::size_t... I>
std::shared_ptr<const void> closure_from_args(void (*kernel)(P...), void** args,
                                              std::index_sequence<I...>) {
    using C = BoundKernelClosure<P...>;
    return std::make_shared<const C>(C{BoundKernel<P...>{
        kernel, std::tuple<std::decay_t<P>...>(*static_cast<std::decay_t<P>*>(args[I])...)}});
}

template <class... P>
cudaError_t launch_with_args(const char* call, void (*kernel)(P...), dim3 grid, dim3 block,
                             void** args, std::size_t shared_bytes, cudaStream_t stream,
                             bool cooperative, std::source_location site) {
    bool missing = sizeof...(P) != 0 && args == nullptr;
    std::shared_ptr<const void> closure;
    PointerArgs pointers;
    if (!missing) {
        closure = closure_from_args(kernel, args, std::index_sequence_for<P...>{});
        const auto& bound = static_cast<const BoundKernelClosure<P...>*>(closure.get())->call;
        pointers = std::apply([](const auto&... a) { return pointer_args(a...); }, bound.args);
    }
    return cuda_launch_args(call, grid, block, shared_bytes, stream, cooperative, missing,
                            &BoundKernelClosure<P...>::run, std::move(closure), site, pointers);
}

}  // namespace simt::sim::detail

/// Launches `kernel` as kernel<<<grid, block, shared_bytes, stream>>> would, its arguments read
/// from args[i] (a pointer to each, in order).
template <class... P>
cudaError_t cudaLaunchKernel(void (*kernel)(P...), dim3 grid, dim3 block, void** args,
                             std::size_t shared_bytes = 0, cudaStream_t stream = nullptr,
                             std::source_location site = std::source_location::current()) {
    return simt::sim::detail::launch_with_args("cudaLaunchKernel", kernel, grid, block, args,
                                               shared_bytes, stream, false, site);
}

/// Launches `kernel` with every block resident at once, so that it may call grid.sync().
/// In the simulator: a grid larger than the device holds
/// (cudaOccupancyMaxActiveBlocksPerMultiprocessor x cudaDevAttrMultiProcessorCount) returns
/// cudaErrorCooperativeLaunchTooLarge and says so.
template <class... P>
cudaError_t cudaLaunchCooperativeKernel(
    void (*kernel)(P...), dim3 grid, dim3 block, void** args, std::size_t shared_bytes = 0,
    cudaStream_t stream = nullptr, std::source_location site = std::source_location::current()) {
    return simt::sim::detail::launch_with_args("cudaLaunchCooperativeKernel", kernel, grid, block,
                                               args, shared_bytes, stream, true, site);
}

inline cudaError_t cudaLaunchKernel(const void* kernel, dim3 grid, dim3 block, void** args,
                                    std::size_t shared_bytes = 0, cudaStream_t stream = nullptr,
                                    std::source_location site = std::source_location::current()) {
    return simt::sim::detail::cuda_launch_untyped("cudaLaunchKernel", kernel, grid, block, args,
                                                  shared_bytes, stream, false, site);
}

inline cudaError_t cudaLaunchCooperativeKernel(
    const void* kernel, dim3 grid, dim3 block, void** args, std::size_t shared_bytes = 0,
    cudaStream_t stream = nullptr, std::source_location site = std::source_location::current()) {
    return simt::sim::detail::cuda_launch_untyped("cudaLaunchCooperativeKernel", kernel, grid,
                                                  block, args, shared_bytes, stream, true, site);
}

/// How many blocks of `blockSize` threads one multiprocessor holds at once.
/// In the simulator: CUDA's occupancy rule on the simulated GPU (SIMT_DEVICE), with the kernel's
/// registers assumed to be 32 (docs/device.md): 256 threads on an A100 gives 8; 0 when such a
/// block cannot launch (above 48 KiB of dynamic shared memory without opting in included).
template <class T>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, T /*kernel*/,
                                                          int blockSize,
                                                          std::size_t dynamicSMemSize = 0) {
    if (!numBlocks)
        return simt::sim::detail::cuda_fail(
            cudaErrorInvalidValue,
            "cudaOccupancyMaxActiveBlocksPerMultiprocessor: the result pointer is null");
    *numBlocks = simt::sim::detail::cuda_blocks_per_multiprocessor(blockSize, dynamicSMemSize);
    return cudaSuccess;
}

/// cudaOccupancyMaxActiveBlocksPerMultiprocessor with flags (cudaOccupancyDefault or
/// cudaOccupancyDisableCachingOverride, which change nothing here).
template <class T>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, T kernel,
                                                                   int blockSize,
                                                                   std::size_t dynamicSMemSize,
                                                                   unsigned int /*flags*/) {
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, kernel, blockSize,
                                                         dynamicSMemSize);
}

/// The block size with the most threads resident per multiprocessor (the largest such, as CUDA
/// tries sizes from the largest down), and the grid that fills the device with it:
/// `cudaOccupancyMaxPotentialBlockSizeVariableSMem(&grid, &block, kernel, [](int b) { return
/// b * sizeof(float); })`. In the simulator: over the same occupancy rule, registers assumed.
template <class T, class SMemOfBlockSize>
cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(int* minGridSize, int* blockSize,
                                                            T /*kernel*/,
                                                            SMemOfBlockSize smem_of_block_size,
                                                            int blockSizeLimit = 0) {
    if (!minGridSize || !blockSize)
        return simt::sim::detail::cuda_fail(
            cudaErrorInvalidValue, "cudaOccupancyMaxPotentialBlockSize: a result pointer is null");
    int limit = blockSizeLimit > 0 && blockSizeLimit < 1024 ? blockSizeLimit : 1024;
    int best_size = 0, best_blocks = 0, best_threads = 0;
    for (int aligned = (limit + 31) / 32 * 32; aligned > 0; aligned -= 32) {
        int size = aligned < limit ? aligned : limit;
        int blocks = simt::sim::detail::cuda_blocks_per_multiprocessor(
            size, static_cast<std::size_t>(smem_of_block_size(size)));
        if (size * blocks > best_threads)
            best_size = size, best_blocks = blocks, best_threads = size * blocks;
    }
    *blockSize = best_size;
    *minGridSize = best_blocks * simt::sim::detail::cuda_multiprocessors();
    return cudaSuccess;
}

/// cudaOccupancyMaxPotentialBlockSizeVariableSMem with the same dynamic shared memory for every
/// block size: `cudaOccupancyMaxPotentialBlockSize(&grid, &block, kernel)` gives block 1024 and
/// grid 216 on an A100 (2 blocks x 108 SMs).
template <class T>
cudaError_t cudaOccupancyMaxPotentialBlockSize(int* minGridSize, int* blockSize, T kernel,
                                               std::size_t dynamicSMemSize = 0,
                                               int blockSizeLimit = 0) {
    return cudaOccupancyMaxPotentialBlockSizeVariableSMem(
        minGridSize, blockSize, kernel, [dynamicSMemSize](int) { return dynamicSMemSize; },
        blockSizeLimit);
}

/// The dynamic shared memory each block may have so that `numBlocks` blocks of `blockSize`
/// threads are resident on one multiprocessor at once. In the simulator: the simulated GPU's
/// shared memory per SM, less the reserved 1 KiB per block, in its allocation units, capped at
/// the kernel's limit (48 KiB unless cudaFuncSetAttribute raised it); cudaErrorInvalidValue when
/// that many blocks never fit.
template <class T>
cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(std::size_t* dynamicSmemSize, T /*kernel*/,
                                                      int numBlocks, int blockSize) {
    if (!dynamicSmemSize)
        return simt::sim::detail::cuda_fail(
            cudaErrorInvalidValue,
            "cudaOccupancyAvailableDynamicSMemPerBlock: the result pointer is null");
    long long bytes = simt::sim::detail::cuda_available_dynamic_shared(numBlocks, blockSize);
    if (bytes < 0)
        return simt::sim::detail::cuda_fail(
            cudaErrorInvalidValue,
            "cudaOccupancyAvailableDynamicSMemPerBlock: " + std::to_string(numBlocks) +
                " blocks of " + std::to_string(blockSize) +
                " threads never fit on one multiprocessor of the simulated device");
    *dynamicSmemSize = static_cast<std::size_t>(bytes);
    return cudaSuccess;
}
