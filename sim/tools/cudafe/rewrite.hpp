// The launch-syntax front end: turns CUDA's kernel<<<...>>>(...) into a call simt's host compiler
// understands, leaving every other byte of the source as it was.
#pragma once

#include <string>
#include <string_view>

namespace simt::cudafe {

// The rewritten source, or why it could not be rewritten.
struct Rewritten {
    std::string text;
    std::string error;  // empty on success, else "LINE:COL: message" (1-based, at the `<<<`)
};

// Rewrites each launch `EXPR<<<CFG>>>(ARGS)` into
//   ::simt::detail::cuda_launch(CFG)([&](auto... simt_arg_) {
//       return [=]() { EXPR(simt_arg_...); }; }(ARGS))
// (on one line). Comments, string, raw-string and character literals are skipped; preprocessor
// lines are scanned like code. No newline is added or removed, so every line outside a launch
// keeps its number. One pass over the source, linear in its size.
//
//   rewrite_launches("add<float><<<n / 256, 256>>>(x, y);\n").text ==
//   "::simt::detail::cuda_launch(n / 256, 256)([&](auto... simt_arg_) { return [=]() mutable "
//   "{ add<float>(simt_arg_...); }; }(x, y));\n"
//
// EXPR is the name right before `<<<`: identifiers, `::` qualifiers (a leading one too) and
// template argument lists, e.g. `k`, `ns::k`, `::k<T>`, `Outer<int>::k<2>`. Anything else there
// (a parenthesised expression, `obj.k`, `p->k`) is an error. `operator<<<T>` is not a launch.
//
// It also drops a cast to `void*` from the kernel named first in cudaLaunchKernel(...) and
// cudaLaunchCooperativeKernel(...), as NVIDIA's samples write them, leaving blanks in its place:
//   "cudaLaunchCooperativeKernel((void*)k, g, b, args);" becomes
//   "cudaLaunchCooperativeKernel(       k, g, b, args);"
// so that the simulator's overloads see the kernel's type (its parameters say how to read args).
Rewritten rewrite_launches(std::string_view source);

}  // namespace simt::cudafe
