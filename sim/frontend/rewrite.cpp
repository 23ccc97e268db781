// The front end's rewriter: one forward pass (lexer.hpp) splits the source into tokens, then
// launches and declarations are read from those tokens, so that a comment or a literal is never
// mistaken for code and code is never mistaken for a comment.
#include "rewrite.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "lexer.hpp"

namespace simt::cudafe {

namespace {

constexpr std::size_t npos = std::string_view::npos;

// --- What the parser finds ---------------------------------------------------------------------

// Where the parts of one launch lie, as byte offsets; blanks may come before <<< and after >>>.
//   EXPR   <<< CFG >>>   ( ARGS )
//   ^expr  ^lt     ^gt           ^end
struct Launch {
    std::size_t expr, lt, gt, end;
};

// One name of a declaration, as token indices. `piece` is its share of the declaration: the
// specifiers too for the first name, and its `,` or `;` ends it.
//   static __device__ float * p [4] = { ... } ,
//   ^piece            ^ptr ^name ^dims ^init  ^end
struct Declarator {
    std::size_t piece = 0, ptr = 0, name = 0, dims = npos, end = 0;
    std::size_t init_begin = npos, init_end = npos;  // after `=` up to the `,`/`;`, or `{...}`
    bool brace_init = false;
};

// A declaration with `__shared__`, `__device__`, `__constant__` or `__managed__` in its
// specifiers, from its first token to its `;` (token `end`).
struct Declaration {
    enum class Space { shared, global, constant };
    Space space = Space::global;
    bool keyword = false;  // a CUDA keyword among the specifiers (not in an initialiser)
    bool managed = false, is_static = false, is_extern = false, is_const = false;
    std::size_t first = 0, end = 0;
    std::vector<Declarator> names;
};

class Parser {
public:
    explicit Parser(std::string_view src)
        : s_(src), toks_(tokenize(src)), dropped_(toks_.size(), false) {}

    Rewritten run() {
        out_.reserve(s_.size() + s_.size() / 8);
        std::size_t statement = 0;  // the first token of the statement being read
        for (std::size_t t = 0; t < toks_.size();) {
            const Token& tok = toks_[t];
            if (tok.ctx == Ctx::directive || tok.kind == Kind::blank || tok.kind == Kind::comment) {
                if (tok.ctx != Ctx::code) statement = t + 1;
                ++t;
                continue;
            }
            const std::string_view text = str(t);
            if (tok.ctx == Ctx::define) {
                statement = t + 1;  // a macro's body is no declaration the rewriter reads
            } else if (text == "{") {
                scopes_.push_back(opens_namespace(statement, t));
                statement = t + 1;
            } else if (text == "}") {
                if (!scopes_.empty()) scopes_.pop_back();
                statement = t + 1;
            } else if (text == ";" || text == ":") {
                statement = t + 1;
            } else if (is_declaration_keyword(text) &&
                       (text == "__shared__" || !in_function())) {
                Declaration d;
                if (parse_declaration(statement, d)) {
                    emit_declaration(d);
                    t = statement = d.end + 1;
                    continue;
                }
            }
            if (tok.kind == Kind::word &&
                (text == "cudaLaunchKernel" || text == "cudaLaunchCooperativeKernel")) {
                drop_kernel_cast(t);
            } else if (tok.kind == Kind::word && is_allocation_call(text)) {
                drop_allocation_cast(t);
            } else if (text == "(" && tok.begin >= copied_) {
                keep_kernel_type(t);
            } else if (text == "<<<") {
                Launch l{};
                std::size_t end = 0;
                switch (parse_launch(t, l, end)) {
                    case Found::launch:
                        copy_to(l.expr);
                        emit_launch(l);
                        copied_ = l.end;
                        t = statement = end;
                        continue;
                    case Found::not_a_launch: break;
                    case Found::error: return {{}, error_};
                }
            }
            ++t;
        }
        copy_to(s_.size());
        return {std::move(out_), {}};
    }

private:
    enum class Found { launch, not_a_launch, error };

