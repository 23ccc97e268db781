// The front end's tokenizer (sim/frontend/lexer.hpp) alone: what the rewriter may take for code.
#include <catch2/catch.hpp>
#include <frontend/lexer.hpp>

#include <string>
#include <vector>

using simt::cudafe::Ctx;
using simt::cudafe::Kind;
using simt::cudafe::Token;
using simt::cudafe::tokenize;

namespace {

std::string text_of(const std::string& source, const Token& t) {
    return source.substr(t.begin, t.end - t.begin);
}

const char* name_of(Kind kind) {
    switch (kind) {
        case Kind::blank: return "blank";
        case Kind::comment: return "comment";
        case Kind::word: return "word";
        case Kind::number: return "number";
        case Kind::literal: return "literal";
        case Kind::punct: return "punct";
    }
    return "?";
}

// Each token as `kind:text`, so that a test spells out where every token ends.
std::vector<std::string> tokens(const std::string& source) {
    std::vector<std::string> out;
    for (const Token& t : tokenize(source))
        out.push_back(name_of(t.kind) + (":" + text_of(source, t)));
    return out;
}

// The text of the tokens that lie in `ctx`, in order.
std::string text_in(const std::string& source, Ctx ctx) {
    std::string out;
    for (const Token& t : tokenize(source))
        if (t.ctx == ctx) out += text_of(source, t);
    return out;
}

// Every token's text, in order.
std::string joined(const std::string& source) {
    std::string out;
    for (const Token& t : tokenize(source)) out += text_of(source, t);
    return out;
}

}  // namespace

TEST_CASE("A comment holding <<< is one comment token", "[lexer]") {
    CHECK(tokens("k /* <<<1, 1>>> */ (x);") ==
          std::vector<std::string>{"word:k", "blank: ", "comment:/* <<<1, 1>>> */",
                                   "blank: ", "punct:(", "word:x", "punct:)", "punct:;"});
    CHECK(tokens("// k<<<1, 1>>>(x);\nk") ==
          std::vector<std::string>{"comment:// k<<<1, 1>>>(x);", "blank:\n", "word:k"});
}

TEST_CASE("A raw string literal holding __shared__ is one token, up to its own delimiter",
          "[lexer]") {
    CHECK(tokens("auto s = R\"x(__shared__ int t[4]; )\" )x\";") ==
          std::vector<std::string>{"word:auto", "blank: ", "word:s", "blank: ", "punct:=",
                                   "blank: ", "literal:R\"x(__shared__ int t[4]; )\" )x\"",
                                   "punct:;"});
}

TEST_CASE("A digit separator is part of its number, not a character literal", "[lexer]") {
    CHECK(tokens("n = 1'000'000;") ==
          std::vector<std::string>{"word:n", "blank: ", "punct:=", "blank: ", "number:1'000'000",
                                   "punct:;"});
}

TEST_CASE("A #define line's tokens are its body while another preprocessor line's are left alone",
          "[lexer]") {
    const std::string source = "#define K \\\n  k<<<1, 1>>>()\n#include <a<<<b.h>\nK;\n";
    CHECK(text_in(source, Ctx::define) == "#define K \\\n  k<<<1, 1>>>()\n");
    CHECK(text_in(source, Ctx::directive) == "#include <a<<<b.h>\n");
    CHECK(text_in(source, Ctx::code) == "K;\n");
}

TEST_CASE("The tokens cover the source whole, an unterminated comment or literal included",
          "[lexer]") {
    const std::string program =
        "#include <cstdio>\r\n"
        "__global__ void k(float* x) { x[0] = 1.5e-3f; }  // why\n"
        "int main() { k<<<1, 1>>>(nullptr); std::puts(u8\"done\"); }\n";
    CHECK(joined(program) == program);
    CHECK(tokens("a /* open") == std::vector<std::string>{"word:a", "blank: ", "comment:/* open"});
    CHECK(tokens("s = \"open\nt") ==
          std::vector<std::string>{"word:s", "blank: ", "punct:=", "blank: ", "literal:\"open",
                                   "blank:\n", "word:t"});
}
