// The front end's rewriter: turns CUDA's kernel<<<...>>>(...) and its __shared__ and device
// variable declarations into C++ simt's host compiler understands, leaving every other byte of
// the source as it was.
#pragma once

#include <string>
#include <string_view>

namespace simt::cudafe {

// The rewritten source, or why it could not be rewritten.
struct Rewritten {
    std::string text;
    std::string error;  // empty on success, else "LINE:COL: message" (1-based, at the `<<<`)
};

// Reads the source once, forward, as tokens (identifiers, numbers, punctuation, string,
// raw-string and character literals, comments, blanks, preprocessor lines), and rewrites from
// them. A comment anywhere between tokens, and a literal holding `<<<`, `__shared__` or `/*`,
// change nothing; preprocessor lines are left as they are, except that a launch in a #define's
// body is rewritten (the macro expands to code). No newline is added or removed, so every line
// keeps its number. Linear in the source's size.
//
// Each launch `EXPR<<<CFG>>>(ARGS)` becomes
//   ::simt::detail::cuda_launch(CFG)([&](auto... simt_arg_) {
//       return ::simt::sim::detail::kernel_call(
//           [=]() SIMT_LAUNCH_THUNK { EXPR(simt_arg_...); }, simt_arg_...);
//       }(ARGS))
// on the launch's own lines (the arguments are evaluated once; kernel_call keeps the pointers
// among them, to tell a kernel's access to host memory):
//
//   rewrite_launches("add<float><<<n / 256, 256>>>(x, y);\n").text ==
//   "::simt::detail::cuda_launch(n / 256, 256)([&](auto... simt_arg_) { return "
//   "::simt::sim::detail::kernel_call([=]() SIMT_LAUNCH_THUNK { add<float>(simt_arg_...); }, "
//   "simt_arg_...); }(x, y));\n"
//
// EXPR is the name before `<<<`: identifiers, `::` qualifiers (a leading one too) and template
// argument lists, e.g. `k`, `ns::k`, `::k<T>`, `Outer<int>::k<2>`, comments allowed between.
// Anything else there (a parenthesised expression, `obj.k`, `p->k`) is an error.
// `operator<<<T>` is not a launch.
//
// Each declaration with `__shared__` (in a function), or `__device__`, `__constant__` or
// `__managed__` (at namespace scope) among its specifiers becomes, name by name, checked storage
// and a reference of the declared type under the declared name (memory/shared.hpp, symbol.hpp):
//   __shared__ int a[32], b[32];   ->  SharedDecl<int[32]> for a, then one for b
//   /* c */ static __device__ int n;  ->  /* c */ static SymbolDecl<int> ...; static int (&n) =
//   ...;
// `static` and `volatile` are kept; `extern __device__ T x;` becomes `extern T (&x);`, the
// reference the defining file makes; `__align__`/`alignas` and attributes are dropped (every
// array is page-aligned in the arena). Each name's code goes on its name's line. Kept as written,
// for the macros of simt/sim/api.hpp: functions, templates, `const`/`constexpr` variables,
// declarators in parentheses, `__shared__` with an initialiser or at namespace scope (unless
// extern), and `simt::shared<...>`.
//
// It also drops a cast to `void*` from the kernel named first in cudaLaunchKernel(...) and
// cudaLaunchCooperativeKernel(...), as NVIDIA's samples write them, leaving blanks in its place:
//   "cudaLaunchCooperativeKernel((void*)k, g, b, args);" becomes
//   "cudaLaunchCooperativeKernel(       k, g, b, args);"
// so that the simulator's overloads see the kernel's type (its parameters say how to read args).
Rewritten rewrite_launches(std::string_view source);

}  // namespace simt::cudafe