    std::string_view str(std::size_t t) const {
        return s_.substr(toks_[t].begin, toks_[t].end - toks_[t].begin);
    }
    bool is(std::size_t t, std::string_view text) const {
        return t < toks_.size() && str(t) == text;
    }
    bool significant(std::size_t t) const {
        return toks_[t].kind != Kind::blank && toks_[t].kind != Kind::comment;
    }
    // The next code token from t on (t itself if it is one), or toks_.size().
    std::size_t next_sig(std::size_t t) const {
        while (t < toks_.size() && !significant(t)) ++t;
        return t;
    }
    // The code token before t, in the same context as `ctx`, not yet copied out; npos if none.
    std::size_t prev_sig(std::size_t t, Ctx ctx) const {
        while (t > 0) {
            --t;
            if (toks_[t].begin < copied_) return npos;
            if (!significant(t)) continue;
            return toks_[t].ctx == ctx ? t : npos;
        }
        return npos;
    }
    // A punctuator made of `>` only (`>`, `>>`, `>>>`): its length, else 0. Likewise `<`.
    std::size_t closing_angles(std::size_t t) const {
        const std::string_view p = str(t);
        return toks_[t].kind == Kind::punct && p.find_first_not_of('>') == npos ? p.size() : 0;
    }
    std::size_t opening_angles(std::size_t t) const {
        const std::string_view p = str(t);
        return toks_[t].kind == Kind::punct && p.find_first_not_of('<') == npos ? p.size() : 0;
    }

    void copy_to(std::size_t byte) {
        if (byte > copied_) out_.append(s_.substr(copied_, byte - copied_));
        copied_ = std::max(copied_, byte);
    }

    // --- Launches ------------------------------------------------------------------------------

    Found parse_launch(std::size_t lt, Launch& l, std::size_t& after) {
        const Ctx ctx = toks_[lt].ctx;
        l.lt = toks_[lt].begin;
        // `operator<<<T>(...)` names operator<< with template arguments.
        const std::size_t last = prev_sig(lt, ctx);
        if (last != npos && is(last, "operator")) return Found::not_a_launch;
        const std::size_t expr = kernel_begin(lt, ctx);
        if (expr == npos) return Found::error;
        const std::size_t before = prev_sig(expr, ctx);
        if (before != npos && (is(before, ".") || is(before, "->"))) {
            return fail(l.lt, "the kernel before <<< must be a name such as k, ns::k or k<T>, not "
                              "a member access");
        }
        l.expr = toks_[expr].begin;

        // CFG: up to the first `>>>` outside brackets. A `;`, a stray closing bracket or
        // another `<<<` first means this launch was never closed.
        int depth = 0;
        std::size_t t = lt + 1;
        for (;; ++t) {
            t = next_sig(t);
            if (t >= toks_.size()) return fail(l.lt, "<<< has no matching >>>");
            const std::string_view p = str(t);
            if (depth == 0 && p == ">>>") break;
            if (p == "<<<") return fail(l.lt, "<<< has no matching >>>");
            if (p == "(" || p == "[" || p == "{") {
                ++depth;
            } else if (p == ")" || p == "]" || p == "}") {
                if (depth == 0) return fail(l.lt, "<<< has no matching >>>");
                --depth;
            } else if (p == ";" && depth == 0) {
                return fail(l.lt, "<<< has no matching >>>");
            }
        }
        l.gt = toks_[t].begin;

        t = next_sig(t + 1);
        if (!is(t, "("))
            return fail(l.lt, "the launch's >>> is not followed by its arguments in (...)");
        for (depth = 0; t < toks_.size(); t = next_sig(t + 1)) {
            const std::string_view p = str(t);
            if (p == "(" || p == "[" || p == "{") {
                ++depth;
            } else if ((p == ")" || p == "]" || p == "}") && --depth == 0) {
                l.end = toks_[t].end;
                after = t + 1;
                return Found::launch;
            }
        }
        return fail(l.lt, "the launch's arguments have no closing )");
    }

