// simt_cudafe <input.cu> <output>: rewrites a .cu file's kernel launches for a simulator build.
//
// The project's own headers are the .cu's too: a quoted #include found beside the file that
// includes it (kernels.cuh, with its own <<<>>> and __shared__) is rewritten into a copy under
// <output>.inc/, and the #include line names the copy instead, on the same line. <output>.d
// lists every file read, so that the build redoes the rewrite when a header changes.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

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

/// `path` as a C string literal.
std::string quoted(const std::string& path) {
    std::string out = "\"";
    for (char c : path) {
        if (c == '\\' || c == '"') out += '\\';
        out += c;
    }
    return out + "\"";
}

// `#line 1 "path"` names the input in the compiler's messages. Before it, in the top file only,
// the runtime API, as nvcc provides it to every .cu file without an #include.
std::string line_directive(const std::string& path) { return "#line 1 " + quoted(path) + "\n"; }

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

/// Make's depfile syntax for a path: spaces, '#' and '$' escaped.
std::string depfile_path(const std::string& path) {
    std::string out;
    for (char c : path) {
        if (c == ' ' || c == '#') out += '\\';
        if (c == '$') out += '$';
        out += c;
    }
    return out;
}

/// Rewrites one file (`input`) to `output`, following its quoted includes; every file read goes
/// into `read`, every header copied is made once (`copies`: original path -> copy).
class Rewriter {
public:
    explicit Rewriter(std::filesystem::path copies_dir) : dir_(std::move(copies_dir)) {}

    /// The rewritten text, or nullopt after printing the error.
    std::optional<std::string> rewrite(const std::filesystem::path& input, bool top) {
        std::error_code ec;
        const std::optional<std::string> source =
            std::filesystem::is_regular_file(input, ec) ? read_file(input) : std::nullopt;
        if (!source) {
            std::fprintf(stderr, "%s: error: %s\n", input.c_str(),
                         std::filesystem::exists(input, ec)
                             ? "cannot read this file (not a regular "
                               "file, or no permission)"
                             : "no such file");
            return std::nullopt;
        }
        read.push_back(input.string());
        const simt::cudafe::Rewritten result = simt::cudafe::rewrite_launches(*source);
        if (!result.error.empty()) {
            // Printed as compilers print theirs: "FILE:LINE:COL: error: message".
            std::string where_what = result.error;
            where_what.insert(where_what.find(": ") + 2, "error: ");
            std::fprintf(stderr, "%s:%s\n", input.c_str(), where_what.c_str());
            return std::nullopt;
        }
        std::string text = top ? "#include <cuda_runtime.h>\n" : "";
        text += line_directive(input.string()) + result.text;
        return follow_includes(input.parent_path(), text);
    }

    std::vector<std::string> read;

private:
    // Each `#include "name"` that names a file beside the including one is replaced, on its
    // line, by an include of the rewritten copy. Other includes (<...>, or found on the include
    // path) are the compiler's business.
    std::optional<std::string> follow_includes(const std::filesystem::path& dir,
                                               const std::string& text) {
        static const std::regex include(R"re(^([ \t]*#[ \t]*include[ \t]*)"([^"\n]+)")re",
                                        std::regex::multiline);
        std::string out;
        std::size_t copied = 0;
        for (auto it = std::sregex_iterator(text.begin(), text.end(), include);
             it != std::sregex_iterator(); ++it) {
            const std::smatch& m = *it;
            std::error_code ec;
            const std::filesystem::path header =
                std::filesystem::weakly_canonical(dir / m[2].str(), ec);
            if (ec || !std::filesystem::is_regular_file(header, ec)) continue;
            const std::optional<std::filesystem::path> copy = copy_of(header);
            if (!copy) return std::nullopt;
            out.append(text, copied, static_cast<std::size_t>(m.position(0)) - copied);
            out += m[1].str() + quoted(copy->string());
            copied = static_cast<std::size_t>(m.position(0) + m.length(0));
        }
        out.append(text, copied);
        return out;
    }

    std::optional<std::filesystem::path> copy_of(const std::filesystem::path& header) {
        if (auto found = copies_.find(header.string()); found != copies_.end())
            return found->second;
        // The copy's name keeps the header's, made unique by a number (a.cuh, 1_a.cuh).
        const std::filesystem::path copy =
            dir_ / (std::to_string(copies_.size()) + "_" + header.filename().string());
        copies_.emplace(header.string(), copy);  // first: a header that includes itself stops here
        const std::optional<std::string> text = rewrite(header, false);
        if (!text) return std::nullopt;
        std::error_code ec;
        std::filesystem::create_directories(dir_, ec);
        if (ec || !write_if_changed(copy, *text)) {
            std::fprintf(stderr, "%s: error: cannot write this file\n", copy.c_str());
            return std::nullopt;
        }
        return copy;
    }

    std::filesystem::path dir_;
    std::map<std::string, std::filesystem::path> copies_;
};

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: simt_cudafe <input.cu> <output>\n"
                             "rewrites kernel<<<grid, block>>>(args) for a simt simulator build\n");
        return 2;
    }
    const std::string input = argv[1];
    const std::string output = argv[2];
    Rewriter rewriter(std::filesystem::absolute(output + ".inc"));
    const std::optional<std::string> text = rewriter.rewrite(input, true);
    if (!text) return 1;
    if (!write_if_changed(output, *text)) {
        std::fprintf(stderr, "%s: error: cannot write this file\n", output.c_str());
        return 1;
    }
    std::string deps = depfile_path(output) + ":";
    for (const std::string& path : rewriter.read) deps += " " + depfile_path(path);
    if (!write_if_changed(output + ".d", deps + "\n")) {
        std::fprintf(stderr, "%s.d: error: cannot write this file\n", output.c_str());
        return 1;
    }
    return 0;
}
