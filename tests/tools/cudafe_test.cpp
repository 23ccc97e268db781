// The launch rewriter of simt_cudafe (sim/frontend/rewrite.hpp): source text in, source out.
#include <catch2/catch.hpp>
#include <frontend/rewrite.hpp>

#include <algorithm>
#include <string>

using simt::cudafe::rewrite_launches;

namespace {

// What `EXPR<<<CFG>>>(ARGS)` becomes; the first test spells it out in full.
std::string launched(const std::string& expr, const std::string& cfg, const std::string& args) {
    return "::simt::detail::cuda_launch(" + cfg +
           ")([&](auto... simt_arg_) { return ::simt::sim::detail::kernel_call([=]() "
           "SIMT_LAUNCH_THUNK { " +
           expr + "(simt_arg_...); }, simt_arg_...); }(" + args + "))";
}

std::string rewritten(const std::string& source) {
    const simt::cudafe::Rewritten r = rewrite_launches(source);
    INFO(source);
    REQUIRE(r.error == "");
    return r.text;
}

std::string error_of(const std::string& source) {
    const simt::cudafe::Rewritten r = rewrite_launches(source);
    CHECK(r.text == "");
    return r.error;
}

long newlines(const std::string& s) { return std::count(s.begin(), s.end(), '\n'); }

}  // namespace

TEST_CASE("A plain launch becomes a call of simt's launcher", "[cudafe]") {
    CHECK(rewritten("  k<<<blocks, 256>>>(x, n);\n") ==
          "  ::simt::detail::cuda_launch(blocks, 256)([&](auto... simt_arg_) { return "
          "::simt::sim::detail::kernel_call([=]() SIMT_LAUNCH_THUNK { k(simt_arg_...); }, "
          "simt_arg_...); }(x, n));\n");
    CHECK(rewritten("k<<<1, 1>>>();") == launched("k", "1, 1", "") + ";");
    CHECK(rewritten("a<<<1, 1>>>(x); b<<<2, 2, 0, s>>>(y);") ==
          launched("a", "1, 1", "x") + "; " + launched("b", "2, 2, 0, s", "y") + ";");
}

TEST_CASE("Lines are kept when a launch spans several lines", "[cudafe]") {
    const std::string source = "int a;\n"
                               "k<<<grid,\n"
                               "    block>>>(x,\n"
                               "             y);\n"
                               "int b;\n";
    const std::string out = rewritten(source);
    CHECK(out == "int a;\n" + launched("k", "grid,\n    block", "x,\n             y") +
                     ";\nint b;\n");
    CHECK(newlines(out) == newlines(source));

    // Blanks before <<< stay after the kernel's name, blanks after >>> before its arguments.
    CHECK(rewritten("k \n<<<1, 1>>>\n  (x);\nnext;") ==
          "::simt::detail::cuda_launch(1, 1)([&](auto... simt_arg_) { return "
          "::simt::sim::detail::kernel_call([=]() SIMT_LAUNCH_THUNK { k \n(simt_arg_...); }, "
          "simt_arg_...); }\n  "
          "(x));\nnext;");
    CHECK(rewritten("k<<<1, 1>>> /* the data */ (x);") ==
          "::simt::detail::cuda_launch(1, 1)([&](auto... simt_arg_) { return "
          "::simt::sim::detail::kernel_call([=]() SIMT_LAUNCH_THUNK { k(simt_arg_...); }, "
          "simt_arg_...); } "
          "/* the data */ (x));");
}

TEST_CASE("Templates and qualified names before <<< are part of the kernel", "[cudafe]") {
    CHECK(rewritten("k<float, 4><<<1, 1>>>(x);") == launched("k<float, 4>", "1, 1", "x") + ";");
    CHECK(rewritten("y = ns::k<<<1, 1>>>(x);") == "y = " + launched("ns::k", "1, 1", "x") + ";");
    CHECK(rewritten("{::k<T><<<1, 1>>>(x);}") == "{" + launched("::k<T>", "1, 1", "x") + ";}");
    CHECK(rewritten("reduce<256, Op<int>><<<g, b>>>(in, out);") ==
          launched("reduce<256, Op<int>>", "g, b", "in, out") + ";");
    CHECK(rewritten("(void)a::Outer<int>::k<(n > 2)><<<1, 1>>>(x);") ==
          "(void)" + launched("a::Outer<int>::k<(n > 2)>", "1, 1", "x") + ";");
    CHECK(rewritten("k<T> <<<1, 1>>>(x);") == launched("k<T> ", "1, 1", "x") + ";");
}

