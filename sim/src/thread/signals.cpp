// Turns a fault on a fiber's stack into a message naming the thread, the block and the setting.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

#include "../runtime.hpp"

namespace simt::sim::detail {

namespace {

constexpr std::size_t altstack_bytes = 64 * 1024;

void on_fault(int sig, siginfo_t* info, void*) {
    Worker* w = tls_worker;
    ThreadState* t = tls_thread;
    if (w && t && w->current != &w->main) {
        auto* addr = static_cast<std::byte*>(info->si_addr);
        FiberSlot* s = w->current;
        char msg[640];
        int n;
        // With -fstack-clash-protection every frame touches the guard page first; allow for a
        // frame that skips a little past it anyway.
        if (addr >= s->guard_lo - 256 * 1024 && addr < s->guard_lo + 4096) {
            n = std::snprintf(msg, sizeof msg,
                              "simt: stack overflow in thread (%u,%u,%u) of block (%u,%u,%u): the "
                              "kernel needs more than the %zu bytes of stack each CUDA thread "
                              "gets (large local arrays or deep recursion).\n  Raise it, e.g. "
                              "SIMT_STACK_SIZE=%zuK, or make the local arrays smaller.\n",
                              t->idx.x, t->idx.y, t->idx.z, w->block.idx.x, w->block.idx.y,
                              w->block.idx.z, w->stack_size, w->stack_size / 1024 * 4);
        } else {
            n = std::snprintf(msg, sizeof msg,
                              "simt: %s at address %p in thread (%u,%u,%u) of block (%u,%u,%u).\n"
                              "  The simulator checks accesses through simt::ptr, span, mdspan and "
                              "shared; this one went through a raw pointer. Use a checked view to "
                              "get a report with the line.\n",
                              sig == SIGBUS ? "bus error" : "segmentation fault", info->si_addr,
                              t->idx.x, t->idx.y, t->idx.z, w->block.idx.x, w->block.idx.y,
                              w->block.idx.z);
        }
        if (n > 0) (void)!write(2, msg, static_cast<std::size_t>(std::min<int>(n, sizeof msg - 1)));
        _exit(139);
    }
    // Not a kernel thread: let the default action happen when the instruction faults again.
    std::signal(sig, SIG_DFL);
}

}  // namespace

std::unique_ptr<std::byte[]> install_signal_stack() {
    static bool handler = [] {
        struct sigaction sa {};
        sa.sa_sigaction = on_fault;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGSEGV, &sa, nullptr);
        sigaction(SIGBUS, &sa, nullptr);
        return true;
    }();
    (void)handler;
    // A thread that has one already (AddressSanitizer gives every thread its own, and unmaps it
    // when the thread ends) keeps it: replacing it would make that unmap fail.
    stack_t old{};
    if (sigaltstack(nullptr, &old) == 0 && !(old.ss_flags & SS_DISABLE)) return nullptr;
    auto stack = std::make_unique<std::byte[]>(altstack_bytes);
    stack_t ss{};
    ss.ss_sp = stack.get();
    ss.ss_size = altstack_bytes;
    sigaltstack(&ss, nullptr);
    return stack;
}

}  // namespace simt::sim::detail
