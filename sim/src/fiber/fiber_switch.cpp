// simt's own fiber switch on x86-64 Linux (fiber.hpp says why it is not Boost.Context's).
//
// A suspended fiber's stack ends in the frame simt_fiber_switch pushed: r15, r14, r13, r12, rbx,
// rbp and the return address into the code that called the switch. A new fiber's stack is made
// to look the same, with simt_fiber_start as the return address and the fiber's slot and entry
// function in r12 and r13. The x87 and SSE control words are not switched: every fiber of a
// worker runs with the rounding mode the worker started with (a kernel that changes it with
// fesetround changes it for the block's other threads too).
//
// How the switch returns into the fiber it resumes decides what the return predictor gets right.
// The processor predicts a `ret` from its return stack, which holds the calls of the fiber that
// switched away. When the resumed fiber was suspended by the same call (the usual case in a
// kernel with barriers in a loop: every thread waits at the same __syncthreads, in the same
// frames), those are its calls too, and `ret` and the returns after it are predicted. When it
// was suspended somewhere else (a thread waits at a barrier and an idle fiber resumes in the
// thread loop, or the other way round), that `ret` would miss; the switch then jumps to the
// return address instead, an indirect jump that the branch predictor learns, and which measures
// faster, though the returns after it still miss. On this project's 2-core machine, one worker,
// best of 5:
// a kernel of one __syncthreads, 46.9 ns a thread with `ret` always, 35.5 with a jump always;
// the tree reduction (9 barriers), 129 ns with `ret` always, 170 with a jump always, 115 with
// the choice below. Both cases cost a compare.

#include "fiber.hpp"

#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <vector>
#include <new>

namespace simt::sim::detail {

// Slab stacks: many stacks in one mapping, so that a cooperative grid of 200,000 threads, all
// alive at once, needs a few thousand mappings rather than two per thread (a stack and its guard
// page). In place of the guard page, the lowest bytes of each stack are a canary that must stay
// zero, checked when the block stops running (stack_intact): an overflow is reported after the
// fact, not as it happens. Zero, as a fresh mapping is, so that the canary's page is never
// touched unless something runs into it (a byte pattern would cost a page of memory per thread).
// Freed stacks are kept for reuse, never unmapped.
namespace {

constexpr std::size_t slab_stacks_per_map = 64;
constexpr std::size_t canary_bytes = 256;

struct Slabs {
    std::mutex m;
    std::map<std::size_t, std::vector<std::byte*>> free;  ///< by stack size
};

Slabs& slabs() {
    static Slabs* s = new Slabs;  // never destroyed: fibers outlive static destruction
    return *s;
}

bool canary_clear(const std::byte* lo) {
    std::uint64_t any = 0;
    for (std::size_t i = 0; i < canary_bytes; i += sizeof any) {
        std::uint64_t word;
        std::memcpy(&word, lo + i, sizeof word);
        any |= word;
    }
    return any == 0;
}

}  // namespace

std::byte* slab_stack_allocate(std::size_t bytes) {
    Slabs& s = slabs();
    std::lock_guard lock(s.m);
    std::vector<std::byte*>& free = s.free[bytes];
    if (free.empty()) {
        void* map = mmap(nullptr, bytes * slab_stacks_per_map, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (map == MAP_FAILED) throw std::bad_alloc();
        for (std::size_t i = slab_stacks_per_map; i-- > 0;)
            free.push_back(static_cast<std::byte*>(map) + i * bytes);
    }
    std::byte* lo = free.back();
    free.pop_back();
    return lo;
}

void slab_stack_free(std::byte* lo, std::size_t bytes) {
    if (!canary_clear(lo)) std::memset(lo, 0, canary_bytes);  // after an overflow was reported
    Slabs& s = slabs();
    std::lock_guard lock(s.m);
    s.free[bytes].push_back(lo);
}

bool stack_intact(FiberSlot& slot) {
    if (!slot.slab || canary_clear(slot.guard_lo)) return true;
    std::memset(slot.guard_lo, 0, canary_bytes);  // re-armed: each overflow is reported once
    return false;
}

}  // namespace simt::sim::detail

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
    movq 48(%rsp), %rax           # where this fiber will return to
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    cmpq (%rsp), %rax             # the same place: the return stack predicts it
    jne 1f
    ret
1:  popq %rcx                     # elsewhere: jump, leaving the return stack as it is
    jmpq *%rcx
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

/// Stack colouring: the n-th fiber a worker makes starts its stack (n % 64) cache lines below
/// the top of its allocation. The allocations are a multiple of the page size apart, so without it
/// the live frames of a block's threads, each at the top of its own stack, would all fall in the
/// same few cache sets and evict each other at every switch; with it, 64 consecutive fibers use 64
/// different sets. The tree reduction of ./lab bench (256 threads, 9 barriers) ran 13% faster.
/// The allocation grows by the 4 KiB the colours take, so SIMT_STACK_SIZE is still all usable.
constexpr std::size_t colors = 64, line = 64;

}  // namespace

void make_fiber_stack(FiberSlot& slot, std::size_t bytes, void (*entry)(FiberSlot*), bool slab) {
    slot.entry = entry;
    static thread_local unsigned made = 0;  // per worker, so that the layout is the same each run
    const std::size_t color = (made++ % colors) * line;
    bytes += colors * line;
    if (slab) {
        bytes = (bytes + 4095) & ~std::size_t(4095);  // page-aligned, so the top is 16-aligned
        std::byte* lo = slab_stack_allocate(bytes);
        slot.stack.size = bytes;
        slot.stack.sp = lo + bytes;
        slot.slab = true;
    } else {
        slot.stack = boost::context::protected_fixedsize_stack(bytes).allocate();
    }
    slot.guard_lo = static_cast<std::byte*>(slot.stack.sp) - slot.stack.size;
    slot.stack_hi = static_cast<std::byte*>(slot.stack.sp) - color;
    restart_fiber(slot);
}

void restart_fiber(FiberSlot& slot) {
    // The first switch pops the six registers and returns into simt_fiber_start with the stack
    // pointer 8 bytes below the (16-aligned) top, as a called function expects it.
    void** frame = reinterpret_cast<void**>(slot.stack_hi) - 8;
    frame[0] = nullptr;                                // r15
    frame[1] = nullptr;                                // r14
    frame[2] = reinterpret_cast<void*>(slot.entry);    // r13
    frame[3] = &slot;                                  // r12
    frame[4] = nullptr;                                // rbx
    frame[5] = nullptr;                                // rbp
    frame[6] = reinterpret_cast<void*>(&simt_fiber_start);
    frame[7] = nullptr;
    slot.sp = frame;
}

// A fiber is only destroyed idle (parked, between blocks): nothing on its stack needs unwinding.
FiberSlot::~FiberSlot() {
    if (slab) slab_stack_free(guard_lo, stack.size);
    else if (stack.sp) boost::context::protected_fixedsize_stack(stack.size).deallocate(stack);
}

}  // namespace simt::sim::detail

#else

// With Boost's fibers the simulator makes every switch itself and leaves its callers none to
// make (Worker::leave_for), so this is never called; it is defined for the headers' inline
// callers (simt/sim/block/leave.hpp).
extern "C" void simt_fiber_switch(void**, void*) { std::abort(); }

#endif