TEST_CASE("Shifts and templates in the configuration do not end it", "[cudafe]") {
    CHECK(rewritten("k<<<n >> 8, dim3(x, y), f<int>(n), s>>>(a);") ==
          launched("k", "n >> 8, dim3(x, y), f<int>(n), s", "a") + ";");
    CHECK(rewritten("k<<<(n + 255) / 256, dim3{32, 8}, 0, streams[i]>>>(a);") ==
          launched("k", "(n + 255) / 256, dim3{32, 8}, 0, streams[i]", "a") + ";");
    CHECK(rewritten("k<<<grid_for(\">>>\"), 1>>>(a);") ==
          launched("k", "grid_for(\">>>\"), 1", "a") + ";");
    CHECK(rewritten("k<<<g(std::max<int>(a >> 1, 2)), 1>>>(a);") ==
          launched("k", "g(std::max<int>(a >> 1, 2)), 1", "a") + ";");
}

TEST_CASE("Arguments are copied whole, with brackets and literals in them", "[cudafe]") {
    CHECK(rewritten("k<<<1, 1>>>(f(a, b), v[i], \")\", ')', [] { return 1; }());") ==
          launched("k", "1, 1", "f(a, b), v[i], \")\", ')', [] { return 1; }()") + ";");
}

TEST_CASE("Comments, strings, raw strings and character literals are left alone", "[cudafe]") {
    const std::string untouched = "// k<<<1, 1>>>(x);\n"
                                  "/* k<<<1, 1>>>(x); */\n"
                                  "s = \"k<<<1, 1>>>(x)\";\n"
                                  "s = \"\\\" k<<<1, 1>>>(x)\";\n"
                                  "s = R\"(k<<<1, 1>>>(x))\";\n"
                                  "s = R\"d(a)\" k<<<1, 1>>>(x); )d\";\n"
                                  "s = u8R\"x(k<<<1, 1>>>(x))x\" LR\"(k<<<)\";\n"
                                  "s = uR\"(<<<)\" UR\"(<<<)\";\n"
                                  "s = u8\"k<<<\" u\"k<<<\" U\"k<<<\" L\"k<<<\";\n"
                                  "c = '<'; c = '\\''; c = '\"';\n";
    CHECK(rewritten(untouched) == untouched);
    // Past each of them the scan goes on.
    CHECK(rewritten(untouched + "k<<<1, 1>>>(x);\n") ==
          untouched + launched("k", "1, 1", "x") + ";\n");
}

TEST_CASE("Digit separators are not character literals", "[cudafe]") {
    CHECK(rewritten("n = 1'000'000; k<<<n, 1>>>(x); m = 0x1'F;") ==
          "n = 1'000'000; " + launched("k", "n, 1", "x") + "; m = 0x1'F;");
    // A u8 prefix ends in a digit yet opens a character literal.
    CHECK(rewritten("c = u8'\"'; k<<<1, 1>>>(x);") ==
          "c = u8'\"'; " + launched("k", "1, 1", "x") + ";");
}

TEST_CASE("A launch inside a macro definition is rewritten", "[cudafe]") {
    CHECK(rewritten("#define RUN(n) \\\n"
                    "    k<<<n, 1>>>(x); \\\n"
                    "    done()\n"
                    "RUN(4);\n") ==
          "#define RUN(n) \\\n    " + launched("k", "n, 1", "x") + "; \\\n    done()\nRUN(4);\n");
    // A line comment ending in a backslash goes on over the next line.
    const std::string continued = "// note \\\nk<<<1, 1>>>(x);\n";
    CHECK(rewritten(continued) == continued);
}