    // The first token of EXPR, the kernel before the `<<<` at lt: names, `::` and template
    // argument lists, read back token by token. npos (with error_ set) when no name is there.
    std::size_t kernel_begin(std::size_t lt, Ctx ctx) {
        std::size_t t = prev_sig(lt, ctx);
        for (;;) {
            if (t != npos && closing_angles(t)) {
                t = template_begin(t, ctx);
                if (t == npos) {
                    fail(toks_[lt].begin, "the template arguments before <<< are not balanced");
                    return npos;
                }
                t = prev_sig(t, ctx);
            }
            if (t == npos || toks_[t].kind != Kind::word) {
                fail(toks_[lt].begin, "<<< must follow the kernel's name");
                return npos;
            }
            const std::size_t colons = prev_sig(t, ctx);
            if (colons == npos || !is(colons, "::")) return t;
            const std::size_t before = prev_sig(colons, ctx);
            if (before == npos || (toks_[before].kind != Kind::word && !closing_angles(before)))
                return colons;
            t = before;
        }
    }

    // The `<` that opens the template argument list closed at token `close`; parenthesised and
    // bracketed parts are skipped whole, so `k<(a > b)>` and `reduce<256, Op<int>>` work.
    std::size_t template_begin(std::size_t close, Ctx ctx) const {
        std::size_t angles = closing_angles(close);
        int parens = 0;
        for (std::size_t t = close; (t = prev_sig(t, ctx)) != npos;) {
            const std::string_view p = str(t);
            if (p == ")" || p == "]") {
                ++parens;
            } else if (p == "(" || p == "[") {
                if (--parens < 0) return npos;
            } else if (p == ";" || p == "{" || p == "}") {
                return npos;
            } else if (parens == 0 && closing_angles(t)) {
                angles += closing_angles(t);
            } else if (const std::size_t open = opening_angles(t); parens == 0 && open) {
                if (open > angles) return npos;
                if ((angles -= open) == 0) return t;
            }
        }
        return npos;
    }

    void emit_launch(const Launch& l) {
        const auto part = [&](std::size_t from, std::size_t to) {
            return s_.substr(from, to - from);
        };
        out_ += "::simt::detail::cuda_launch(";
        out_ += part(l.lt + 3, l.gt);
        out_ +=
            ")([&](auto... simt_arg_) { return ::simt::sim::detail::kernel_call([=]() "
            "SIMT_LAUNCH_THUNK { ";
        // The blanks and comments around <<< and >>> keep their places (after EXPR, before
        // ARGS), so that a launch split over lines keeps its line count.
        out_ += part(l.expr, l.lt);
        out_ += "(simt_arg_...); }, simt_arg_...); }";
        out_ += part(l.gt + 3, l.end);
        out_ += ")";
    }

    // --- Casts in the first argument of cudaLaunchKernel and of allocation calls ---------------

    // A cast to `void` and `stars` `*` at token t, `(void*)` (`(const void *)` when one star)
    // or `reinterpret_cast<void**>`: the cast's last token, else npos. `c_style` says which.
    std::size_t void_cast_end(std::size_t t, int stars, bool& c_style) const {
        c_style = is(t, "(");
        if (!c_style && !(is(t, "reinterpret_cast") && is(t = next_sig(t + 1), "<"))) return npos;
        t = next_sig(t + 1);
        if (stars == 1 && is(t, "const")) t = next_sig(t + 1);
        if (!is(t, "void")) return npos;
        for (int k = 0; k < stars; ++k)
            if (!is(t = next_sig(t + 1), "*")) return npos;
        t = next_sig(t + 1);
        return is(t, c_style ? ")" : ">") ? t : npos;
    }

    // Replaces tokens [first, last] by blanks, keeping their newlines: lines and columns stay.
    void blank_out(std::size_t first, std::size_t last) {
        copy_to(toks_[first].begin);
        for (std::size_t k = toks_[first].begin; k < toks_[last].end; ++k)
            out_ += s_[k] == '\n' ? '\n' : ' ';
        copied_ = toks_[last].end;
    }

