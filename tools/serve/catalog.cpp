// The playground's catalog: listing lessons, their files and variants, and the working copies.
#include "catalog.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include <unistd.h>

namespace simt::serve {
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<std::string> words_of(std::string_view line) {
    std::vector<std::string> words;
    std::istringstream in{std::string(line)};
    for (std::string w; in >> w;) words.push_back(w);
    return words;
}

bool is_source_name(const std::string& name) {
    for (const char* ext : {".cu", ".cpp", ".cuh", ".h"})
        if (name.size() > std::string_view(ext).size() && name.ends_with(ext)) return true;
    return false;
}

bool is_program_name(const std::string& name) { return name.ends_with(".cu") || name.ends_with(".cpp"); }

// A lesson folder's name: two digits, an underscore, a topic (lab's lesson_dirs).
bool is_lesson_name(const std::string& name) {
    return name.size() > 3 && std::isdigit(static_cast<unsigned char>(name[0])) &&
           std::isdigit(static_cast<unsigned char>(name[1])) && name[2] == '_';
}

// The way `./lab run` names a lesson (resolve_lesson): its number, its name, a prefix of it, a
// word of its topic.
bool names_lesson(const std::string& ref, std::string_view id) {
    if (ref.empty()) return false;
    if (std::all_of(ref.begin(), ref.end(), [](unsigned char c) { return std::isdigit(c); }))
        return ref.size() <= 3 && id.size() > 2 && std::stoi(ref) == std::stoi(std::string(id.substr(0, 2)));
    return id.starts_with(ref) || (id.size() > 3 && id.substr(3).find(ref) != std::string_view::npos);
}

}  // namespace

bool Lesson::lists(std::string_view file) const {
    return std::find(files.begin(), files.end(), file) != files.end();
}

std::vector<Variant> variants_of(std::string_view readme, std::string_view lesson_id) {
    static const std::vector<std::string> lab_options = {"--html", "--profile", "--unchecked", "--gpu"};
    std::vector<Variant> variants;
    bool in_code = false;
    std::istringstream lines{std::string(readme)};
    for (std::string line; std::getline(lines, line);) {
        if (line.find_first_not_of(' ') != std::string::npos && line.substr(line.find_first_not_of(' ')).starts_with("```")) {
            in_code = !in_code;
            continue;
        }
        auto at = line.find("./lab run ");
        if (!in_code || at == std::string::npos) continue;
        auto words = words_of(std::string_view(line).substr(at + 10));
        if (words.empty() || !names_lesson(words[0], lesson_id)) continue;
        std::vector<std::string> args;
        auto dash = std::find(words.begin() + 1, words.end(), "--");
        for (auto w = dash == words.end() ? words.begin() + 1 : dash + 1; w != words.end(); ++w) {
            // A comment or the shell's own words end the command: `-- offset 0 22   (and ...)`.
            if (w->starts_with("(") || w->starts_with("#") || *w == "|" || *w == "&&" || w->starts_with(">")) break;
            if (dash == words.end() &&
                std::find(lab_options.begin(), lab_options.end(), *w) != lab_options.end())
                continue;
            args.push_back(*w);
        }
        if (args.empty()) continue;
        std::string label;
        for (const auto& a : args) label += (label.empty() ? "" : " ") + a;
        if (std::none_of(variants.begin(), variants.end(), [&](const Variant& v) { return v.args == args; }))
            variants.push_back({label, args});
    }
    return variants;
}

Catalog::Catalog(fs::path source_root, fs::path work_root, std::optional<fs::path> mine)
    : lessons_root_(std::move(source_root) / "lessons"), work_root_(std::move(work_root)), mine_(std::move(mine)) {}

