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
        LaunchRefusal r;
        r.site = site;
        r.shared_bytes = shared_bytes;
        r.device = p.name.c_str();
        if (shared_bytes > p.shared_mem_per_block_optin) {
            r.problem = LaunchRefusal::Problem::shared_past_optin;
            r.shared_limit = p.shared_mem_per_block_optin;
        } else {
            r.problem = LaunchRefusal::Problem::shared_needs_optin;
            r.shared_limit = LaunchLimits::max_shared_bytes;
        }
        fail(cudaErrorInvalidValue, launch_refusal_text(r));
        return false;
    }
    try {
        simt::detail::validate_launch(g.x, g.y, g.z, b.x, b.y, b.z, shared_bytes, shared_optin,
                                      site.file_name(), site.line());
    } catch (const simt::LaunchError& e) {
        // CUDA 13 says cudaErrorInvalidValue for every refused configuration (seen on an
        // H100); older toolkits, and many books, say cudaErrorInvalidConfiguration.
        LaunchRefusal r;
        r.problem = LaunchRefusal::Problem::configuration;
        r.site = site;
        r.configuration = launch_message(e.what());
        fail(cudaErrorInvalidValue, launch_refusal_text(r));
        return false;
    }
    return true;
}

cudaError_t cuda_launch_args(const char* call, dim3 grid, dim3 block, std::size_t shared_bytes,
                             cudaStream_t stream, bool cooperative, bool args_missing,
                             RunThreads run, std::shared_ptr<const void> closure,
                             std::source_location site, const PointerArgs& pointers) {
    if (cudaError_t e = cuda_sticky_error()) return e;
    LaunchRefusal r;
    r.call = call;
    r.site = site;
    if (args_missing) {
        r.problem = LaunchRefusal::Problem::args_missing;
        return cuda_fail(cudaErrorInvalidValue, launch_refusal_text(r));
    }
    bool shared_optin = false;
    if (!cuda_launch_allowed(grid, block, shared_bytes, site, shared_optin)) {
        const cudaError_t why = cudaPeekAtLastError();  // what the refusal recorded
        return why != cudaSuccess ? why : cudaErrorInvalidValue;
    }
    std::uint64_t blocks = std::uint64_t(grid.x) * grid.y * grid.z;
    unsigned threads = block.x * block.y * block.z;
    if (cooperative && blocks > cooperative_grid_limit(threads, shared_bytes)) {
        r.problem = LaunchRefusal::Problem::cooperative_too_large;
        r.blocks = blocks;
        r.resident = cooperative_grid_limit(threads, shared_bytes);
        r.threads = threads;
        r.multiprocessors = device_properties().multi_processor_count;
        r.per_multiprocessor =
            cuda_blocks_per_multiprocessor(static_cast<int>(threads), shared_bytes);
        return cuda_fail(cudaErrorCooperativeLaunchTooLarge, launch_refusal_text(r));
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
    LaunchRefusal r;
    r.problem = LaunchRefusal::Problem::untyped_kernel;
    r.call = call;
    r.site = site;
    return cuda_fail(cudaErrorInvalidDeviceFunction, launch_refusal_text(r));
}

int cuda_blocks_per_multiprocessor(int block_size, std::size_t shared_bytes) {
    if (block_size <= 0) return 0;
    return static_cast<int>(
        blocks_per_multiprocessor(static_cast<unsigned>(block_size), shared_bytes));
}

}  // namespace simt::sim::detail
