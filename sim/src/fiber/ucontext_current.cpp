// Sanitizer builds only (SIMT_SANITIZE): the one out-of-line function of Boost.Context's ucontext
// backend.
//
// Under ASan fibers switch through the ucontext backend, which announces each stack switch to the
// sanitizer. Its header leaves one function to the compiled library, and Debian's library is built
// for the fcontext backend, so it is defined here: each OS thread's record of the context running
// on it, which starts as the thread's own context.
#include <boost/context/fiber.hpp>

#if !defined(BOOST_USE_UCONTEXT)
#error "ucontext_current.cpp belongs to SIMT_SANITIZE builds, which define BOOST_USE_UCONTEXT"
#endif

namespace boost::context::detail {

fiber_activation_record*& fiber_activation_record::current() noexcept {
    thread_local fiber_activation_record thread_context;
    thread_local fiber_activation_record* running = &thread_context;
    return running;
}

}  // namespace boost::context::detail