    // The first argument of cudaLaunchKernel / cudaLaunchCooperativeKernel (the token at `name`)
    // loses a cast to void*: the simulator's overloads need the kernel's own type to read its
    // arguments from void* args[].
    void drop_kernel_cast(std::size_t name) {
        const std::size_t open = next_sig(name + 1);
        if (!is(open, "(")) return;
        const std::size_t cast = next_sig(open + 1);
        bool c_style = false;
        if (const std::size_t end = void_cast_end(cast, 1, c_style); end != npos)
            blank_out(cast, end);
    }

    static bool is_allocation_call(std::string_view w) {
        return w == "cudaMalloc" || w == "cudaMallocManaged" || w == "cudaMallocHost" ||
               w == "cudaHostAlloc" || w == "cudaMallocPitch" || w == "cudaMallocAsync";
    }

    // The first argument of an allocation call loses a cast to void** applied to an address,
    // `(void**)&d_x` or `reinterpret_cast<void**>(&d_x)`: the typed overload cuda_runtime.h gives
    // every allocation call then knows d_x's element type, so that reports count its elements as
    // the program does (`'d_x'[125000]`, not byte 500000).
    void drop_allocation_cast(std::size_t name) {
        const std::size_t open = next_sig(name + 1);
        if (!is(open, "(")) return;
        const std::size_t cast = next_sig(open + 1);
        bool c_style = false;
        const std::size_t end = void_cast_end(cast, 2, c_style);
        if (end == npos) return;
        const std::size_t operand = next_sig(end + 1);
        if (c_style ? is(operand, "&") : is(operand, "(") && is(next_sig(operand + 1), "&"))
            blank_out(cast, end);
    }

    // --- (void*)kernel -------------------------------------------------------------------------

    // `(void*)name` (or `(const void *)name`), the way CUDA code hands a kernel to
    // cudaKernelNodeParams::func or cudaLaunchKernel, becomes
    // `::simt::sim::detail::kernel_or_pointer(name)`: the kernel with its type when `name` is a
    // kernel, so that its arguments can be read from void* args[] as nvcc's registration of
    // kernels allows, and the same void* as the cast otherwise (graph_api.hpp). Only a cast of a
    // plain or qualified name followed by no `(`, `[`, `.`, `->` or `<` (which would make the
    // cast apply to more than the name); lines stay.
    void keep_kernel_type(std::size_t open) {
        const Ctx ctx = toks_[open].ctx;
        const std::size_t before = prev_sig(open, ctx);
        if (before != npos &&
            (toks_[before].kind == Kind::word || toks_[before].kind == Kind::number ||
             is(before, ")") || is(before, "]")) &&
            !is(before, "return"))
            return;  // a call's or a declarator's parentheses, not a cast
        std::size_t t = next_sig(open + 1);
        if (is(t, "const")) t = next_sig(t + 1);
        if (!is(t, "void") || !is(t = next_sig(t + 1), "*") || !is(t = next_sig(t + 1), ")"))
            return;
        const std::size_t first = t = next_sig(t + 1);
        if (is(t, "::")) t = next_sig(t + 1);
        if (t >= toks_.size() || toks_[t].kind != Kind::word) return;
        std::size_t last = t;
        while (is(t = next_sig(last + 1), "::") && toks_[next_sig(t + 1)].kind == Kind::word)
            last = next_sig(t + 1);
        if (t < toks_.size() && (is(t, "(") || is(t, "[") || is(t, ".") || is(t, "->") ||
                                 opening_angles(t) || is(t, "::")))
            return;
        static constexpr std::string_view not_names[] = {"nullptr", "NULL", "this", "sizeof",
                                                         "new"};
        for (std::string_view w : not_names)
            if (first == last && is(first, w)) return;
        copy_to(toks_[open].begin);
        std::string lines;
        for (std::size_t k = toks_[open].begin; k < toks_[first].begin; ++k)
            if (s_[k] == '\n') lines += '\n';
        out_ += "::simt::sim::detail::kernel_or_pointer(";
        out_ += lines;
        copied_ = toks_[first].begin;
        copy_to(toks_[last].end);
        out_ += ")";
    }

