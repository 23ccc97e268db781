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
#include "simt/sim/launch/stream.hpp"
#include "simt/sim/location.hpp"
#include "simt/sim/vector_types.hpp"

namespace simt::sim::detail {

/// A launch's arguments that are pointers (the first eight), kept to tell a kernel's access to
/// host memory, which a GPU faults on, from its own stack and the simulator's memory
/// (memory/host_pointers.cpp).
struct PointerArgs {
    static constexpr unsigned capacity = 8;
    const void* value[capacity] = {};
    unsigned char position[capacity] = {};  ///< the argument's place in the call, from 0
    unsigned count = 0;
};

/// The pointer arguments among `args`, in order.
template <class... A>
PointerArgs pointer_args(const A&... args) {
    PointerArgs out;
    unsigned position = 0;
    auto note = [&](const auto& a) {
        using T = std::decay_t<decltype(a)>;
        if constexpr (std::is_pointer_v<T> && !std::is_function_v<std::remove_pointer_t<T>>) {
            if (out.count < PointerArgs::capacity) {
                out.value[out.count] =
                    const_cast<const void*>(static_cast<const volatile void*>(a));
                out.position[out.count++] = static_cast<unsigned char>(position);
            }
        }
        ++position;
    };
    (note(args), ...);
    return out;
}

/// A launch as the simulator queues it: the configuration and a type-erased kernel call.
struct KernelLaunch {
    dim3 grid, block;
    std::size_t shared_bytes = 0;
    bool shared_optin = false;
    RunThreads run = nullptr;
    std::shared_ptr<const void> closure;
    Loc site;
    /// The launch's place in the process's launch order, from 1: its identity once queued
    /// (launch/stream.cpp); what happens before it is racecheck's to know (check/order.cpp).
    std::uint32_t serial = 0;
    unsigned stream = 0;              ///< the ordering id of the stream it was queued on
    bool cooperative = false;         ///< cudaLaunchCooperativeKernel: every block resident at once
    PointerArgs pointers;  ///< the kernel's pointer arguments, where the launch knows them
    int device = 0;                   ///< the simulated device it runs on (its stream's)
    std::uint32_t graph_launch = 0;   ///< the cudaGraphLaunch it is a node of (from 1); 0: none
};
/// A kernel and the launch's arguments, copied when the launch is made (as CUDA copies them): the
/// call that simt::launch, cudaLaunchKernel and a graph's kernel node make.
template <class... P>
struct BoundKernel {
    void (*kernel)(P...);
    std::tuple<std::decay_t<P>...> args;
    void operator()() const { std::apply(kernel, args); }
};

/// KernelClosure::run is flattened where it is optimised: GCC's inliner would otherwise leave a
/// kernel with a barrier out of the thread loop, where each thread's call and return cost more
/// than its body's instructions: the return, after a thread has resumed on another fiber's
/// switch, is one the processor mispredicts (fiber_switch.cpp). One worker, best of 5: transpose
/// 46.1 -> 40.0 ns a thread, tree reduction 92.8 -> 83.0. An instrumented kernel is still
/// called: GCC does not inline it into the uninstrumented loop. Not without optimisation, nor
/// under AddressSanitizer, where the locals of every call inlined keep places of their own: the
/// frame is then the sum of the kernel's calls (Thrust's sort, inlined whole, passed the 64 KiB
/// of a fiber's stack).
#if defined(__OPTIMIZE__) && !defined(__SANITIZE_ADDRESS__)
#define SIMT_FLATTEN [[gnu::flatten]]
#else
#define SIMT_FLATTEN
#endif

/// The one type-erased kernel call a launch carries: `run` starts the block's unstarted threads,
/// each calling `call` (thread_loop.hpp). `call` is a BoundKernel, or for a <<<>>> launch the
/// front end's lambda, whose kernel the thread loop can inline.
template <class F>
struct KernelClosure {
    F call;
    /// Flattened, as HIP-CPU flattens its tile function (SIMT_FLATTEN, above).
    SIMT_FLATTEN static void run(const void* self, LazyThreads& block) {
        run_threads(static_cast<const KernelClosure*>(self)->call, block, {self, &run});
    }
};
template <class... P>
using BoundKernelClosure = KernelClosure<BoundKernel<P...>>;

/// The one way a launch record is made, by every route to a kernel: simt::launch, <<<>>>,
/// cudaLaunchKernel and cudaLaunchCooperativeKernel, and a graph's kernel node. What is queued
/// with it (its order, stream, device, graph launch) is set where it is queued.
inline KernelLaunch make_launch(dim3 grid, dim3 block, std::size_t shared_bytes, bool shared_optin,
                                RunThreads run, std::shared_ptr<const void> closure, Loc site,
                                const PointerArgs& pointers = {}, bool cooperative = false) {
    KernelLaunch k{grid, block, shared_bytes, shared_optin, run, std::move(closure), site};
    k.pointers = pointers;
    k.cooperative = cooperative;
    return k;
}
/// make_launch for a kernel call not yet type-erased (any `call` KernelClosure can hold).
template <class F>
KernelLaunch make_launch(dim3 grid, dim3 block, std::size_t shared_bytes, bool shared_optin,
                         F&& call, Loc site, const PointerArgs& pointers = {}) {
    using C = KernelClosure<std::decay_t<F>>;
    return make_launch(grid, block, shared_bytes, shared_optin, &C::run,
                       std::make_shared<const C>(C{std::forward<F>(call)}), site, pointers);
}
void enqueue_launch(const Stream* s, KernelLaunch k);
/// Throws LaunchError when `shared_bytes` is more than the simulated GPU lets a block opt into
/// (device/model.cpp): simt::launch's own check knows only the largest of any GPU.
void check_shared_optin(std::size_t shared_bytes, Loc site);

/// What simt::launch asks of the simulator: queue the call, and wait for a stream.
struct LaunchPolicy {
    using dim3 = ::dim3;

    template <class... P>
    static void enqueue(void (*kernel)(P...), dim3 grid, dim3 block, const LaunchOptions& o,
                        Loc site, std::tuple<std::decay_t<P>...>&& args) {
        PointerArgs pointers =
            std::apply([](const auto&... a) { return pointer_args(a...); }, args);
        if (o.shared_optin) check_shared_optin(o.shared_bytes, site);
        enqueue_launch(o.stream, make_launch(grid, block, o.shared_bytes, o.shared_optin,
                                             BoundKernel<P...>{kernel, std::move(args)}, site,
                                             pointers));
    }
    static void wait(const Stream* s) { (s ? *s : Stream::default_stream()).synchronize(); }
};

}  // namespace simt::sim::detail
