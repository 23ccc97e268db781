// Kernel faults that arrive as signals: each becomes its thread's failure, never the process's
// death.
//
// SIGSEGV and SIGBUS (a null or wild pointer, a stack overflow into the guard page) and SIGABRT
// (abort() in a kernel) are handled on an alternate stack. The handler writes down the signal,
// the address and the return addresses out of the faulting frame (Worker::fault), then changes
// the context it returns to: the thread resumes at `thread_faulted`, at the top of its own
// fiber's stack, as if just called there, with the signal mask it had before the fault. Nothing
// is thrown through the signal frame and the faulting frames are never returned to (their stack
// is reused); `thread_faulted` fails the thread's block with CUDA's error for the fault, and the
// fiber starts over (Worker::leave_thread). A fault outside a kernel thread gets the default
// action, as without simt.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ucontext.h>
#include <unistd.h>
#include <unwind.h>

#include "../thread/fault.hpp"

namespace simt::sim::detail {

namespace {

constexpr std::size_t altstack_bytes = 64 * 1024;

#if SIMT_OWN_FIBER_SWITCH
/// Below the top of a fiber's stack: the 64 bytes restart_fiber writes there, and some slack.
constexpr std::uintptr_t top_reserve = 256;

bool overflowed(const FiberSlot& s, const void* addr, std::uintptr_t sp) {
    auto* a = static_cast<const std::byte*>(addr);
    // With -fstack-clash-protection every frame touches the guard page first; allow for a frame
    // that skips a little past it anyway.
    return (a >= s.guard_lo - 256 * 1024 && a < s.guard_lo + 4096) ||
           sp < reinterpret_cast<std::uintptr_t>(s.guard_lo) + 4096;
}

[[noreturn]] void thread_faulted() {
    Worker& w = *tls::worker;
    FaultRecord& f = w.fault;
    Loc site = user_site(f.pcs, f.npcs);
    using Problem = FaultDraft::Problem;
    cudaError_t code = cudaErrorLaunchFailure;
    FaultDraft fault;
    if (f.sig == SIGABRT) {
        fault = fault_here(Problem::abort_called, site);
    } else if (f.overflow) {
        fault = fault_here(Problem::stack_overflow, site);
        fault.bytes = w.stack_size;
    } else {
        code = cudaErrorIllegalAddress;
        fault = fault_here(Problem::bad_address, site);
        fault.access = f.write ? Access::write : Access::read;
        fault.address = f.addr;
    }
    f.handling = false;
    end_thread(fault, code);
}

struct Walk {
    FaultRecord* f;
    std::uintptr_t fault_ip;
    bool found = false;
};

/// Collects return addresses from the interrupted frame out (the handler's own frames and the
/// signal frame come first and are skipped).
_Unwind_Reason_Code walk_frame(_Unwind_Context* ctx, void* data) {
    auto& w = *static_cast<Walk*>(data);
    int before = 0;
    std::uintptr_t ip = _Unwind_GetIPInfo(ctx, &before);
    if (!w.found) {
        if (!before || ip != w.fault_ip) return _URC_NO_REASON;
        w.found = true;
        return _URC_NO_REASON;  // the faulting instruction is pcs[0] already
    }
    if (w.f->npcs == static_cast<int>(std::size(w.f->pcs))) return _URC_END_OF_STACK;
    w.f->pcs[w.f->npcs++] = reinterpret_cast<const void*>(before ? ip + 1 : ip);
    return _URC_NO_REASON;
}

#endif

void on_fault(int sig, siginfo_t* info, [[maybe_unused]] void* context) {
    Worker* w = tls::worker;
#if SIMT_OWN_FIBER_SWITCH
    if (w && tls::thread && w->current != &w->main && !w->fault.handling) {
        auto* uc = static_cast<ucontext_t*>(context);
        greg_t* r = uc->uc_mcontext.gregs;
        FiberSlot& s = *w->current;
        FaultRecord& f = w->fault;
        f.handling = true;
        f.sig = sig;
        f.addr = info->si_addr;
        f.write = (r[REG_ERR] & 2) != 0;  // the page fault's error code: bit 1 is a write
        auto rip = static_cast<std::uintptr_t>(r[REG_RIP]);
        // pcs hold return addresses (a report looks up the byte before): one past the faulting
        // instruction, which for SIGABRT is the system call's next one already.
        f.npcs = 0;
        f.pcs[f.npcs++] = reinterpret_cast<const void*>(sig == SIGABRT ? rip : rip + 1);
        f.overflow =
            sig != SIGABRT && overflowed(s, f.addr, static_cast<std::uintptr_t>(r[REG_RSP]));
        Walk walk{&f, rip};
        _Unwind_Backtrace(walk_frame, &walk);
        // Resume at thread_faulted near the top of the fiber's stack, as if called there.
        auto sp =
            (reinterpret_cast<std::uintptr_t>(s.stack_hi) - top_reserve) & ~std::uintptr_t(15);
        sp -= sizeof(void*);
        *reinterpret_cast<void**>(sp) = nullptr;
        r[REG_RSP] = static_cast<greg_t>(sp);
        r[REG_RIP] = reinterpret_cast<greg_t>(&thread_faulted);
        r[REG_EFL] &= ~greg_t(0x400);  // the direction flag, clear at every call
        return;
    }
#endif
    if (w && tls::thread && w->current != &w->main && sig != SIGABRT) {
        // Boost's fibers (sanitizer builds) cannot leave a faulting frame, and a fault while
        // one is being reported is simt's own: say what it was, and end.
        char msg[256];
        int n = std::snprintf(msg, sizeof msg,
                              "simt: %s at address %p in thread (%u,%u,%u) of block (%u,%u,%u) "
                              "(a stack overflow, or a bad pointer)\n",
                              sig == SIGBUS ? "bus error" : "segmentation fault", info->si_addr,
                              tls::thread->idx.x, tls::thread->idx.y, tls::thread->idx.z,
                              w->block.idx.x, w->block.idx.y, w->block.idx.z);
        if (n > 0) (void)!write(2, msg, std::min<std::size_t>(n, sizeof msg - 1));
        _exit(1);
    }
    // Not a kernel thread: the default action, when the instruction faults again or (SIGABRT,
    // blocked in this handler) when the handler returns.
    std::signal(sig, SIG_DFL);
    if (sig == SIGABRT) raise(SIGABRT);
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
        sigaction(SIGABRT, &sa, nullptr);
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
