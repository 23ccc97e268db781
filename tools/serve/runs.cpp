// The playground's runs: spawning, limits, streaming output, stopping, and what a run leaves.
#include "runs.hpp"

#include <atomic>
#include <chrono>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace simt::serve {
namespace fs = std::filesystem;
using json = nlohmann::json;
using namespace std::chrono_literals;

namespace {

constexpr auto wall_limit = 300s;              // then SIGINT, as Ctrl-C ...
constexpr auto kill_grace = 5s;                // ... and SIGKILL this much later
constexpr rlim_t cpu_limit_s = 600;            // RLIMIT_CPU of every process a run starts
constexpr std::size_t output_limit = 8 << 20;  // a run's output beyond this is dropped

struct Child {
    pid_t pid;
    int out;  // the read end of the pipe that holds the child's stdout and stderr
};

// Starts argv[0] (an absolute path: no PATH search, no shell) in cwd with env, in a process
// group of its own whose id is its pid. Everything the child needs is made before fork: between
// fork and exec only async-signal-safe calls.
Child spawn(const std::vector<std::string>& argv, const fs::path& cwd, const std::vector<std::string>& env) {
    std::vector<char*> cargv, cenv;
    for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
    cargv.push_back(nullptr);
    for (const auto& e : env) cenv.push_back(const_cast<char*>(e.c_str()));
    cenv.push_back(nullptr);
    std::string dir = cwd.string();
    std::string cannot = "playground: cannot start " + argv[0] + "\n";
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe: " + std::string(std::strerror(errno)));
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);  // the server gone (even by SIGKILL), the child goes too
        if (getppid() != parent) _exit(127);
        rlimit cpu{cpu_limit_s, cpu_limit_s + 5};
        setrlimit(RLIMIT_CPU, &cpu);
        // The server blocks SIGINT and SIGTERM (one thread waits for them) and may have been
        // started with them ignored: the program gets Ctrl-C's usual meaning back.
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, nullptr);
        struct sigaction dfl {};
        dfl.sa_handler = SIG_DFL;
        for (int sig : {SIGINT, SIGTERM, SIGQUIT, SIGPIPE}) sigaction(sig, &dfl, nullptr);
        int null = open("/dev/null", O_RDONLY);
        if (null >= 0) dup2(null, 0);
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        close_range(3, ~0U, 0);
        if (chdir(dir.c_str()) == 0) execve(cargv[0], cargv.data(), cenv.data());
        ssize_t ignored = write(2, cannot.data(), cannot.size());
        (void)ignored;
        _exit(127);
    }
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        throw std::runtime_error("fork: " + std::string(std::strerror(errno)));
    }
    setpgid(pid, pid);  // also here, so that the group exists before anyone signals it
    return {pid, fds[0]};
}

int status_code(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status); }

// The server's environment, less the settings a run sets itself.
std::vector<std::string> base_environment() {
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e) {
        std::string_view v(*e);
        if (!v.starts_with("SIMT_REPORT=") && !v.starts_with("SIMT_PROFILE=")) env.emplace_back(v);
    }
    return env;
}

}  // namespace

std::optional<Mode> mode_named(std::string_view name) {
    if (name == "checked") return Mode::checked;
    if (name == "unchecked") return Mode::unchecked;
    if (name == "profile") return Mode::profile;
    if (name == "gpu") return Mode::gpu;
    return std::nullopt;
}

json compile_errors_of(const std::string& output) {
    static const std::regex error_line(R"(^([^:]+):(\d+):(\d+): (?:fatal )?error: (.*)$)");
    json errors = json::array();
    std::istringstream lines(output);
    std::smatch m;
    for (std::string line; std::getline(lines, line);)
        if (std::regex_match(line, m, error_line))
            errors.push_back({{"file", fs::path(m[1].str()).filename().string()},
                              {"line", std::stoi(m[2].str())},
                              {"column", std::stoi(m[3].str())},
                              {"message", m[4].str()}});
    return errors;
}

struct Runs::Run {
    std::string id;
    fs::path dir;
    mutable std::mutex mutex;
    std::string state = "building";  // then "running", then "done"
    std::string output;
    bool cut = false;
    std::optional<int> exit;
    bool stopped = false;
    json compile_errors = json::array();
    json findings = json::array();
    bool report = false;
    pid_t pgid = 0;  // the group now running, or 0