    // --- Declarations --------------------------------------------------------------------------

    static bool is_declaration_keyword(std::string_view w) {
        return w == "__shared__" || w == "__device__" || w == "__constant__" || w == "__managed__";
    }

    // Whether the `{` at `brace` opens a namespace (`namespace a::b {`, `inline namespace {`) or
    // a linkage block (`extern "C" {`), whose declarations are at namespace scope too.
    bool opens_namespace(std::size_t statement, std::size_t brace) const {
        std::size_t t = next_sig(statement);
        if (is(t, "inline")) t = next_sig(t + 1);
        if (is(t, "namespace")) return true;
        if (t >= brace || !is(t, "extern")) return false;
        const std::size_t linkage = next_sig(t + 1);  // `extern "C" void f() {` opens a function
        return toks_[linkage].kind == Kind::literal && next_sig(linkage + 1) == brace;
    }

    bool in_function() const {
        return std::find(scopes_.begin(), scopes_.end(), false) != scopes_.end();
    }

    // Past the parenthesised group that opens at the first code token after t (the arguments of
    // `alignas(8)`, `__attribute__((aligned(8)))`), marking it dropped; npos if there is none.
    std::size_t drop_group(std::size_t t) {
        t = next_sig(t + 1);
        if (!is(t, "(")) return npos;
        const std::size_t close = matching(t);
        if (close != npos) drop(t, close + 1);
        return close;
    }

    void drop(std::size_t from, std::size_t to) {
        for (std::size_t t = from; t < to; ++t) {
            dropped_[t] = true;
            marked_.push_back(t);
        }
    }

    // Reads the declaration that starts at the statement's first token, forward to its `;`:
    // its specifiers, then each name with its pointer operators, extents and initialiser. False
    // for what is no variable (a function, a lambda's `__device__`) and for declarations kept
    // as written: templates, declarators in parentheses, and what else the macros serve.
    bool parse_declaration(std::size_t statement, Declaration& d) {
        for (std::size_t t : marked_) dropped_[t] = false;  // what an earlier reading dropped
        marked_.clear();
        d.first = next_sig(statement);
        int depth = 0;  // brackets, and angles outside initialisers
        Declarator n;
        n.piece = d.first;
        bool in_init = false;
        bool after_brace_init = false;
        for (std::size_t t = d.first; t < toks_.size(); ++t) {
            const Token& tok = toks_[t];
            if (tok.ctx != Ctx::code) return false;
            if (!significant(t) || dropped_[t]) continue;
            const std::string_view w = str(t);
            if (in_init) {
                if (w == "(" || w == "[" || w == "{") ++depth;
                else if (w == ")" || w == "]" || w == "}") --depth;
                if (depth < 0) return false;
                if (depth > 0 || (w != "," && w != ";")) continue;
                n.init_end = t;
                in_init = false;
            } else if (after_brace_init && w != "," && w != ";") {
                return false;
            }
            if (depth == 0 && (w == "," || w == ";")) {
                n.end = t;
                if (!close_declarator(d, n)) return false;
                if (w == ";") {
                    d.end = t;
                    return d.keyword;
                }
                n = Declarator{};
                n.piece = t + 1;
                after_brace_init = false;
                continue;
            }
            if (tok.kind == Kind::word && d.names.empty() && depth == 0) {
                if (!read_specifier(t, d)) return false;
                if (dropped_[t]) continue;
            }
            if (w == "[" && d.names.empty() && depth == 0 && is(next_sig(t + 1), "[")) {
                const std::size_t close = matching(t);  // an attribute, `[[maybe_unused]]`
                if (close == npos) return false;
                drop(t, close + 1);
                t = close;
                continue;
            }
            if (tok.kind == Kind::literal) return false;  // `extern "C"`, or no declaration at all
            if (w == "(" && depth == 0) return false;      // a function, or `(*p)[4]`
            if (w == "=" && depth == 0) {
                n.init_begin = t + 1;
                in_init = true;
            } else if (w == "{" && depth == 0) {
                const std::size_t close = matching(t);
                if (close == npos) return false;
                n.init_begin = t;
                n.init_end = close + 1;
                n.brace_init = after_brace_init = true;
                t = close;
            } else if (w == "[" && depth == 0 && n.dims == npos) {
                n.dims = t;
                ++depth;
            } else if (w == "(" || w == "[" || w == "<" || w == "<<") {
                depth += static_cast<int>(w == "<<" ? 2 : 1);
            } else if (w == ")" || w == "]" || w == "}" || closing_angles(t)) {
                depth -= static_cast<int>(closing_angles(t) ? closing_angles(t) : 1);
                if (depth < 0) return false;
            } else if (w == "{" || w == "}" || w == ";") {
                return false;
            }
        }
        return false;
    }

