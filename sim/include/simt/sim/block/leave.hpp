// Where a running thread or an idle fiber gives up its fiber on the usual paths (__syncthreads(),
// the end of a block's threads): the simulator decides what runs next, and the switch itself is
// called from the code that gives the fiber up, inlined there, not from inside the simulator.
// A fiber then resumes in that code, where it stopped, with no return left between the switch
// and the kernel: such a return, after a switch from another fiber's calls, is one the
// processor mispredicts (sim/src/fiber/fiber_switch.cpp says how the switch itself returns).
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif

/// simt's own fiber switch (sim/src/fiber/fiber_switch.cpp): saves the running fiber's stack
/// pointer at `save` and resumes the fiber whose stack pointer is `resume`.
extern "C" void simt_fiber_switch(void** save, void* resume);

namespace simt::sim::detail {

/// A switch the simulator decided and the caller makes: `resume` is null when there is none to
/// make (the fiber keeps running, or the simulator switched already, as with Boost's fibers).
struct FiberLeave {
    void** save = nullptr;
    void* resume = nullptr;
};

/// After any switch that resumes a thread (the caller's or the simulator's own): ends the thread if
/// its block was abandoned meanwhile.
void after_resume();

/// A waiting thread gives up its fiber: makes the switch `l`, if there is one to make, and once
/// the thread resumes, the abort test.
[[gnu::always_inline]] inline void wait_by(FiberLeave l) {
    if (l.resume) {
        simt_fiber_switch(l.save, l.resume);
        after_resume();
    }
}

}  // namespace simt::sim::detail