    void append(std::string_view text) {
        std::lock_guard lock(mutex);
        if (cut) return;
        if (output.size() + text.size() > output_limit) {
            output += "\nplayground: the output passed 8 MiB; the rest is not kept\n";
            cut = true;
            return;
        }
        output += text;
    }

    // Runs one process of the run to its end under the limits; its status (128 + the signal's
    // number for a signal, as a shell says it).
    int step(const std::vector<std::string>& argv, const std::vector<std::string>& env) {
        Child child = spawn(argv, dir, env);
        {
            std::lock_guard lock(mutex);
            pgid = child.pid;
            if (stopped) kill(-pgid, SIGINT);  // Stop came between two steps
        }
        std::atomic<bool> reaped{false};
        std::thread reader([&] {
            char buffer[4096];
            for (;;) {
                pollfd p{child.out, POLLIN, 0};
                int ready = poll(&p, 1, 100);
                if (ready < 0 && errno == EINTR) continue;
                if (ready == 0) {
                    if (reaped) break;  // something outside the group holds the pipe: let it go
                    continue;
                }
                ssize_t n = read(child.out, buffer, sizeof buffer);
                if (n < 0 && errno == EINTR) continue;
                if (n <= 0) break;
                append(std::string_view(buffer, static_cast<std::size_t>(n)));
            }
        });
        auto start = std::chrono::steady_clock::now();
        bool interrupted = false;
        for (;;) {
            // WNOWAIT: the exited leader stays a zombie, so its group id stays ours to signal.
            siginfo_t info{};
            if (waitid(P_PID, static_cast<id_t>(child.pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
                info.si_pid == child.pid)
                break;
            auto elapsed = std::chrono::steady_clock::now() - start;
            if (elapsed > wall_limit && !interrupted) {
                append("\nplayground: the run passed its wall-clock limit of 300 s; stopping it\n");
                kill(-child.pid, SIGINT);
                interrupted = true;
            }
            if (elapsed > wall_limit + kill_grace) kill(-child.pid, SIGKILL);
            std::this_thread::sleep_for(20ms);
        }
        int status = 0;
        {
            std::lock_guard lock(mutex);
            kill(-child.pid, SIGKILL);  // whatever the program left behind in its group
            pgid = 0;
            waitpid(child.pid, &status, 0);
        }
        reaped = true;
        reader.join();
        close(child.out);
        return status_code(status);
    }

    void finish(int code) {
        std::lock_guard lock(mutex);
        exit = code;
        state = "done";
    }
};

Runs::Runs(Tools tools) : tools_(std::move(tools)) {
    // A run's folder lives as long as the server that made it: ids start at 1 again.
    std::error_code ec;
    fs::remove_all(tools_.runs_root, ec);
}

std::optional<std::string> Runs::start(const Catalog& catalog, const Lesson& lesson, Mode mode,
                                       std::vector<std::string> args) {
    auto run = std::make_shared<Run>();
    {
        std::lock_guard lock(mutex_);
        int going = 0;
        for (const auto& [id, r] : runs_) {
            std::lock_guard run_lock(r->mutex);
            going += r->state != "done";
        }
        if (going >= max_running) return std::nullopt;
        run->id = std::to_string(next_id_++);
        run->dir = tools_.runs_root / run->id;
        runs_[run->id] = run;
    }
    try {
        // The editor's text as files of the lesson's names: the compiler's messages and the
        // report name the lines the learner sees.
        fs::remove_all(run->dir);
        fs::create_directories(run->dir);
        for (const auto& file : lesson.files) fs::copy_file(catalog.current(lesson, file), run->dir / file);
    } catch (...) {
        std::lock_guard lock(mutex_);
        runs_.erase(run->id);
        throw;
    }

    auto program = (run->dir / lesson.id).string();
    std::vector<std::string> build;
    if (mode == Mode::gpu) {
        // As `./lab run --gpu` builds (lab's run_own).
        build = {tools_.nvcc->string(), "-std=c++20", "--extended-lambda", "-arch=native",
                 "-I", (tools_.source_root / "common" / "include").string(),
                 "-I", (tools_.source_root / "cuda" / "include").string()};
    } else {
        build = {(tools_.build_root / "bin" / "simt-nvcc").string(), mode == Mode::unchecked ? "--unchecked" : "-lineinfo"};
    }
    build.insert(build.end(), {"-o", program});
    build.insert(build.end(), lesson.program.begin(), lesson.program.end());

    std::vector<std::string> command{program};
    command.insert(command.end(), args.begin(), args.end());
    auto env = base_environment();
    auto build_env = env;
    auto findings = run->dir / "findings.jsonl";
    if (mode == Mode::checked || mode == Mode::profile)
        env.push_back("SIMT_REPORT=json:" + findings.string() + ",html:" + (run->dir / "report.html").string());
    if (mode == Mode::profile) env.push_back("SIMT_PROFILE=text");

    std::thread([run, build, command, build_env, env, findings] {
        try {
            int code = run->step(build, build_env);
            {
                std::lock_guard lock(run->mutex);
                run->compile_errors = compile_errors_of(run->output);
                if (code != 0 || run->stopped) {
                    run->exit = code;
                    run->state = "done";
                    return;
                }
                run->state = "running";
            }
            code = run->step(command, env);
            json found = json::array();
            std::ifstream in(findings);
            for (std::string line; std::getline(in, line);) {
                auto finding = json::parse(line, nullptr, false);
                if (!finding.is_discarded()) found.push_back(std::move(finding));
            }
            std::error_code ec;
            bool report = fs::is_regular_file(run->dir / "report.html", ec);
            std::lock_guard lock(run->mutex);
            run->findings = std::move(found);
            run->report = report;
            run->exit = code;
            run->state = "done";
        } catch (const std::exception& e) {
            run->append(std::string("\nplayground: ") + e.what() + "\n");
            run->finish(127);
        }
    }).detach();
    return run->id;
}

std::shared_ptr<Runs::Run> Runs::find(const std::string& id) const {
    std::lock_guard lock(mutex_);
    auto it = runs_.find(id);
    return it == runs_.end() ? nullptr : it->second;
}

std::optional<json> Runs::status(const std::string& id, std::size_t from) const {
    auto run = find(id);
    if (!run) return std::nullopt;
    std::lock_guard lock(run->mutex);
    from = std::min(from, run->output.size());
    return json{{"state", run->state},
                {"output", run->output.substr(from)},
                {"next", run->output.size()},
                {"exit", run->exit ? json(*run->exit) : json(nullptr)},
                {"stopped", run->stopped},
                {"compile_errors", run->compile_errors},
                {"findings", run->findings},
                {"report", run->report}};
}

bool Runs::stop(const std::string& id) {
    auto run = find(id);
    if (!run) return false;
    std::lock_guard lock(run->mutex);
    if (run->state == "done") return true;
    run->stopped = true;
    if (run->pgid) kill(-run->pgid, SIGINT);
    return true;
}

std::optional<fs::path> Runs::report(const std::string& id) const {
    auto run = find(id);
    if (!run) return std::nullopt;
    std::lock_guard lock(run->mutex);
    if (!run->report) return std::nullopt;
    return run->dir / "report.html";
}

void Runs::kill_all() {
    std::lock_guard lock(mutex_);
    for (const auto& [id, run] : runs_) {
        std::lock_guard run_lock(run->mutex);
        if (run->pgid) kill(-run->pgid, SIGKILL);
    }
}

std::optional<fs::path> find_program(const std::string& name) {
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "/usr/bin:/bin");
    for (std::string dir; std::getline(dirs, dir, ':');) {
        if (dir.empty()) continue;
        fs::path candidate = fs::path(dir) / name;
        std::error_code ec;
        if (fs::is_regular_file(candidate, ec) && access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    return std::nullopt;
}

int run_quietly(const std::vector<std::string>& argv) {
    Child child;
    try {
        child = spawn(argv, "/", base_environment());
    } catch (const std::exception&) {
        return 127;
    }
    char buffer[4096];
    while (read(child.out, buffer, sizeof buffer) > 0) {
    }
    close(child.out);
    int status = 0;
    waitpid(child.pid, &status, 0);
    return status_code(status);
}

}  // namespace simt::serve