    // A specifier word of the first name's piece: storage and CUDA's keywords are noted and
    // marked dropped (they are said again in the rewritten text, or mean nothing to it); false
    // where the declaration is to be kept as written.
    bool read_specifier(std::size_t t, Declaration& d) {
        const std::string_view w = str(t);
        bool dropped = true;
        if (is_declaration_keyword(w)) d.keyword = true;
        if (w == "__shared__") d.space = Declaration::Space::shared;
        else if (w == "__constant__") d.space = Declaration::Space::constant;
        else if (w == "__managed__") d.managed = true;
        else if (w == "static") d.is_static = true;
        else if (w == "extern") d.is_extern = true;
        else if (w == "__device__") {}
        else if (w == "__align__" || w == "alignas" || w == "__attribute__") {
            // The arena aligns every array to a page already.
            if (drop_group(t) == npos) return false;
        } else if (w == "const" || w == "constexpr") {
            d.is_const = true;
            dropped = false;
        } else if (w == "template" || w == "typedef" || w == "using" || w == "friend" ||
                   w == "inline" || w == "thread_local" || w == "register" || w == "mutable" ||
                   w == "operator" || w == "return" || w == "__host__" || w == "__global__") {
            return false;
        } else {
            dropped = false;
        }
        if (dropped) drop(t, t + 1);
        return true;
    }

    // The `}` that closes the `{` at t, or npos.
    std::size_t matching(std::size_t t) const {
        int depth = 0;
        for (; t < toks_.size() && toks_[t].ctx == Ctx::code; ++t) {
            const std::string_view p = str(t);
            if (p == "(" || p == "[" || p == "{") ++depth;
            else if ((p == ")" || p == "]" || p == "}") && --depth == 0) return t;
        }
        return npos;
    }

    // Finds the name of the piece `n` (its last identifier before its extents or initialiser)
    // and where its pointer operators start; false where the piece is no plain declarator.
    bool close_declarator(Declaration& d, Declarator& n) {
        const std::size_t part_end =
            n.init_begin == npos ? n.end : (n.brace_init ? n.init_begin : n.init_begin - 1);
        const std::size_t name_end = n.dims == npos ? part_end : n.dims;
        n.name = npos;
        for (std::size_t t = n.piece; t < name_end; ++t)
            if (significant(t) && !dropped_[t]) n.name = t;
        if (n.name == npos || toks_[n.name].kind != Kind::word) return false;
        // After the name only its extents: `[N]` groups.
        for (std::size_t t = n.name + 1, depth = 0; t < part_end; ++t) {
            if (!significant(t)) continue;
            if (depth == 0 && !is(t, "[")) return false;
            if (is(t, "[")) ++depth;
            if (is(t, "]")) --depth;
        }
        const auto is_ptr_op = [&](std::size_t t) {
            return is(t, "*") || is(t, "&") || is(t, "const") || is(t, "volatile") ||
                   is(t, "__restrict__");
        };
        if (d.names.empty()) {
            // The pointer operators start at the first `*` or `&` outside template arguments.
            n.ptr = n.name;
            int angles = 0;
            bool type = false;  // a type is named before them
            for (std::size_t t = n.piece; t < n.name; ++t) {
                if (!significant(t) || dropped_[t]) continue;
                if (opening_angles(t)) angles += static_cast<int>(opening_angles(t));
                if (closing_angles(t)) angles -= static_cast<int>(closing_angles(t));
                if (angles == 0 && (is(t, "*") || is(t, "&"))) {
                    n.ptr = t;
                    break;
                }
                type = true;
            }
            if (!type) return false;
        } else {
            n.ptr = n.piece;
            for (std::size_t t = n.piece; t < n.name; ++t)
                if (significant(t) && !is_ptr_op(t)) return false;
        }
        d.names.push_back(n);
        return true;
    }

