// simt_cudafe <input.cu> <output>: rewrites a .cu file's kernel launches for a simulator build.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <system_error>

#include "rewrite.hpp"

namespace {

std::optional<std::string> read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) return std::nullopt;
    return std::move(text).str();
}

// The runtime API first, as nvcc provides it to every .cu file without an #include; then
// `#line 1 "path"` names the input in the compiler's messages (the path goes in a string literal).
std::string line_directive(const std::string& path) {
    std::string out = "#include <cuda_runtime.h>\n#line 1 \"";
    for (char c : path) {
        if (c == '\\' || c == '"') out += '\\';
        out += c;
    }
    return out + "\"\n";
}

// Replaces the output only when its text changes, through a temporary file and a rename, so
// that an unchanged source does not rebuild what includes it and no reader sees half a file.
bool write_if_changed(const std::filesystem::path& path, const std::string& text) {
    if (read_file(path) == text) return true;
    std::filesystem::path tmp = path;
    tmp += ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
        if (!out.flush()) return false;
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) std::filesystem::remove(tmp, ec);
    return !ec;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: simt_cudafe <input.cu> <output>\n"
                             "rewrites kernel<<<grid, block>>>(args) for a simt simulator build\n");
        return 2;
    }
    const std::string input = argv[1];
    const std::string output = argv[2];

    std::error_code ec;
    const std::optional<std::string> source =
        std::filesystem::is_regular_file(input, ec) ? read_file(input) : std::nullopt;
    if (!source) {
        std::fprintf(stderr, "%s: error: %s\n", input.c_str(),
                     std::filesystem::exists(input, ec) ? "cannot read this file (not a regular "
                                                          "file, or no permission)"
                                                        : "no such file");
        return 1;
    }
    const simt::cudafe::Rewritten result = simt::cudafe::rewrite_launches(*source);
    if (!result.error.empty()) {
        // Printed as compilers print theirs: "FILE:LINE:COL: error: message".
        std::string where_what = result.error;
        where_what.insert(where_what.find(": ") + 2, "error: ");
        std::fprintf(stderr, "%s:%s\n", input.c_str(), where_what.c_str());
        return 1;
    }
    if (!write_if_changed(output, line_directive(input) + result.text)) {
        std::fprintf(stderr, "%s: error: cannot write this file\n", output.c_str());
        return 1;
    }
    return 0;
}
