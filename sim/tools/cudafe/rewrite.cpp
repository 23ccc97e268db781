// The launch rewriter: a lexer just deep enough to know what is code, and the launch parser.
#include "rewrite.hpp"

#include <cstddef>
#include <string>
#include <vector>
#include <string_view>

namespace simt::cudafe {

namespace {

constexpr std::size_t npos = std::string_view::npos;

bool is_ident_char(char ch) {
    const auto c = static_cast<unsigned char>(ch);
    // Bytes >= 0x80 are UTF-8 in identifiers; `$` is an identifier character in GCC and Clang.
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '$' || c >= 0x80;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

// Reads the source a lexical element at a time, so that `<<<` is only ever seen in code.
class Lexer {
public:
    explicit Lexer(std::string_view src) : s_(src), n_(src.size()) {}

    char at(std::size_t i) const { return i < n_ ? s_[i] : '\0'; }

    // The end of the element at i: a comment, a literal, an identifier, a number, or one
    // character of punctuation or space.
    std::size_t skip(std::size_t i) const {
        const char c = s_[i];
        if (c == '/' && at(i + 1) == '/') return skip_line_comment(i + 2);
        if (c == '/' && at(i + 1) == '*') {
            const std::size_t end = s_.find("*/", i + 2);
            return end == npos ? n_ : end + 2;
        }
        if (c == '"' || c == '\'') return skip_quoted(i);
        if (is_digit(c) || (c == '.' && is_digit(at(i + 1)))) return skip_number(i);
        if (is_ident_char(c)) return skip_identifier(i);
        return i + 1;
    }

    // Past spaces, line continuations and comments, from i on.
    std::size_t skip_blank(std::size_t i) const {
        while (i < n_) {
            if (is_space(s_[i])) {
                ++i;
            } else if (std::size_t after = continuation_end(i); after != i) {
                i = after;
            } else if (s_[i] == '/' && (at(i + 1) == '/' || at(i + 1) == '*')) {
                i = skip(i);
            } else {
                break;
            }
        }
        return i;
    }

    // Back over spaces and line continuations that end at `end`; comments are not looked for,
    // since a `//` comment cannot be recognised from its end.
    std::size_t skip_space_back(std::size_t end, std::size_t floor) const {
        while (end > floor) {
            const char c = s_[end - 1];
            if (is_space(c)) {
                --end;
            } else if (c == '\\' && (at(end) == '\n' || at(end) == '\r')) {
                --end;
            } else {
                break;
            }
        }
        return end;
    }

private:
    // A backslash that ends its line joins the next line to it (also in a `//` comment).
    std::size_t continuation_end(std::size_t i) const {
        if (at(i) != '\\') return i;
        if (at(i + 1) == '\n') return i + 2;
        if (at(i + 1) == '\r' && at(i + 2) == '\n') return i + 3;
        return i;
    }

    std::size_t skip_line_comment(std::size_t i) const {
        while (i < n_ && s_[i] != '\n') {
            const std::size_t after = continuation_end(i);
            i = after != i ? after : i + 1;
        }
        return i;
    }

    // A string or character literal from its opening quote. An unterminated one ends at its
    // line's end, as the compiler's lexer ends it, so a stray `'` in `#error don't` is harmless.
    std::size_t skip_quoted(std::size_t i) const {
        const char quote = s_[i];
        for (++i; i < n_; ++i) {
            if (s_[i] == '\\') {
                const std::size_t after = continuation_end(i);
                i = after != i ? after - 1 : i + 1;
            } else if (s_[i] == quote) {
                return i + 1;
            } else if (s_[i] == '\n') {
                return i;
            }
        }
        return n_;
    }

    // R"delim( ... )delim" from its opening quote; without a valid delimiter it is read as a
    // plain string.
    std::size_t skip_raw(std::size_t quote) const {
        constexpr std::size_t max_delim = 16;
        const std::size_t open = s_.substr(0, quote + 2 + max_delim).find('(', quote + 1);
        if (open == npos) return skip_quoted(quote);
        const std::string_view delim = s_.substr(quote + 1, open - quote - 1);
        for (char c : delim) {
            if (is_space(c) || c == ')' || c == '\\' || c == '"') return skip_quoted(quote);
        }
        const std::string close = ")" + std::string(delim) + "\"";
        const std::size_t end = s_.find(close, open + 1);
        return end == npos ? n_ : end + close.size();
    }

    // A preprocessing number: digits, letters, `.`, exponent signs, and `'` digit separators,
    // so that the `'` of 1'000'000 opens no character literal.
    std::size_t skip_number(std::size_t i) const {
        ++i;
        while (i < n_) {
            const char c = s_[i];
            if ((c == 'e' || c == 'E' || c == 'p' || c == 'P') &&
                (at(i + 1) == '+' || at(i + 1) == '-')) {
                i += 2;
            } else if (is_ident_char(c) || c == '.') {
                ++i;
            } else if (c == '\'' && is_ident_char(at(i + 1))) {
                i += 2;
            } else {
                break;
            }
        }
        return i;
    }

    // An identifier, with the literal it prefixes: u8'a', L"wide", uR"x(raw)x".
    std::size_t skip_identifier(std::size_t i) const {
        const std::size_t begin = i;
        while (i < n_ && is_ident_char(s_[i])) ++i;
        const std::string_view word = s_.substr(begin, i - begin);
        const char next = at(i);
        if (next == '"' && (word == "R" || word == "u8R" || word == "uR" || word == "UR" ||
                            word == "LR")) {
            return skip_raw(i);
        }
        if ((next == '"' || next == '\'') &&
            (word == "u8" || word == "u" || word == "U" || word == "L")) {
            return skip_quoted(i);
        }
        return i;
    }

    std::string_view s_;
    std::size_t n_;
};

// Where the parts of one launch lie; blanks may come before <<< and after >>>.
//   EXPR   <<< CFG >>>   ( ARGS )
//   ^expr  ^lt     ^gt           ^end
struct Launch {
    std::size_t expr, lt, gt, end;
};

// One `__shared__` declaration: [begin, end) is replaced, `;` included.
//   extern volatile __shared__ float  s [];
//   ^begin                     ^type ^name ^dims
struct SharedDecl {
    std::size_t begin = 0, end = 0;
    bool is_extern = false, at_namespace_scope = false;
    std::string quals;  // "volatile " / "const "
    std::string type, name, dims;
    std::size_t newlines = 0;
};

// One namespace-scope `__device__` / `__constant__` / `__managed__` variable: [begin, end) is
// replaced, `;` included; the initialiser [init_begin, init_end) is copied as written.
//   static __constant__ float  k [4] = {1, 2, 3, 4};
//   ^begin              ^type ^name ^dims ^init
struct SymbolDecl {
    std::size_t begin = 0, end = 0, init_begin = 0, init_end = 0;
    bool is_static = false, is_constant = false, is_managed = false;
    std::string type, name, dims;
    std::size_t newlines = 0;
};

class Parser {
public:
    explicit Parser(std::string_view src) : s_(src), lex_(src) {}

    Rewritten run() {
        std::string out;
        out.reserve(s_.size() + s_.size() / 8);
        std::size_t copied = 0;  // s_[copied..] is not yet in out
        std::size_t i = 0;
        while (i < s_.size()) {
            if (s_[i] == '{') {
                scopes_.push_back(opens_namespace(i));
            } else if (s_[i] == '}' && !scopes_.empty()) {
                scopes_.pop_back();
            } else if (const std::size_t n = symbol_keyword(i); n && !in_function()) {
                SymbolDecl d{};
                if (parse_symbol(i, n, copied, d)) {
                    out.append(s_.substr(copied, d.begin - copied));
                    emit_symbol(out, d);
                    copied = i = d.end;
                    continue;
                }
                i += n;
                continue;
            } else if (s_.compare(i, 10, "__shared__") == 0 && lex_.skip(i) == i + 10 &&
                       (i == 0 || !is_ident_char(s_[i - 1]))) {
                SharedDecl d{};
                if (parse_shared(i, copied, d)) {
                    out.append(s_.substr(copied, d.begin - copied));
                    emit_shared(out, d);
                    copied = i = d.end;
                    continue;
                }
            } else if (is_ident_char(s_[i]) && !is_digit(s_[i]) &&
                       (i == 0 || !is_ident_char(s_[i - 1]))) {
                const std::size_t end = lex_.skip(i);
                const std::string_view word = s_.substr(i, end - i);
                if (word == "cudaLaunchKernel" || word == "cudaLaunchCooperativeKernel")
                    drop_kernel_cast(end, out, copied);
                i = end;
                continue;
            }
            if (s_.compare(i, 3, "<<<") != 0) {
                i = lex_.skip(i);
                continue;
            }
            Launch l{};
            switch (parse(i, copied, l)) {
                case Found::launch: break;
                case Found::not_a_launch: i += 3; continue;
                case Found::error: return {{}, error_};
            }
            out.append(s_.substr(copied, l.expr - copied));
            emit(out, l);
            copied = i = l.end;
        }
        out.append(s_.substr(copied));
        return {std::move(out), {}};
    }

private:
    enum class Found { launch, not_a_launch, error };

    Found parse(std::size_t lt, std::size_t floor, Launch& l) {
        l.lt = lt;
        const std::size_t expr_end = lex_.skip_space_back(lt, floor);
        const std::size_t expr = kernel_begin(lt, expr_end, floor);
        if (expr == npos) return Found::error;
        // `operator<<<T>(...)` names operator<< with template arguments.
        const std::string_view name = s_.substr(expr, expr_end - expr);
        if (name.ends_with("operator") &&
            (name.size() == 8 || !is_ident_char(name[name.size() - 9]))) {
            return Found::not_a_launch;
        }
        const std::size_t before = lex_.skip_space_back(expr, floor);
        // (A `.` that ends a comment on the line above is no member access.)
        const bool member = before > floor && is_code(before - 1, before) &&
                            (s_[before - 1] == '.' || (s_[before - 1] == '>' && before >= floor + 2 &&
                                                       s_[before - 2] == '-'));
        if (member) {
            return fail(lt, "the kernel before <<< must be a name such as k, ns::k or k<T>, not "
                            "a member access");
        }
        l.expr = expr;

        // CFG: up to the first `>>>` outside brackets. A `;`, a stray closing bracket or
        // another `<<<` first means this launch was never closed.
        int depth = 0;
        std::size_t i = lt + 3;
        for (;;) {
            if (i >= s_.size()) return fail(lt, "<<< has no matching >>>");
            const char c = s_[i];
            if (depth == 0 && s_.compare(i, 3, ">>>") == 0) break;
            if (s_.compare(i, 3, "<<<") == 0) return fail(lt, "<<< has no matching >>>");
            if (c == '(' || c == '[' || c == '{') {
                ++depth;
            } else if (c == ')' || c == ']' || c == '}') {
                if (depth == 0) return fail(lt, "<<< has no matching >>>");
                --depth;
            } else if (c == ';' && depth == 0) {
                return fail(lt, "<<< has no matching >>>");
            }
            i = lex_.skip(i);
        }
        l.gt = i;

        const std::size_t args = lex_.skip_blank(l.gt + 3);
        if (args >= s_.size() || s_[args] != '(') {
            return fail(lt, "the launch's >>> is not followed by its arguments in (...)");
        }
        depth = 0;
        for (i = args; i < s_.size(); i = lex_.skip(i)) {
            const char c = s_[i];
            if (c == '(' || c == '[' || c == '{') {
                ++depth;
            } else if ((c == ')' || c == ']' || c == '}') && --depth == 0) {
                l.end = i + 1;
                return Found::launch;
            }
        }
        return fail(lt, "the launch's arguments have no closing )");
    }

    // The start of EXPR, which ends at `end`: names, `::` and template argument lists, read
    // backwards. npos (with error_ set) when no name is there.
    std::size_t kernel_begin(std::size_t lt, std::size_t end, std::size_t floor) {
        std::size_t i = end;
        for (;;) {
            if (i > floor && s_[i - 1] == '>') {
                i = template_begin(i, floor);
                if (i == npos) {
                    fail(lt, "the template arguments before <<< are not balanced");
                    return npos;
                }
                i = lex_.skip_space_back(i, floor);
            }
            const std::size_t name_end = i;
            while (i > floor && is_ident_char(s_[i - 1])) --i;
            if (i == name_end || is_digit(s_[i])) {
                fail(lt, "<<< must follow the kernel's name");
                return npos;
            }
            if (i >= floor + 2 && s_[i - 1] == ':' && s_[i - 2] == ':') {
                i -= 2;
                if (i > floor && (is_ident_char(s_[i - 1]) || s_[i - 1] == '>')) continue;
            }
            return i;
        }
    }

    // The `<` that opens the template argument list whose `>` ends at `end`; parenthesised and
    // bracketed parts are skipped whole, so `k<(a > b)>` and `reduce<256, Op<int>>` work.
    std::size_t template_begin(std::size_t end, std::size_t floor) const {
        int angles = 0;
        int parens = 0;
        for (std::size_t i = end; i > floor;) {
            const char c = s_[--i];
            if (c == ')' || c == ']') {
                ++parens;
            } else if (c == '(' || c == '[') {
                if (--parens < 0) return npos;
            } else if (c == ';' || c == '{' || c == '}') {
                return npos;
            } else if (parens == 0 && c == '>') {
                ++angles;
            } else if (parens == 0 && c == '<' && --angles == 0) {
                return i;
            }
        }
        return npos;
    }

    void emit(std::string& out, const Launch& l) const {
        const auto part = [&](std::size_t from, std::size_t to) {
            return s_.substr(from, to - from);
        };
        out += "::simt::detail::cuda_launch(";
        out += part(l.lt + 3, l.gt);
        out += ")([&](auto... simt_arg_) { return [=]() { ";
        // The blanks around <<< and >>> keep their places (after EXPR, before ARGS), so that a
        // launch split over lines keeps its line count.
        out += part(l.expr, l.lt);
        out += "(simt_arg_...); }; }";
        out += part(l.gt + 3, l.end);
        out += ")";
    }

    // --- cudaLaunchKernel((void*)kernel, ...) ----------------------------------------------

    // The end of `token` at i (after blanks), or npos; a word must end there.
    std::size_t token_end(std::size_t i, std::string_view token) const {
        i = lex_.skip_blank(i);
        if (s_.compare(i, token.size(), token) != 0) return npos;
        const std::size_t end = i + token.size();
        if (is_ident_char(token.back()) && is_ident_char(at_char(end))) return npos;
        return end;
    }

    // The end of a cast to `void*` at i: `(void*)`, `(const void *)`, `reinterpret_cast<void*>`.
    std::size_t void_cast_end(std::size_t i) const {
        std::size_t j = token_end(i, "(");
        const bool c_style = j != npos;
        if (!c_style) {
            j = token_end(i, "reinterpret_cast");
            if (j == npos || (j = token_end(j, "<")) == npos) return npos;
        }
        if (const std::size_t after_const = token_end(j, "const"); after_const != npos) j = after_const;
        if ((j = token_end(j, "void")) == npos || (j = token_end(j, "*")) == npos) return npos;
        return token_end(j, c_style ? ")" : ">");
    }

    // The first argument of cudaLaunchKernel / cudaLaunchCooperativeKernel (whose name ends at
    // `name_end`) loses a cast to void*, replaced by blanks: the simulator's overloads need the
    // kernel's own type to read its arguments from void* args[]. Lines and columns stay.
    void drop_kernel_cast(std::size_t name_end, std::string& out, std::size_t& copied) const {
        const std::size_t open = token_end(name_end, "(");
        if (open == npos) return;
        const std::size_t cast = lex_.skip_blank(open);
        const std::size_t end = void_cast_end(cast);
        if (end == npos) return;
        out.append(s_.substr(copied, cast - copied));
        for (std::size_t k = cast; k < end; ++k) out += s_[k] == '\n' ? '\n' : ' ';
        copied = end;
    }

    // --- __shared__ declarations ------------------------------------------------------------

    // Whether the `{` at i opens a namespace (`namespace a::b {`, `namespace {`), read backwards
    // over the names between.
    bool opens_namespace(std::size_t brace) const {
        std::size_t i = lex_.skip_space_back(brace, 0);
        while (i > 0 && (is_ident_char(s_[i - 1]) || s_[i - 1] == ':')) {
            const std::size_t end = i;
            while (i > 0 && (is_ident_char(s_[i - 1]) || s_[i - 1] == ':')) --i;
            if (s_.substr(i, end - i) == "namespace") return true;
            i = lex_.skip_space_back(i, 0);
        }
        return false;
    }

    bool in_function() const {
        for (bool ns : scopes_)
            if (!ns) return true;
        return false;
    }

    // Reads the declaration around the `__shared__` at `at`: its qualifiers before, the type,
    // one name and its extents up to the `;`. Anything else (an initialiser, several names, a
    // declarator in parentheses, a namespace-scope array) is left to the `__shared__` macro.
    bool parse_shared(std::size_t at, std::size_t floor, SharedDecl& d) {
        // Qualifiers before it: `extern`, `static`, `volatile`, `const`.
        std::size_t begin = at;
        for (;;) {
            const std::size_t end = lex_.skip_space_back(begin, floor);
            std::size_t w = end;
            while (w > floor && is_ident_char(s_[w - 1])) --w;
            const std::string_view word = s_.substr(w, end - w);
            if (!is_code(w, end)) break;
            if (word == "extern") d.is_extern = true;
            else if (word == "volatile" || word == "const") d.quals += std::string(word) + " ";
            else if (word != "static") break;
            begin = w;
        }
        d.begin = begin;
        // The rest, to the `;`, without __align__(...) / alignas(...) (arena memory is aligned
        // to a page already).
        std::string decl;
        std::size_t bracket = npos;  // where the extents start in decl
        int depth = 0;
        std::size_t i = at + 10;
        for (;; ) {
            if (i >= s_.size()) return false;
            const char c = s_[i];
            if (depth == 0 && c == ';') break;
            if (c == '{' || c == '}' || c == '=') return false;
            if (depth == 0 && c == ',') return false;
            const std::size_t next = lex_.skip(i);
            const std::string_view tok = s_.substr(i, next - i);
            if (tok == "__align__" || tok == "alignas") {
                i = past_parentheses(next);
                if (i == npos) return false;
                decl += ' ';
                continue;
            }
            if (c == '[' && depth == 0 && bracket == npos) bracket = decl.size();
            if (c == '(' || c == '[' || c == '<') ++depth;
            if (c == ')' || c == ']' || c == '>') --depth;
            if (c == '\n') ++d.newlines;
            if (tok.size() >= 2 && (tok[0] == '/')) {  // a comment: keep its newlines only
                for (char ch : tok) d.newlines += ch == '\n';
                decl += ' ';
            } else {
                decl += is_space(c) ? std::string(" ") : std::string(tok);
            }
            i = next;
        }
        d.end = i + 1;
        if (!split_declarator(decl, bracket, d.type, d.name, d.dims) || d.type.find('(') != npos)
            return false;
        // simt::shared<T[N]> keeps its own per-block storage: it needs only the macro.
        if (d.type.find("shared<") != npos || d.type.find("shared <") != npos) return false;
        if (d.is_extern) {
            if (d.dims != "[]") return false;
            d.at_namespace_scope = !in_function();
            return true;
        }
        return in_function();  // a namespace-scope __shared__ has no block to belong to yet
    }

    void emit_shared(std::string& out, const SharedDecl& d) const {
        const std::string name(d.name);
        if (d.is_extern && d.at_namespace_scope) {
            out += "[[maybe_unused]] static constexpr ::simt::sim::detail::ExternShared<" + d.quals +
                   d.type + "> " + name + "{};";
        } else if (d.is_extern) {
            out += d.quals + d.type + "* const " + name + " = ::simt::sim::detail::extern_shared<" +
                   d.quals + d.type + ">();";
        } else {
            const std::string storage = "simt_shared_" + name + "_";
            out += "static thread_local ::simt::sim::detail::SharedDecl<" + d.type + d.dims + "> " +
                   storage + "{::simt::sim::Loc::current(), \"" + name + "\"}; " + d.quals +
                   d.type + "(&" + name + ")" + d.dims + " = " + storage + ".array();";
        }
        out.append(d.newlines, '\n');
    }

    // --- Declarations: what __shared__ and device variables share ------------------------------

    // Past the parenthesised arguments of `__align__(8)` / `alignas(T)` that start after `at`;
    // npos when there are none.
    std::size_t past_parentheses(std::size_t at) const {
        const std::size_t open = lex_.skip_blank(at);
        if (at_char(open) != '(') return npos;
        int paren = 0;
        std::size_t i = open;
        for (; i < s_.size(); i = lex_.skip(i)) {
            if (s_[i] == '(') ++paren;
            else if (s_[i] == ')' && --paren == 0) break;
        }
        return lex_.skip(i);
    }

    // TYPE NAME DIMS of a declaration read as `decl` (its extents start at `bracket`, or npos):
    // the name is the last identifier before the first `[` (or the end). False when there is no
    // type or no name.
    static bool split_declarator(const std::string& decl, std::size_t bracket, std::string& type,
                                 std::string& name, std::string& dims) {
        bracket = std::min(bracket, decl.size());
        std::size_t name_end = bracket;
        while (name_end > 0 && is_space(decl[name_end - 1])) --name_end;
        std::size_t name_begin = name_end;
        while (name_begin > 0 && is_ident_char(decl[name_begin - 1])) --name_begin;
        name = decl.substr(name_begin, name_end - name_begin);
        type = decl.substr(0, name_begin);
        dims = bracket < decl.size() ? decl.substr(bracket) : "";
        while (!dims.empty() && is_space(dims.back())) dims.pop_back();
        return !name.empty() && !is_digit(name[0]) && type.find_first_not_of(' ') != npos;
    }

    // --- __device__ / __constant__ / __managed__ variables -----------------------------------

    // Whether s_[from, end) is code, read backwards: not on a preprocessor line (`#include <a>`
    // ends in `>`) and not after a `//` or `/*` on its line (a comment may say `static`).
    bool is_code(std::size_t from, std::size_t end) const {
        std::size_t line = s_.rfind('\n', from == 0 ? 0 : from - 1);
        line = line == npos ? 0 : line + 1;
        const std::string_view before = s_.substr(line, end - line);
        const std::size_t first = before.find_first_not_of(" \t");
        return (first == npos || before[first] != '#') && before.find("//") == npos &&
               before.find("/*") == npos && before.find("*/") == npos;
    }

    // The length of the variable keyword that starts at i, or 0.
    std::size_t symbol_keyword(std::size_t i) const {
        if (i > 0 && is_ident_char(s_[i - 1])) return 0;
        for (std::string_view k : {"__device__", "__constant__", "__managed__"})
            if (s_.compare(i, k.size(), k) == 0 && lex_.skip(i) == i + k.size()) return k.size();
        return 0;
    }

    // Reads a namespace-scope variable declaration around the keyword at `at`: specifiers, the
    // type, one name, its extents and an optional `= initialiser` up to the `;`. Functions (a
    // `(` before the name), templates, `extern` declarations, several names, brace
    // initialisers without `=` and objects that are themselves const (usable in constant
    // expressions, so they must stay what they are) keep the macros: plain host globals.
    bool parse_symbol(std::size_t at, std::size_t keyword, std::size_t floor, SymbolDecl& d) {
        const auto mark = [&](std::string_view word) {
            if (word == "__constant__") d.is_constant = true;
            else if (word == "__managed__") d.is_managed = true;
            else return word == "__device__";
            return true;
        };
        mark(s_.substr(at, keyword));
        std::size_t begin = at;
        for (;;) {
            const std::size_t end = lex_.skip_space_back(begin, floor);
            std::size_t w = end;
            while (w > floor && is_ident_char(s_[w - 1])) --w;
            const std::string_view word = s_.substr(w, end - w);
            if (!is_code(w == end && end > floor ? end - 1 : w, end)) break;
            if (word == "static") d.is_static = true;
            else if (word.empty() || !mark(word)) {
                // `template <...> __device__ T x;` and `extern __device__ int x;` stay as written.
                if (word == "extern" || (end > floor && s_[end - 1] == '>')) return false;
                if (word == "const" || word == "constexpr" || word == "volatile") return false;
                break;
            }
            begin = w;
        }
        d.begin = begin;
        std::string decl;
        std::size_t bracket = npos;
        int depth = 0;
        std::size_t i = at + keyword;
        for (;;) {
            if (i >= s_.size()) return false;
            const char c = s_[i];
            if (depth == 0 && (c == ';' || c == '=')) break;
            if (c == '{' || c == '}' || c == '(' || (depth == 0 && c == ',')) return false;
            const std::size_t next = lex_.skip(i);
            const std::string_view tok = s_.substr(i, next - i);
            if (tok == "__align__" || tok == "alignas") {  // the arena aligns to a page already
                i = past_parentheses(next);
                if (i == npos) return false;
                decl += ' ';
                continue;
            }
            if (tok == "const" || tok == "constexpr") return false;
            if (c == '[' && depth == 0 && bracket == npos) bracket = decl.size();
            if (c == '[' || c == '<') ++depth;
            if (c == ']' || c == '>') --depth;
            if (tok.size() >= 2 && tok[0] == '/') {  // a comment: keep its newlines only
                for (char ch : tok) d.newlines += ch == '\n';
                decl += ' ';
            } else if (is_space(c)) {
                d.newlines += c == '\n';
                decl += ' ';
            } else if (!mark(tok)) {
                decl += tok;
            } else {
                decl += ' ';
            }
            i = next;
        }
        if (s_[i] == '=') {
            d.init_begin = i + 1;
            for (i = d.init_begin, depth = 0; i < s_.size(); i = lex_.skip(i)) {
                const char c = s_[i];
                if (depth == 0 && (c == ';' || c == ',')) break;
                if (c == '(' || c == '[' || c == '{') ++depth;
                if (c == ')' || c == ']' || c == '}') --depth;
            }
            if (at_char(i) != ';') return false;
            d.init_end = i;
        }
        d.end = i + 1;
        if (!split_declarator(decl, bracket, d.type, d.name, d.dims)) return false;
        return d.dims.find("[]") == npos || d.init_end;  // `k[]` takes its size from the initialiser
    }

    void emit_symbol(std::string& out, const SymbolDecl& d) const {
        const std::string linkage = d.is_static ? "static " : "";
        const std::string storage = "simt_symbol_" + d.name + "_";
        std::string type = d.type + "(&" + d.name + ")" + d.dims;
        std::string array = d.type + d.dims;
        std::string init;
        if (d.init_end) {  // the initialiser's own object first, so that `k[]` gets its size
            const std::string init_name = "simt_init_" + d.name + "_";
            out += "static " + d.type + init_name + d.dims + " =";
            out.append(s_.substr(d.init_begin, d.init_end - d.init_begin));
            out += "; ";
            array = "decltype(" + init_name + ")";
            type = array + "& " + d.name;
            init = ", &" + init_name;
        }
        out += linkage + "::simt::sim::detail::SymbolDecl<" + array + "> " + storage +
               "{::simt::sim::detail::Space::" + (d.is_constant ? "constant" : "global") + ", " +
               (d.is_managed ? "true" : "false") + ", ::simt::sim::Loc::current(), \"" + d.name +
               "\"" + init + "}; " + linkage + type + " = " + storage + ".get();";
        out.append(d.newlines, '\n');
    }

    char at_char(std::size_t i) const { return i < s_.size() ? s_[i] : '\0'; }

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
    Lexer lex_;
    std::string error_;
    std::vector<bool> scopes_;  // open braces: true where a namespace opened it
};

}  // namespace

Rewritten rewrite_launches(std::string_view source) { return Parser(source).run(); }

}  // namespace simt::cudafe