    // Tokens [from, to) as the rewritten text says them: dropped ones left out, blanks and
    // comments as one space, runs of spaces as one.
    std::string render(std::size_t from, std::size_t to) const {
        std::string text;
        for (std::size_t t = from; t < to; ++t) {
            if (dropped_[t]) continue;
            if (significant(t)) text += str(t);
            else if (text.empty() || text.back() != ' ') text += ' ';
        }
        return text;
    }
    static std::string collapse(std::string text) {
        text.erase(std::unique(text.begin(), text.end(),
                               [](char a, char b) { return a == ' ' && b == ' '; }),
                   text.end());
        return text;
    }
    std::size_t newlines(std::size_t from, std::size_t to) const {
        if (from >= to) return 0;
        return static_cast<std::size_t>(
            std::count(s_.begin() + static_cast<std::ptrdiff_t>(toks_[from].begin),
                       s_.begin() + static_cast<std::ptrdiff_t>(toks_[to - 1].end), '\n'));
    }

    // The text of one name: its type (the first piece's specifiers and its own pointer
    // operators), its extents, its initialiser as written.
    struct Parts {
        std::string type, name, dims, init;
        bool volatile_type = false;
    };
    Parts parts(const Declaration& d, const Declarator& n) const {
        const Declarator& first = d.names.front();
        Parts p;
        p.type = collapse(render(first.piece, first.ptr) + render(n.ptr, n.name));
        p.name = std::string(str(n.name));
        if (n.dims != npos) {
            const std::size_t part_end =
                n.init_begin == npos ? n.end : (n.brace_init ? n.init_begin : n.init_begin - 1);
            p.dims = collapse(render(n.dims, part_end));
            while (!p.dims.empty() && p.dims.back() == ' ') p.dims.pop_back();
        }
        if (n.init_begin != npos) {
            const std::size_t from =
                n.brace_init ? toks_[n.init_begin].begin : toks_[n.init_begin - 1].end;
            p.init = std::string(s_.substr(from, toks_[n.init_end - 1].end - from));
            if (!n.brace_init) p.init.insert(0, " =");
        }
        p.volatile_type = (" " + p.type + " ").find(" volatile ") != npos;
        return p;
    }

    // Whether the declaration is rewritten: see rewrite.hpp for what is kept as written.
    bool rewritable(const Declaration& d) const {
        for (const Declarator& n : d.names) {
            const Parts p = parts(d, n);
            if (d.space == Declaration::Space::shared) {
                if (n.init_begin != npos) return false;
                // simt::shared<T[N]> keeps its own per-block storage: it needs only the macro.
                if (p.type.find("shared<") != npos || p.type.find("shared <") != npos) return false;
                if (d.is_extern && (p.dims != "[]" || n.ptr != n.name)) return false;
                if (!d.is_extern && !in_function()) return false;  // no block to belong to yet
            } else {
                if (d.is_const) return false;  // usable in constant expressions: must stay so
                if (d.is_extern && n.init_begin != npos) return false;
                // `k[]` takes its size from the initialiser.
                if (!d.is_extern && p.dims.find("[]") != npos && n.init_begin == npos) return false;
            }
        }
        return true;
    }

