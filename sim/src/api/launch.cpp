// cudaLaunchKernel and cudaLaunchCooperativeKernel: the checks CUDA makes, then the launch queued.
#include "../process/process.hpp"

namespace simt::sim::detail {

cudaError_t cuda_launch_args(const char* call, dim3 grid, dim3 block, std::size_t shared_bytes,
                             cudaStream_t stream, bool cooperative, bool args_missing,
                             RunThreads run, std::shared_ptr<const void> closure,
                             std::source_location site, const PointerArgs& pointers) {
    if (cudaError_t e = cuda_sticky_error()) return e;
    if (args_missing)
        return cuda_fail(cudaErrorInvalidValue,
                         std::string(call) + " at " + where(site) +
                             ": args is null, but the kernel "
                             "takes parameters; pass an array with a pointer to each argument");
    bool shared_optin = false;
    if (!cuda_launch_allowed(grid, block, shared_bytes, site, shared_optin)) {
        const cudaError_t why = cudaPeekAtLastError();  // what the refusal recorded
        return why != cudaSuccess ? why : cudaErrorInvalidValue;
    }
    std::uint64_t blocks = std::uint64_t(grid.x) * grid.y * grid.z;
    unsigned threads = block.x * block.y * block.z;
    if (cooperative && blocks > cooperative_grid_limit(threads, shared_bytes)) {
        std::uint64_t limit = cooperative_grid_limit(threads, shared_bytes);
        return cuda_fail(
            cudaErrorCooperativeLaunchTooLarge,
            std::string(call) + " at " + where(site) + ": a cooperative grid of " +
                std::to_string(blocks) + " blocks cannot be resident at once; this device holds " +
                std::to_string(limit) + " blocks of " + std::to_string(threads) + " threads (" +
                std::to_string(device_properties().multi_processor_count) + " multiprocessors x " +
                std::to_string(
                    cuda_blocks_per_multiprocessor(static_cast<int>(threads), shared_bytes)) +
                ", as cudaOccupancyMaxActiveBlocksPerMultiprocessor reports); the kernel did not "
                "run (cudaErrorCooperativeLaunchTooLarge). Size the grid from those two numbers "
                "and let each thread loop over the data");
    }
    enqueue_launch(cuda_stream(stream), make_launch(grid, block, shared_bytes, shared_optin, run,
                                                    std::move(closure), site, pointers,
                                                    cooperative));
    return cudaSuccess;
}

cudaError_t cuda_launch_untyped(const char* call, const void* kernel, dim3 grid, dim3 block,
                                void** args, std::size_t shared_bytes, cudaStream_t stream,
                                bool cooperative, std::source_location site) {
    if (std::optional<KernelFunction> f = remembered_kernel(kernel)) {
        bool missing = f->parameters != 0 && args == nullptr;
        std::shared_ptr<const void> closure;
        if (!missing) closure = f->closure(f->address, args);
        return cuda_launch_args(call, grid, block, shared_bytes, stream, cooperative, missing,
                                f->run, std::move(closure), site);
    }
    return cuda_fail(
        cudaErrorInvalidDeviceFunction,
        std::string(call) + " at " + where(site) +
            ": the kernel was given as a void* that was never made from the kernel in a .cu "
            "file, so the simulator cannot tell its parameter types to read args with; write "
            "(void*)kernel in the .cu file that defines the kernel");
}

int cuda_blocks_per_multiprocessor(int block_size, std::size_t shared_bytes) {
    if (block_size <= 0) return 0;
    return static_cast<int>(
        blocks_per_multiprocessor(static_cast<unsigned>(block_size), shared_bytes));
}

}  // namespace simt::sim::detail
