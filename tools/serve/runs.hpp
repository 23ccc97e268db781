// The playground's runs: each builds a lesson's program into a folder of its own and runs it, at
// most two at once. A run's processes (the compiler, then the program) are spawned without a
// shell, each in a process group of its own, killed if the server dies (PR_SET_PDEATHSIG), with a
// CPU limit (RLIMIT_CPU) and a wall-clock limit (SIGINT at 300 s, SIGKILL 5 s later). Their
// stdout and stderr stream into the run's output as they come.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog.hpp"

namespace simt::serve {

enum class Mode { checked, unchecked, profile, gpu };
std::optional<Mode> mode_named(std::string_view name);

// `file:line:col: error: message` lines of a compiler's output, the file by its base name.
nlohmann::json compile_errors_of(const std::string& output);

struct Tools {
    std::filesystem::path source_root;  // holds common/include and cuda/include, for nvcc
    std::filesystem::path build_root;   // holds bin/simt-nvcc
    std::filesystem::path runs_root;    // a folder per run: build/playground/runs
    std::optional<std::filesystem::path> nvcc;  // set only where a GPU answers, too
};

class Runs {
public:
    static constexpr int max_running = 2;

    explicit Runs(Tools tools);
    bool gpu() const { return tools_.nvcc.has_value(); }

    // Starts building and running the lesson's program (its files as the catalog has them now)
    // and answers its id, or nothing when max_running runs are going.
    std::optional<std::string> start(const Catalog& catalog, const Lesson& lesson, Mode mode,
                                     std::vector<std::string> args);
    // GET /api/run/ID's answer, output from byte `from` on; nothing for an unknown id.
    std::optional<nlohmann::json> status(const std::string& id, std::size_t from) const;
    bool stop(const std::string& id);  // SIGINT to the run's group, as Ctrl-C
    std::optional<std::filesystem::path> report(const std::string& id) const;
    void kill_all();  // SIGKILL to every run's group: the server is going

    struct Run;

private:
    std::shared_ptr<Run> find(const std::string& id) const;

    Tools tools_;
    mutable std::mutex mutex_;
    std::map<std::string, std::shared_ptr<Run>> runs_;
    unsigned next_id_ = 1;
};

// A program found on PATH, or nothing.
std::optional<std::filesystem::path> find_program(const std::string& name);
// Runs argv to its end with its output thrown away; its exit status (127 if it cannot start).
int run_quietly(const std::vector<std::string>& argv);

}  // namespace simt::serve
