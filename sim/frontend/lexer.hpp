// The front end's tokenizer: the one forward pass that tells code from comments and literals.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace simt::cudafe {

enum class Kind : unsigned char {
    blank,    // spaces, newlines and line continuations
    comment,  // `// ...` or `/* ... */`
    word,     // an identifier or keyword
    number,   // a preprocessing number: 1'000, 0x1F, 1.5e-3f
    literal,  // a string, raw string or character literal, with its prefix
    punct,    // `<<<`, `>>>`, `<<`, `>>`, `::`, `->`, or one character
};

// Where a token lies: in code, in the body of a #define (whose launches are rewritten, since
// the macro expands to code), or on another preprocessor line (left alone).
enum class Ctx : unsigned char { code, define, directive };

struct Token {
    Kind kind;
    Ctx ctx;
    std::size_t begin, end;  // [begin, end) in the source
};

// Splits the source into tokens that cover it whole, in order, so that the parser never reads a
// comment or a literal as code, nor code as a comment. Linear in the source's size.
std::vector<Token> tokenize(std::string_view source);

}  // namespace simt::cudafe
