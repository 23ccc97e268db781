// simt's own fiber switch on x86-64 Linux (runtime.hpp says why it is not Boost.Context's).
//
// A suspended fiber's stack ends in the frame simt_fiber_switch pushed: r15, r14, r13, r12, rbx,
// rbp and the return address into the code that called the switch. A new fiber's stack is made
// to look the same, with simt_fiber_start as the return address and the fiber's slot and entry
// function in r12 and r13. The x87 and SSE control words are not switched: every fiber of a
// worker runs with the rounding mode the worker started with (a kernel that changes it with
// fesetround changes it for the block's other threads too).
#include "../runtime.hpp"

#if SIMT_OWN_FIBER_SWITCH
#include <boost/context/protected_fixedsize_stack.hpp>

asm(R"(
    .text
    .globl simt_fiber_switch
    .type simt_fiber_switch, @function
    .p2align 4
simt_fiber_switch:
    .cfi_startproc
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .cfi_endproc
    .size simt_fiber_switch, .-simt_fiber_switch

    .globl simt_fiber_start
    .type simt_fiber_start, @function
    .p2align 4
simt_fiber_start:
    .cfi_startproc
    .cfi_undefined rip
    subq $8, %rsp
    movq %r12, %rdi
    call *%r13
    ud2
    .cfi_endproc
    .size simt_fiber_start, .-simt_fiber_start
)");

extern "C" void simt_fiber_start();

namespace simt::sim::detail {

namespace {

/// What a fiber runs: threads of the running block, then a wait in the idle pool, forever.
void fiber_main(FiberSlot* self) {
    Worker& w = *tls_worker;
    for (;;) {
        w.run_lazy();
        w.park(self);
    }
}

}  // namespace

void make_fiber_stack(FiberSlot& slot, std::size_t bytes) {
    slot.stack = boost::context::protected_fixedsize_stack(bytes).allocate();
    slot.stack_hi = static_cast<std::byte*>(slot.stack.sp);
    slot.guard_lo = slot.stack_hi - slot.stack.size;
    restart_fiber(slot);
}

void restart_fiber(FiberSlot& slot) {
    // The first switch pops the six registers and returns into simt_fiber_start with the stack
    // pointer 8 bytes below the (16-aligned) top, as a called function expects it.
    void** frame = static_cast<void**>(slot.stack.sp) - 8;
    void (*entry)(FiberSlot*) = fiber_main;
    frame[0] = nullptr;                                // r15
    frame[1] = nullptr;                                // r14
    frame[2] = reinterpret_cast<void*>(entry);         // r13
    frame[3] = &slot;                                  // r12
    frame[4] = nullptr;                                // rbx
    frame[5] = nullptr;                                // rbp
    frame[6] = reinterpret_cast<void*>(&simt_fiber_start);
    frame[7] = nullptr;
    slot.sp = frame;
}

// A fiber is only destroyed idle (parked, between blocks): nothing on its stack needs unwinding.
FiberSlot::~FiberSlot() {
    if (stack.sp) boost::context::protected_fixedsize_stack(stack.size).deallocate(stack);
}

}  // namespace simt::sim::detail

#endif