TEST_CASE("An unterminated launch is an error with its line and column", "[cudafe]") {
    CHECK(error_of("int a;\n  k<<<1, 1(x);\n") == "2:4: <<< has no matching >>>");
    CHECK(error_of("k<<<1, 1\n") == "1:2: <<< has no matching >>>");
    CHECK(error_of("f(k<<<1, 1);\nk2<<<1, 1>>>(x);") == "1:4: <<< has no matching >>>");
    CHECK(error_of("\n\n k<<<1, 1>>>;") ==
          "3:3: the launch's >>> is not followed by its arguments in (...)");
    CHECK(error_of("k<<<1, 1>>>(x;\n") == "1:2: the launch's arguments have no closing )");
}

TEST_CASE("A launch without a kernel name before it is an error", "[cudafe]") {
    CHECK(error_of("(k)<<<1, 1>>>(x);") == "1:4: <<< must follow the kernel's name");
    CHECK(error_of("<<<1, 1>>>(x);") == "1:1: <<< must follow the kernel's name");
    CHECK(error_of("x = 5<<<1, 1>>>(x);") == "1:6: <<< must follow the kernel's name");
    CHECK(error_of("k<int>><<<1, 1>>>(x);") ==
          "1:8: the template arguments before <<< are not balanced");
    const std::string not_a_member =
        ": the kernel before <<< must be a name such as k, ns::k or k<T>, not a member access";
    CHECK(error_of("p->k<<<1, 1>>>(x);") == "1:5" + not_a_member);
    CHECK(error_of("obj.k<<<1, 1>>>(x);") == "1:6" + not_a_member);
}

TEST_CASE("Every byte outside a launch is unchanged", "[cudafe]") {
    const std::string no_launch = "#include <cstdio>\r\n"
                                  "template <class T> ostream& operator<<(ostream&, T);\n"
                                  "void f() { x << 1; y <<= 2; z = a >> b >>c; }\n"
                                  "void g() { operator<<<int>(o, 1); ns::operator<<<T>(o, t); }\n"
                                  "/* unterminated comment k<<<1, 1>>>(x);";
    CHECK(rewritten(no_launch) == no_launch);
    CHECK(rewritten("") == "");
    CHECK(rewritten("\tbefore();\r\n\tk<<<1, 1>>>(x);\r\n\tafter();\r\n") ==
          "\tbefore();\r\n\t" + launched("k", "1, 1", "x") + ";\r\n\tafter();\r\n");
}

TEST_CASE("A __shared__ array in a kernel becomes per-block storage and a reference of its own type") {
    const auto r = rewrite_launches("void k() {\n  __shared__ float tile[32][33];\n  tile[0][0] = 1;\n}\n");
    REQUIRE(r.error.empty());
    CHECK(r.text ==
          "void k() {\n  static thread_local ::simt::sim::detail::SharedDecl< float [32][33]> "
          "simt_shared_tile_{::simt::sim::Loc::current(), \"tile\"};  float (&tile)[32][33] = "
          "simt_shared_tile_.array();\n  tile[0][0] = 1;\n}\n");
}

TEST_CASE("A __shared__ array of a template type finds its extents after the type") {
    const auto r = rewrite_launches("void k() { __shared__ Pair<int, A[2]> p[8]; }");
    REQUIRE(r.error.empty());
    CHECK(r.text.find("SharedDecl< Pair<int, A[2]> [8]>") != std::string::npos);
    CHECK(r.text.find("Pair<int, A[2]> (&p)[8]") != std::string::npos);
}

TEST_CASE("extern __shared__ becomes a pointer to dynamic shared memory, __align__ dropped") {
    const auto r = rewrite_launches("void k() { extern __shared__ __align__(8) double s[]; }");
    REQUIRE(r.error.empty());
    CHECK(r.text.find("double * const s = ::simt::sim::detail::extern_shared<") != std::string::npos);
    CHECK(r.text.find("double >(); }") != std::string::npos);
    CHECK(r.text.find("align") == std::string::npos);
    CHECK(r.text.find("extern") == r.text.find("extern_shared"));
}