Lesson Catalog::load(std::string id, const fs::path& dir, bool is_mine) const {
    Lesson lesson;
    lesson.id = std::move(id);
    lesson.dir = dir;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        // symlink_status: a link is never followed out of the folder.
        auto name = entry.path().filename().string();
        if (fs::is_regular_file(entry.symlink_status(ec)) && is_source_name(name)) lesson.files.push_back(name);
    }
    std::sort(lesson.files.begin(), lesson.files.end());
    if (fs::is_regular_file(fs::symlink_status(dir / "README.md", ec))) lesson.readme = slurp(dir / "README.md");
    auto first_line = lesson.readme.substr(0, lesson.readme.find('\n'));
    lesson.title = first_line.starts_with("# ") ? first_line.substr(2) : first_line;
    if (lesson.title.empty()) lesson.title = is_mine ? "Your folder: " + dir.filename().string() : lesson.id;
    // The lesson's program is what its CMakeLists.txt builds under the lesson's name (lesson 10's
    // libraries.cu is a program of its own); a folder's is every .cu and .cpp file, as ./lab run DIR.
    if (!is_mine && fs::is_regular_file(dir / "CMakeLists.txt", ec)) {
        std::regex target("simt_add_executable\\(\\s*" + lesson.id + "\\s+SOURCES\\s+([^)]*)\\)");
        std::smatch m;
        auto cmake = slurp(dir / "CMakeLists.txt");
        if (std::regex_search(cmake, m, target))
            for (const auto& w : words_of(m[1].str()))
                if (lesson.lists(w)) lesson.program.push_back(w);
    }
    if (lesson.program.empty())
        for (const auto& f : lesson.files)
            if (is_program_name(f)) lesson.program.push_back(f);
    if (!is_mine) lesson.variants = variants_of(lesson.readme, lesson.id);
    return lesson;
}

std::vector<Lesson> Catalog::lessons() const {
    std::vector<std::pair<std::string, fs::path>> dirs;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(lessons_root_, ec)) {
        auto name = entry.path().filename().string();
        if (is_lesson_name(name) && fs::is_directory(entry.symlink_status(ec))) dirs.emplace_back(name, entry.path());
    }
    std::sort(dirs.begin(), dirs.end());
    std::vector<Lesson> all;
    for (auto& [name, dir] : dirs) all.push_back(load(name, dir, false));
    if (mine_) all.push_back(load("mine", *mine_, true));
    return all;
}

std::optional<Lesson> Catalog::lesson(std::string_view id) const {
    if (id == "mine") return mine_ ? std::optional(load("mine", *mine_, true)) : std::nullopt;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(lessons_root_, ec)) {
        auto name = entry.path().filename().string();
        if (name == id && is_lesson_name(name) && fs::is_directory(entry.symlink_status(ec)))
            return load(name, entry.path(), false);
    }
    return std::nullopt;
}

fs::path Catalog::work_dir(const Lesson& lesson) const {
    if (lesson.id != "mine") return work_root_ / lesson.id;
    std::uint64_t hash = 14695981039346656037ull;  // FNV-1a: the same name for the same folder
    for (unsigned char c : lesson.dir.string()) hash = (hash ^ c) * 1099511628211ull;
    char name[32];
    std::snprintf(name, sizeof name, "mine-%016llx", static_cast<unsigned long long>(hash));
    return work_root_ / name;
}

fs::path Catalog::current(const Lesson& lesson, const std::string& file) const {
    auto copy = work_dir(lesson) / file;
    std::error_code ec;
    return fs::is_regular_file(fs::symlink_status(copy, ec)) ? copy : lesson.dir / file;
}

std::string Catalog::read(const Lesson& lesson, const std::string& file, bool& edited) const {
    auto path = current(lesson, file);
    edited = path != lesson.dir / file;
    return slurp(path);
}

void Catalog::write(const Lesson& lesson, const std::string& file, const std::string& text) const {
    static std::atomic<unsigned> serial{0};
    auto dir = work_dir(lesson);
    fs::create_directories(dir);
    auto temp = dir / ("." + file + ".tmp" + std::to_string(getpid()) + "." + std::to_string(serial++));
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        out << text;
        out.flush();
        if (!out) {
            fs::remove(temp);
            throw std::runtime_error("cannot write the working copy of " + file);
        }
    }
    fs::rename(temp, dir / file);
}

void Catalog::reset(const Lesson& lesson) const {
    std::error_code ec;
    for (const auto& file : lesson.files) fs::remove(work_dir(lesson) / file, ec);
}

}  // namespace simt::serve
