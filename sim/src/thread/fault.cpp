// The kernel's own ways to stop (__trap(), assert(), abort() via signals.cpp, exit()), and the
// end of a thread that cannot go on.
//
// assert() and exit() are the C library's: glibc's assert macro calls __assert_fail, and a
// kernel calls the exit everyone calls. Both are defined here, in the program itself, so they
// come before glibc's (the dynamic linker looks in the program first); outside a kernel they
// call glibc's own, unchanged. glibc declares both noexcept, so in a kernel they cannot throw:
// the thread leaves its frames instead (Worker::leave_thread).
#include "fault.hpp"

#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>

#include "../report/symbolize.hpp"

namespace simt::sim::detail {

namespace {

/// Code whose line a report never names: simt's, the standard library's, a system header's, or
/// code without a line table.
bool library_file(const char* f) {
    return !f || !*f || f[0] == '(' || std::strstr(f, "/include/simt/") ||
           std::strstr(f, "/cuda_include/") || std::strstr(f, "/include/c++/") ||
           std::strstr(f, "/sim/src/") || std::strncmp(f, "/usr/include/", 13) == 0;
}

bool on_kernel_thread() {
    Worker* w = tls::worker;
    return w && tls::thread && w->current != &w->main;
}

template <class F>
F next_definition(const char* name) {
    return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

}  // namespace

Loc user_site(const void* const* pcs, int n) {
    // The program's own code is in the executable, simt's too (a static library); the C
    // library's, which may have lines of its own (glibc's abort), is not.
    static const void* program = [] {
        Dl_info self{};
        return dladdr(reinterpret_cast<const void*>(&user_site), &self) ? self.dli_fbase : nullptr;
    }();
    Loc first;
    for (int i = 0; i < n; ++i) {
        Dl_info in{};
        if (!dladdr(pcs[i], &in) || in.dli_fbase != program) continue;
        Loc l = loc_of(pcs[i]);
        if (first.line() == 0) first = l;
        if (l.line() != 0 && !library_file(l.file_name())) return l;
    }
    return first;
}

FaultDraft fault_here(FaultDraft::Problem problem, const Loc& site) {
    FaultDraft f;
    f.problem = problem;
    f.thread = tls::thread->idx;
    f.block = tls::worker->block.idx;
    f.site = site;
    return f;
}

void end_thread(const FaultDraft& fault, cudaError_t code) {
    std::string message = fault_text(fault);
#if !SIMT_OWN_FIBER_SWITCH
    // Boost's fibers (sanitizer builds) can only unwind, and glibc's exit and __assert_fail
    // cannot be unwound through: the message, and the end.
    std::fflush(stdout);
    std::fprintf(stderr, "%s\n", message.c_str());
    std::_Exit(1);
#endif
    tls::worker->fail_thread(std::move(message), code);
}

}  // namespace simt::sim::detail

using namespace simt::sim::detail;

void __trap() {
    if (!on_kernel_thread()) {
        std::fflush(stdout);
        std::fprintf(stderr, "simt: __trap() called outside a kernel\n");
        std::abort();
    }
    const void* pc = __builtin_return_address(0);
    end_thread(fault_here(FaultDraft::Problem::trap, user_site(&pc, 1)), cudaErrorLaunchFailure);
}

extern "C" void __assert_fail(const char* assertion, const char* file, unsigned line,
                              const char* function) noexcept {
    if (!on_kernel_thread()) {
        using Fail = void (*)(const char*, const char*, unsigned, const char*);
        next_definition<Fail>("__assert_fail")(assertion, file, line, function);
        std::abort();  // not reached: glibc's aborts
    }
    // CUDA's device-side text, then what simt adds (report/format.cpp).
    FaultDraft f = fault_here(FaultDraft::Problem::assertion, {});
    f.assertion = assertion;
    f.file = file;
    f.line = line;
    f.function = function;
    end_thread(f, cudaErrorAssert);
}

extern "C" void exit(int status) noexcept {
    if (!on_kernel_thread()) {
        next_definition<void (*)(int)>("exit")(status);
        std::_Exit(status);  // not reached
    }
    const void* pc = __builtin_return_address(0);
    FaultDraft f = fault_here(FaultDraft::Problem::exit_called, user_site(&pc, 1));
    f.status = status;
    end_thread(f, cudaErrorLaunchFailure);
}