TEST_CASE("extern __shared__ at namespace scope becomes an object found again at each use") {
    const auto r = rewrite_launches("namespace n { extern __shared__ int s[]; }");
    REQUIRE(r.error.empty());
    CHECK(r.text == "namespace n { [[maybe_unused]] static constexpr "
                    "::simt::sim::detail::ExternShared< int > s{}; }");
}

TEST_CASE("__shared__ is left to the macro where it cannot be rewritten") {
    for (const char* src : {"void k() { __shared__ int a = 0; }", "__shared__ int g[4];",
                            "// __shared__ int c[2];", "void k() { const char* s = \"__shared__ x;\"; }",
                            "void k() { int my__shared__x = 0; }",
                            "void k() { __shared__ simt::shared<int[4][4]> t; }"}) {
        const auto r = rewrite_launches(src);
        REQUIRE(r.error.empty());
        CHECK(r.text == src);
    }
}

TEST_CASE("A __shared__ declaration keeps the lines after it where they were") {
    const auto r = rewrite_launches("void k() {\n  __shared__ int a /* one\n two */ [4];\n  a[0] = 1;\n}");
    REQUIRE(r.error.empty());
    CHECK(std::count(r.text.begin(), r.text.end(), '\n') == 4);
    CHECK(r.text.find("a[0] = 1;\n}") != std::string::npos);
}

TEST_CASE("A __constant__ array becomes device storage named after it and a reference of its own type") {
    CHECK(rewritten("__constant__ float k[16];\n") ==
          "::simt::sim::detail::SymbolDecl< float [16]> simt_symbol_k_{"
          "::simt::sim::detail::Space::constant, false, ::simt::sim::Loc::current(), \"k\"};  "
          "float (&k)[16] = simt_symbol_k_.get();\n");
}

TEST_CASE("A device variable with an initialiser keeps it as written, its size taken from it") {
    const std::string r = rewritten("static __device__ int table[] = {1,\n 2, 3};\nint after;\n");
    CHECK(r.find("static  int simt_init_table_[] = {1,\n 2, 3}; static ::simt::sim::detail::"
                 "SymbolDecl<decltype(simt_init_table_)> simt_symbol_table_{"
                 "::simt::sim::detail::Space::global, false,") == 0);
    CHECK(r.find("\"table\", &simt_init_table_}; static decltype(simt_init_table_)& table = "
                 "simt_symbol_table_.get();\nint after;\n") != std::string::npos);
    CHECK(newlines(r) == 3);
}

TEST_CASE("A __managed__ variable is a device variable the host may touch") {
    const std::string r = rewritten("#include <a.h>\n__device__ __managed__ int flag = 0;");
    CHECK(r.find("Space::global, true,") != std::string::npos);
    CHECK(r.find("int simt_init_flag_ = 0;") != std::string::npos);
}

TEST_CASE("Device functions, lambdas, const, extern and template variables keep the macros") {
    for (const char* src : {"__device__ float f(float x) { return x; }",
                            "__host__ __device__ inline int g();",
                            "template <class T> __device__ T zero;",
                            "__device__ const int N = 16;",
                            "const __device__ float pi = 3.14f;",
                            "__constant__ constexpr int M = 4;",
                            "__device__ int *const p = nullptr;",
                            "auto l = [] __device__ (int x) { return x; };",
                            "void h() { auto l = [] __device__ (int x) { return x; }; }",
                            "struct S { __device__ int get() const; };",
                            "// static __device__ int commented;"}) {
        INFO(src);
        CHECK(rewritten(src) == src);
    }
}

TEST_CASE("A comment ending in a period or an arrow on the line above a launch is no member access") {
    CHECK(rewritten("// the launch follows.\nk<<<1, 1>>>();") ==
          "// the launch follows.\n" + launched("k", "1, 1", "") + ";");
    CHECK(rewritten("/* a -> */\nk<<<1, 1>>>();") == "/* a -> */\n" + launched("k", "1, 1", "") + ";");
}

