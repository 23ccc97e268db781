// One fiber and its stack, and how a worker switches between fibers (fiber_switch.cpp; Boost's
// fiber where simt's own switch is not used).
#pragma once
#include <boost/context/fiber.hpp>
#include <cstddef>

namespace simt::sim::detail {

// How a worker switches between fibers (fiber/fiber_switch.cpp). On x86-64 Linux simt switches
// itself: six callee-saved registers, then a `ret` where the fiber it resumes stopped at the
// same call (every thread at one __syncthreads), which the return-address predictor gets right,
// and a jump elsewhere. The usual switches are made in the code that gives up the fiber (the
// kernel's __syncthreads(), the thread loop: simt/sim/block/leave.hpp), so that no return is
// left between a switch and the kernel. Boost.Context's switch always returns with an indirect
// jump and saves the x87 and SSE control words besides: 28 ns against 6 ns per switch,
// measured (docs/simulator.md). Elsewhere, and in AddressSanitizer builds (Boost's ucontext
// backend tells ASan about each switch), Boost's fiber.
#if defined(__x86_64__) && defined(__linux__) && !defined(BOOST_USE_UCONTEXT)
#define SIMT_OWN_FIBER_SWITCH 1
#else
#define SIMT_OWN_FIBER_SWITCH 0
#endif

/// One fiber and its stack. While it is not running, `sp` (simt's switch) or `cont` (Boost's)
/// holds where it stopped.
struct FiberSlot {
#if SIMT_OWN_FIBER_SWITCH
    void* sp = nullptr;
    boost::context::stack_context stack{};  ///< from Boost's guarded allocator; empty for `main`
    void (*entry)(FiberSlot*) = nullptr;    ///< what the fiber runs from its first switch
    FiberSlot() = default;
    FiberSlot(const FiberSlot&) = delete;
    FiberSlot& operator=(const FiberSlot&) = delete;
    ~FiberSlot();
#else
    boost::context::fiber cont;
#endif
    std::byte* guard_lo = nullptr;  ///< lowest byte of the guard page below the stack
    std::byte* stack_hi = nullptr;  ///< where the fiber's stack starts (below the colour, if any)
    bool slab =
        false;  ///< a stack of a slab, with a canary instead of a guard page (fiber_switch.cpp)
};

#if SIMT_OWN_FIBER_SWITCH
/// Saves the running fiber's registers on its stack and its stack pointer in `*save`, and
/// continues the fiber whose stack pointer is `load` (fiber/fiber_switch.cpp).
extern "C" void simt_fiber_switch(void** save, void* load);
/// A stack for `slot` of at least `bytes` (with a guard page below, or from a slab with a canary
/// at its bottom), its top coloured (fiber_switch.cpp), set to call `entry(&slot)` at the first
/// switch to it. `entry` never returns: a fiber ends only by being destroyed idle.
void make_fiber_stack(FiberSlot& slot, std::size_t bytes, void (*entry)(FiberSlot*),
                      bool slab = false);
#endif
/// False when a slab stack's canary was overwritten since the last call (which re-arms it): the
/// fiber ran past its stack.
bool stack_intact(FiberSlot& slot);
/// A stack of `bytes` from a slab, its lowest bytes a canary; its lowest address.
std::byte* slab_stack_allocate(std::size_t bytes);
void slab_stack_free(std::byte* lo, std::size_t bytes);
#if SIMT_OWN_FIBER_SWITCH
/// Sets `slot`'s stack to start its fiber loop afresh at the next switch to it: what is on the
/// stack below its top 64 bytes is abandoned, never unwound.
void restart_fiber(FiberSlot& slot);
#endif

}  // namespace simt::sim::detail
