// The launch checks every <<<>>> launch passes (cuda_launch_allowed), then cudaLaunchKernel and
// cudaLaunchCooperativeKernel: the checks CUDA makes, then the launch queued.
#include "cuda_api.hpp"
#include "../launch/cooperative.hpp"
#include "../report/text.hpp"

namespace simt::sim::detail {

bool cuda_launch_allowed(dim3 g, dim3 b, std::size_t shared_bytes, std::source_location site,
                         bool& shared_optin) {
    if (sticky()) return false;
    shared_optin = shared_bytes > LaunchLimits::max_shared_bytes &&
                   shared_bytes <= dynamic_shared_optin();
    if (shared_bytes > LaunchLimits::max_shared_bytes && !shared_optin) {
        const simt::DeviceProperties p = simt::device_properties();
        if (shared_bytes > p.shared_mem_per_block_optin)
            fail(cudaErrorInvalidValue,
                 "launch refused at " + where(site) + ": " + std::to_string(shared_bytes) +
                     " bytes of dynamic shared memory per block are more than a block of the "
                     "simulated " + p.name + " may have even after opting in (" +
                     std::to_string(p.shared_mem_per_block_optin) + ", "
                     "cudaDevAttrMaxSharedMemoryPerBlockOptin); the kernel did not run "
                     "(cudaGetLastError() returns cudaErrorInvalidValue)");
        else fail(cudaErrorInvalidValue,
             "launch refused at " + where(site) + ": " + std::to_string(shared_bytes) +
                 " bytes of dynamic shared memory per block exceed the " +
                 std::to_string(LaunchLimits::max_shared_bytes) + " bytes a kernel gets without "
                 "opting in; call cudaFuncSetAttribute(kernel, "
                 "cudaFuncAttributeMaxDynamicSharedMemorySize, " + std::to_string(shared_bytes) +
                 ") before the launch (the kernel did not run; cudaGetLastError() returns "
                 "cudaErrorInvalidValue)");
        return false;
    }
    try {
        simt::detail::validate_launch(g.x, g.y, g.z, b.x, b.y, b.z, shared_bytes, shared_optin,
                                      site.file_name(), site.line());
    } catch (const simt::LaunchError& e) {
        // CUDA 13 says cudaErrorInvalidValue for every refused configuration (seen on an
        // H100); older toolkits, and many books, say cudaErrorInvalidConfiguration.
        fail(cudaErrorInvalidValue,
             launch_message(e.what()) +
                 "; the kernel did not run (cudaGetLastError() returns cudaErrorInvalidValue)");
        return false;
    }
    return true;
}

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