TEST_CASE("A cast to void* of the kernel in cudaLaunchCooperativeKernel becomes blanks", "[cudafe]") {
    CHECK(rewritten("cudaLaunchCooperativeKernel((void*)k, g, b, args);") ==
          "cudaLaunchCooperativeKernel(       k, g, b, args);");
    CHECK(rewritten("cudaLaunchKernel( ( const void * ) ns::k<2>, g, b, a, 0, s);") ==
          "cudaLaunchKernel(                  ns::k<2>, g, b, a, 0, s);");
    CHECK(rewritten("e = cudaLaunchKernel(reinterpret_cast<void*>(&k), g, b, a);") ==
          "e = cudaLaunchKernel(                       (&k), g, b, a);");
    const std::string split = "cudaLaunchCooperativeKernel(\n  (void*)\n  k, g, b, a);";
    CHECK(newlines(rewritten(split)) == newlines(split));
}

TEST_CASE("A cast to void** of an address given to an allocation call becomes blanks", "[cudafe]") {
    CHECK(rewritten("cudaMalloc((void**)&d_x, n * sizeof(float));") ==
          "cudaMalloc(        &d_x, n * sizeof(float));");
    CHECK(rewritten("e = cudaMallocManaged( (void **) &p, b);") ==
          "e = cudaMallocManaged( " + std::string(std::string_view("(void **)").size(), ' ') + " &p, b);");
    CHECK(rewritten("cudaMalloc(reinterpret_cast<void**>(&d), b);") ==
          "cudaMalloc(" + std::string(std::string_view("reinterpret_cast<void**>").size(), ' ') + "(&d), b);");
    for (const char* kept : {"cudaMalloc((void**)pp, b);", "cudaMalloc(&d, b);", "my_cudaMalloc((void**)&d, b);",
                             "cudaMalloc((float**)&d, b);"})
        CHECK(rewritten(kept) == kept);
}

TEST_CASE("Other casts keep their text", "[cudafe]") {
    for (const char* src : {"cudaLaunchKernel((void**)k, g, b, a);",
                            "// cudaLaunchKernel((void*)k, g, b, a);", "cudaLaunchKernel((voidish*)k);",
                            "p = (void*)&x;", "p = (void*)a[3];", "p = (void*)s.member;",
                            "p = (void*)f(x);", "p = (void*)0;", "p = (void*)nullptr;",
                            "p = (void*)k<int>;", "n = sizeof(void*) * 2;", "void f(void*) {}"}) {
        CHECK(rewritten(src) == src);
    }
}

TEST_CASE("A cast of a name to void* keeps the kernel's type, for graph nodes and cudaLaunchKernel",
          "[cudafe]") {
    CHECK(rewritten("params.func = (void*)fill;") ==
          "params.func = ::simt::sim::detail::kernel_or_pointer(fill);");
    CHECK(rewritten("f(a, (const void *) ns::k);") ==
          "f(a, ::simt::sim::detail::kernel_or_pointer(ns::k));");
    CHECK(rewritten("my_cudaLaunchKernel((void*)k);") ==
          "my_cudaLaunchKernel(::simt::sim::detail::kernel_or_pointer(k));");
    CHECK(rewritten("return (void*)k;") == "return ::simt::sim::detail::kernel_or_pointer(k);");
    const std::string split = "p.func = (void*)\n  k;";
    CHECK(newlines(rewritten(split)) == newlines(split));
}

