// The simulator's launch policy: a launch becomes a type-erased kernel call queued on a stream.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include <cstddef>
#include <cstdint>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "simt/core/launch_options.hpp"
#include "simt/sim/block/thread_loop.hpp"
#include "simt/sim/host/stream.hpp"
#include "simt/sim/location.hpp"
#include "simt/sim/vector_types.hpp"

namespace simt::sim::detail {

/// Runs the block's unstarted threads, each calling the kernel (thread_loop.hpp).
using RunThreads = void (*)(const void* closure, LazyThreads& block);

/// A launch as the simulator queues it: the configuration and a type-erased kernel call.
struct KernelLaunch {
    dim3 grid, block;
    std::size_t shared_bytes = 0;
    bool shared_optin = false;
    RunThreads run = nullptr;
    std::shared_ptr<const void> closure;
    Loc site;
    std::uint32_t serial = 0;         ///< place in the process's launch order (set when queued)
    unsigned stream = 0;              ///< the ordering id of the stream it was queued on
    std::vector<std::uint32_t> hb;    ///< per stream, the last launch that happens before this one
    bool cooperative = false;         ///< cudaLaunchCooperativeKernel: every block resident at once
};
void enqueue_launch(const Stream* s, KernelLaunch k);

template <class... P>
struct Closure {
    void (*kernel)(P...);
    std::tuple<std::decay_t<P>...> args;
    static void run(const void* self, LazyThreads& block) {
        auto& c = *static_cast<const Closure*>(self);
        run_threads([&c] { std::apply(c.kernel, c.args); }, block);
    }
};

/// What simt::launch asks of the simulator: queue the call, and wait for a stream.
struct LaunchPolicy {
    using dim3 = ::dim3;

    template <class... P>
    static void enqueue(void (*kernel)(P...), dim3 grid, dim3 block, const LaunchOptions& o,
                        Loc site, std::tuple<std::decay_t<P>...>&& args) {
        auto closure = std::make_shared<Closure<P...>>(Closure<P...>{kernel, std::move(args)});
        enqueue_launch(o.stream, KernelLaunch{grid, block, o.shared_bytes, o.shared_optin,
                                              &Closure<P...>::run, std::move(closure), site});
    }
    static void wait(const Stream* s) { (s ? *s : Stream::default_stream()).synchronize(); }
};

}  // namespace simt::sim::detail
