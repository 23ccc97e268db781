// The front end's tokenizer: splits a .cu once, forward, into the tokens the rewriter reads.
#include "lexer.hpp"

#include <string>

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

// A class only so that its skip_* helpers, one for each kind of token, share the source.
class Lexer {
public:
    explicit Lexer(std::string_view src) : s_(src), n_(src.size()) {}

    std::vector<Token> run() {
        std::vector<Token> out;
        out.reserve(n_ / 3 + 1);
        bool line_start = true;  // only blanks and comments since the last newline
        Ctx ctx = Ctx::code;
        std::size_t i = 0;
        while (i < n_) {
            const char c = s_[i];
            Kind kind = Kind::punct;
            std::size_t end = i + 1;
            bool ends_directive = false;
            if (is_space(c) || continuation_end(i) != i) {
                kind = Kind::blank;
                for (end = i; end < n_;) {
                    if (const std::size_t after = continuation_end(end); after != end) {
                        end = after;
                    } else if (is_space(s_[end])) {
                        if (s_[end++] != '\n') continue;
                        line_start = true;
                        // A directive ends at the first newline no backslash joins.
                        if (ctx != Ctx::code) {
                            ends_directive = true;
                            break;
                        }
                    } else {
                        break;
                    }
                }
            } else if (c == '/' && at(i + 1) == '/') {
                kind = Kind::comment;
                end = skip_line_comment(i + 2);
            } else if (c == '/' && at(i + 1) == '*') {
                kind = Kind::comment;
                const std::size_t close = s_.find("*/", i + 2);
                end = close == npos ? n_ : close + 2;
            } else if (c == '#' && line_start && ctx == Ctx::code) {
                ctx = directive_name(i + 1) == "define" ? Ctx::define : Ctx::directive;
            } else if (c == '"' || c == '\'') {
                kind = Kind::literal;
                end = skip_quoted(i);
            } else if (is_digit(c) || (c == '.' && is_digit(at(i + 1)))) {
                kind = Kind::number;
                end = skip_number(i);
            } else if (is_ident_char(c)) {
                end = skip_identifier(i, kind);
            } else {
                end = i + punct_size(i);
            }
            if (kind != Kind::blank && kind != Kind::comment) line_start = false;
            out.push_back({kind, ctx, i, end});
            if (ends_directive) ctx = Ctx::code;
            i = end;
        }
        return out;
    }

private:
    char at(std::size_t i) const { return i < n_ ? s_[i] : '\0'; }

    // A backslash that ends its line joins the next line to it (also in a `//` comment).
    std::size_t continuation_end(std::size_t i) const {
        if (at(i) != '\\') return i;
        if (at(i + 1) == '\n') return i + 2;
        if (at(i + 1) == '\r' && at(i + 2) == '\n') return i + 3;
        return i;
    }

    // The word after a directive's `#` (`define`, `include`, ...), spaces allowed between.
    std::string_view directive_name(std::size_t i) const {
        while (i < n_ && (s_[i] == ' ' || s_[i] == '\t')) ++i;
        const std::size_t begin = i;
        while (i < n_ && is_ident_char(s_[i])) ++i;
        return s_.substr(begin, i - begin);
    }

    // The punctuation the parser tells apart; any other character is a token of its own.
    std::size_t punct_size(std::size_t i) const {
        for (std::string_view p : {"<<<", ">>>", "<<", ">>", "::", "->"})
            if (s_.compare(i, p.size(), p) == 0) return p.size();
        return 1;
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

    // An identifier, or the literal it prefixes: u8'a', L"wide", uR"x(raw)x".
    std::size_t skip_identifier(std::size_t i, Kind& kind) const {
        const std::size_t begin = i;
        while (i < n_ && is_ident_char(s_[i])) ++i;
        const std::string_view word = s_.substr(begin, i - begin);
        const char next = at(i);
        kind = Kind::literal;
        if (next == '"' && (word == "R" || word == "u8R" || word == "uR" || word == "UR" ||
                            word == "LR")) {
            return skip_raw(i);
        }
        if ((next == '"' || next == '\'') &&
            (word == "u8" || word == "u" || word == "U" || word == "L")) {
            return skip_quoted(i);
        }
        kind = Kind::word;
        return i;
    }

    std::string_view s_;
    std::size_t n_;
};

}  // namespace

std::vector<Token> tokenize(std::string_view source) { return Lexer(source).run(); }

}  // namespace simt::cudafe