    void emit_declaration(const Declaration& d) {
        if (!rewritable(d)) return;
        copy_to(toks_[d.first].begin);
        for (std::size_t k = 0; k < d.names.size(); ++k) {
            const Declarator& n = d.names[k];
            // Each name's code goes on its name's line; the lines a piece spans stay (an
            // initialiser is copied with its own).
            const std::size_t init_lines =
                n.init_begin == npos ? 0 : newlines(n.init_begin, n.init_end);
            out_.append(newlines(n.piece, n.name), '\n');
            if (k > 0) out_ += ' ';
            const Parts p = parts(d, n);
            if (d.space == Declaration::Space::shared) emit_shared(d, p);
            else emit_symbol(d, p);
            out_.append(newlines(n.name, n.end) - init_lines, '\n');
        }
        copied_ = toks_[d.end].end;
    }

    void emit_shared(const Declaration& d, const Parts& p) {
        if (d.is_extern && !in_function()) {
            out_ += "[[maybe_unused]] static constexpr ::simt::sim::detail::ExternShared<" +
                    p.type + "> " + p.name + "{};";
        } else if (d.is_extern) {
            out_ += p.type + "* const " + p.name + " = ::simt::sim::detail::extern_shared<" +
                    p.type + ">();";
        } else {
            const std::string storage = "simt_shared_" + p.name + "_";
            out_ += "static thread_local ::simt::sim::detail::SharedDecl<" + p.type + p.dims +
                    "> " + storage + "{::simt::sim::Loc::current(), \"" + p.name + "\"}; " +
                    p.type + "(&" + p.name + ")" + p.dims + " = " + storage + ".array();";
        }
    }

    void emit_symbol(const Declaration& d, const Parts& p) {
        if (d.is_extern) {  // the reference the defining file makes, by its name
            out_ += "extern " + p.type + "(&" + p.name + ")" + p.dims + ";";
            return;
        }
        const std::string linkage = d.is_static ? "static " : "";
        const std::string storage = "simt_symbol_" + p.name + "_";
        std::string type = p.type + "(&" + p.name + ")" + p.dims;
        std::string array = p.type + p.dims;
        std::string init;
        if (!p.init.empty()) {  // the initialiser's own object first, so that `k[]` gets its size
            const std::string init_name = "simt_init_" + p.name + "_";
            out_ += "static " + p.type + init_name + p.dims + p.init + "; ";
            array = "decltype(" + init_name + ")";
            type = array + "& " + p.name;
            // A volatile object's address converts to `const void*` only by a cast.
            init = p.volatile_type ? ", (const void*)&" + init_name : ", &" + init_name;
        }
        out_ += linkage + "::simt::sim::detail::SymbolDecl<" + array + "> " + storage +
                "{::simt::sim::detail::Space::" +
                (d.space == Declaration::Space::constant ? "constant" : "global") + ", " +
                (d.managed ? "true" : "false") + ", ::simt::sim::Loc::current(), \"" + p.name +
                "\"" + init + "}; " + linkage + type + " = " + storage + ".get();";
    }

    Found fail(std::size_t at, std::string_view message) {
        std::size_t line = 1;
        std::size_t line_start = 0;
        for (std::size_t i = 0; i < at && i < s_.size(); ++i) {
            if (s_[i] == '\n') ++line, line_start = i + 1;
        }
        error_ = std::to_string(line) + ":" + std::to_string(at - line_start + 1) + ": ";
        error_ += message;
        return Found::error;
    }

    std::string_view s_;
    std::vector<Token> toks_;
    std::vector<bool> dropped_;  // specifier tokens a declaration's rewritten text leaves out
    std::vector<std::size_t> marked_;  // where dropped_ is true
    std::string out_;
    std::size_t copied_ = 0;     // s_[copied_..] is not yet in out_
    std::string error_;
    std::vector<bool> scopes_;   // open braces: true where a namespace opened it
};

}  // namespace

Rewritten rewrite_launches(std::string_view source) { return Parser(source).run(); }

}  // namespace simt::cudafe
