// The playground's catalog: the lessons, the served folder and their working copies, each named
// only by what the listing holds. This is the one home of the rule "never a path from request
// text": a lesson is found by comparing its id with the folder names under lessons/ (or "mine"),
// a file by comparing its name with that lesson's listed files, and only then is a path built,
// from the directory entries themselves.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace simt::serve {

// One click of the page: the words a lesson's README runs it with (`./lab run 07 -- nofence`).
struct Variant {
    std::string label;  // the words, joined by spaces: "stride 8 16"
    std::vector<std::string> args;
};

struct Lesson {
    std::string id;                    // the folder's name ("07_atomics"), or "mine"
    std::string title;                 // the README's first line without "# "
    std::string readme;                // the README's text ("" where there is none)
    std::filesystem::path dir;         // from a directory entry, never from a request
    std::vector<std::string> files;    // .cu/.cpp/.cuh/.h regular files directly in dir, sorted
    std::vector<std::string> program;  // the files compiled into the lesson's program
    std::vector<Variant> variants;

    bool lists(std::string_view file) const;
};

// The variants of a lesson's README: each `./lab run <this lesson> ...` line in a code block,
// its program words (those after `--`, or after the lesson without `--`, lab's own options
// dropped), distinct and non-empty, in the README's order. Exposed for its tests.
std::vector<Variant> variants_of(std::string_view readme, std::string_view lesson_id);

class Catalog {
public:
    // source_root holds lessons/; work_root is build/playground/work; mine is the served folder.
    Catalog(std::filesystem::path source_root, std::filesystem::path work_root,
            std::optional<std::filesystem::path> mine);

    std::vector<Lesson> lessons() const;  // read afresh: an edit of a README shows at once
    std::optional<Lesson> lesson(std::string_view id) const;

    // The file's text: the working copy where there is one (edited), else the lesson's own.
    // The caller has checked lesson.lists(file).
    std::string read(const Lesson& lesson, const std::string& file, bool& edited) const;
    // Saves the working copy atomically (a temporary file renamed over it): a server killed
    // mid-write leaves the old copy or the new one, never half of one.
    void write(const Lesson& lesson, const std::string& file, const std::string& text) const;
    void reset(const Lesson& lesson) const;  // drops the lesson's working copies
    // Where the file's current text is: the working copy, else the lesson's own file.
    std::filesystem::path current(const Lesson& lesson, const std::string& file) const;

private:
    Lesson load(std::string id, const std::filesystem::path& dir, bool is_mine) const;
    // work/<lesson>/; a served folder's copies under its own name too (work/mine-<hash of its
    // path>/), so that serving another folder with a main.cu does not show this one's edits.
    std::filesystem::path work_dir(const Lesson& lesson) const;

    std::filesystem::path lessons_root_;
    std::filesystem::path work_root_;
    std::optional<std::filesystem::path> mine_;
};

}  // namespace simt::serve