TEST_CASE("Every name of one __shared__ declaration becomes per-block storage of its own", "[cudafe]") {
    const std::string r = rewritten("void k() { __shared__ int a[32], b[32]; }");
    CHECK(r == "void k() { static thread_local ::simt::sim::detail::SharedDecl< int [32]> "
               "simt_shared_a_{::simt::sim::Loc::current(), \"a\"};  int (&a)[32] = "
               "simt_shared_a_.array(); static thread_local ::simt::sim::detail::SharedDecl< int "
               "[32]> simt_shared_b_{::simt::sim::Loc::current(), \"b\"};  int (&b)[32] = "
               "simt_shared_b_.array(); }");
    // Pointer operators belong to their own name; the specifiers to every name.
    const std::string mixed = rewritten("void k() { volatile __shared__ float *p, q[4][2]; }");
    CHECK(mixed.find("SharedDecl<volatile float *> simt_shared_p_") != std::string::npos);
    CHECK(mixed.find("}; volatile float *(&p) = simt_shared_p_.array();") != std::string::npos);
    CHECK(mixed.find("SharedDecl<volatile float [4][2]> simt_shared_q_") != std::string::npos);
    CHECK(mixed.find("}; volatile float (&q)[4][2] = simt_shared_q_.array();") != std::string::npos);
}

TEST_CASE("Every name of one __device__ or __constant__ declaration becomes a device variable of its own",
          "[cudafe]") {
    const std::string r = rewritten("__device__ int a, b;");
    CHECK(r == "::simt::sim::detail::SymbolDecl< int > simt_symbol_a_{::simt::sim::detail::Space::"
               "global, false, ::simt::sim::Loc::current(), \"a\"};  int (&a) = simt_symbol_a_.get(); "
               "::simt::sim::detail::SymbolDecl< int > simt_symbol_b_{::simt::sim::detail::Space::"
               "global, false, ::simt::sim::Loc::current(), \"b\"};  int (&b) = simt_symbol_b_.get();");
    const std::string init = rewritten("static __constant__ float x = f(1, 2), y[] = {3, 4};");
    CHECK(init.find("static  float simt_init_x_ = f(1, 2); static ::simt::sim::detail::SymbolDecl<"
                    "decltype(simt_init_x_)> simt_symbol_x_{::simt::sim::detail::Space::constant,") == 0);
    CHECK(init.find("static  float simt_init_y_[] = {3, 4}; static ::simt::sim::detail::SymbolDecl<"
                    "decltype(simt_init_y_)> simt_symbol_y_{::simt::sim::detail::Space::constant,") !=
          std::string::npos);
    CHECK(init.find("static decltype(simt_init_y_)& y = simt_symbol_y_.get();") != std::string::npos);
}

TEST_CASE("A static __device__ variable after a comment on its line stays static", "[cudafe]") {
    CHECK(rewritten("/* hits */ static __device__ int counter;") ==
          "/* hits */ static ::simt::sim::detail::SymbolDecl< int > simt_symbol_counter_{"
          "::simt::sim::detail::Space::global, false, ::simt::sim::Loc::current(), \"counter\"}; "
          "static  int (&counter) = simt_symbol_counter_.get();");
    for (const char* src : {"// hits\nstatic __device__ int counter;", "int x; /* a */ static __device__ int counter;",
                            "static /* a */ __device__ /* b */ int counter;"}) {
        INFO(src);
        const std::string r = rewritten(src);
        CHECK(r.find("static ::simt::sim::detail::SymbolDecl<") != std::string::npos);
        CHECK(r.find("static  int (&counter)") != std::string::npos);
    }
}

TEST_CASE("An extern device variable becomes a reference to the one another file defines", "[cudafe]") {
    CHECK(rewritten("extern __constant__ float k[4];") == "extern  float (&k)[4];");
    CHECK(rewritten("extern __device__ int n, m[];") == "extern  int (&n); extern  int (&m)[];");
}

TEST_CASE("A device variable's brace initialiser and a volatile type are kept", "[cudafe]") {
    CHECK(rewritten("__device__ int c{5};").find("static  int simt_init_c_{5}; ") == 0);
    const std::string r = rewritten("volatile __device__ int flag = 0;");
    CHECK(r.find("static volatile int simt_init_flag_ = 0; ") == 0);
    // A volatile object's address needs a cast to reach the record's `const void*`.
    CHECK(r.find("\"flag\", (const void*)&simt_init_flag_}; decltype(simt_init_flag_)& flag") !=
          std::string::npos);
}

TEST_CASE("Attributes and alignment are dropped from a rewritten declaration", "[cudafe]") {
    const std::string r =
        rewritten("[[maybe_unused]] __device__ alignas(16) float4 v; __device__ __align__(8) int w[2];");
    CHECK(r.find("SymbolDecl< float4 > simt_symbol_v_") != std::string::npos);
    CHECK(r.find("SymbolDecl< int [2]> simt_symbol_w_") != std::string::npos);
    CHECK(r.find("align") == std::string::npos);
    CHECK(r.find("maybe_unused") == std::string::npos);
}

TEST_CASE("Each name of a declaration over several lines keeps its own line", "[cudafe]") {
    const std::string source = "void k() {\n  __shared__ int a[4],\n    b[4];\n  a[0] = b[0];\n}\n";
    const std::string r = rewritten(source);
    CHECK(newlines(r) == newlines(source));
    // b's storage, whose Loc names the declaration's line in reports, is on b's line.
    const std::size_t line_of_b = std::count(r.begin(), r.begin() + r.find("simt_shared_b_{"), '\n');
    CHECK(line_of_b == 2);
    CHECK(r.find("\n  a[0] = b[0];\n}\n") != std::string::npos);
}

TEST_CASE("Declarations in a linkage block are at namespace scope", "[cudafe]") {
    CHECK(rewritten("extern \"C\" { __device__ int x; }").find("extern \"C\" { ::simt::sim::detail::"
                                                                "SymbolDecl< int > simt_symbol_x_") == 0);
}

TEST_CASE("A comment before <<< or inside the launch's brackets changes nothing", "[cudafe]") {
    CHECK(rewritten("kern /* c */ <<<1, 1>>>();") ==
          launched("kern /* c */ ", "1, 1", "") + ";");
    CHECK(rewritten("k<<</* grid */ 1, 1 /* block */>>>(x /* ) */);") ==
          launched("k", "/* grid */ 1, 1 /* block */", "x /* ) */") + ";");
    CHECK(rewritten("ns /* a */ :: k /* b */ <<<1, 1>>>();") ==
          launched("ns /* a */ :: k /* b */ ", "1, 1", "") + ";");
    const std::string split = "k // the kernel\n<<<1, 1>>>();";
    CHECK(rewritten(split) == launched("k // the kernel\n", "1, 1", "") + ";");
    CHECK(error_of("obj. /* c */ k<<<1, 1>>>();").find("not a member access") != std::string::npos);
}

TEST_CASE("Literals holding <<<, __shared__ or comment markers change nothing", "[cudafe]") {
    const std::string literals = "const char* a = \"/* k<<<1, 1>>>(x); __shared__ int s[2];\";\n"
                                 "const char* b = R\"x(*/ \" // __device__ int v;)x\";\n"
                                 "char c = '\"'; char d = '/';\n";
    CHECK(rewritten(literals) == literals);
    // What follows them is still read as code.
    const std::string r = rewritten(literals + "void f() { __shared__ int s[2]; k<<<1, 1>>>(s); }");
    CHECK(r.find("simt_shared_s_") != std::string::npos);
    CHECK(r.find(launched("k", "1, 1", "s")) != std::string::npos);
}

TEST_CASE("Preprocessor lines other than a macro's launches are left alone", "[cudafe]") {
    const std::string directives = "#include <a<<<b.h>\n"
                                   "#define SHARED_TILE __shared__ int tile[4];\n"
                                   "#define COUNTER static __device__ int counter;\n"
                                   "#error don't put __shared__ int x[2]; here\n"
                                   "#pragma message(\"/*\")\n"
                                   "__device__ int after;\n";
    const std::string r = rewritten(directives);
    CHECK(r.substr(0, r.find("::simt")) == directives.substr(0, directives.find("__device__ int after")));
    CHECK(r.find("simt_symbol_after_") != std::string::npos);
}

TEST_CASE("A function with C linkage is no linkage block", "[cudafe]") {
    const std::string r = rewritten("extern \"C\" __global__ void k() { __shared__ int t[4]; }");
    CHECK(r.find("SharedDecl< int [4]> simt_shared_t_") != std::string::npos);
}
