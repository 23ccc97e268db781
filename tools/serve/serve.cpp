// simt_serve: the playground's server (docs/playground.md). It answers the page's API on this
// machine only, and is the one home of the playground's safety rules: the token, the Origin and
// Host checks (gate below), lessons and files named only through the catalog (catalog.hpp), runs
// spawned without a shell under limits (runs.hpp).
//
//   simt_serve [--host H] [--port N] [--root SIMT_SOURCE] [--build SIMT_BUILD] [--state DIR] [FOLDER]
//
// --state: where the working copies (DIR/work) and the runs (DIR/runs) are, BUILD/playground by
// default (the tests keep theirs apart from a learner's).
//
// prints one line, `simt playground: http://127.0.0.1:PORT/?token=TOKEN`, and serves until
// SIGINT or SIGTERM, which kill every run's processes.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include <httplib.h>
#include <nlohmann/json.hpp>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catalog.hpp"
#include "runs.hpp"

namespace fs = std::filesystem;
using json = nlohmann::json;
using namespace simt::serve;

namespace {

struct Options {
    std::string host = "127.0.0.1";
    int port = 0;
    fs::path root = SIMT_SOURCE_DIR;
    fs::path build = SIMT_BINARY_DIR;
    std::optional<fs::path> state;  // working copies and runs: BUILD/playground unless said
    std::optional<fs::path> folder;
};

[[noreturn]] void usage_error(const std::string& what) {
    std::cerr << "simt_serve: " << what << "\n"
              << "usage: simt_serve [--host H] [--port N] [--root SIMT_SOURCE] [--build SIMT_BUILD] [--state DIR] [FOLDER]\n";
    std::exit(2);
}

Options parse(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) usage_error(arg + " takes a value");
            return argv[++i];
        };
        if (arg == "--host") options.host = value();
        else if (arg == "--port") {
            auto text = value();
            try {
                options.port = std::stoi(text);
            } catch (...) {
                usage_error("--port takes a number, not '" + text + "'");
            }
            if (options.port < 0 || options.port > 65535) usage_error("--port takes 0 to 65535");
        } else if (arg == "--root") options.root = value();
        else if (arg == "--build") options.build = value();
        else if (arg == "--state") options.state = value();
        else if (arg.starts_with("-")) usage_error("unknown option " + arg);
        else if (options.folder) usage_error("one folder at most");
        else options.folder = arg;
    }
    if (options.folder) {
        std::error_code ec;
        if (!fs::is_directory(*options.folder, ec)) usage_error(options.folder->string() + " is not a folder");
        options.folder = fs::canonical(*options.folder);
    }
    if (!options.state) options.state = options.build / "playground";
    // A run's processes start in the run's folder: every path they are given is absolute.
    options.root = fs::absolute(options.root);
    options.build = fs::absolute(options.build);
    options.state = fs::absolute(*options.state);
    return options;
}

std::string make_token() {
    std::random_device device;  // /dev/urandom on Linux
    std::ostringstream token;
    for (int i = 0; i < 4; ++i) {
        char part[9];
        std::snprintf(part, sizeof part, "%08x", static_cast<unsigned>(device()));
        token << part;
    }
    return token.str();
}

bool is_loopback(const std::string& host) { return host == "127.0.0.1" || host == "localhost"; }

// Every request passes here first. A page of another site open in the same browser can send
// requests to 127.0.0.1 but cannot set X-Simt-Token, cannot hide its Origin, and (by DNS
// rebinding) can reach the port only under a Host name of its own: each is refused.
class Gate {
public:
    Gate(std::string token, const std::string& host, int port) : token_(std::move(token)) {
        std::set<std::string> names{"127.0.0.1", "localhost"};
        if (host != "0.0.0.0" && host != "::") names.insert(host);
        for (const auto& name : names) {
            hosts_.insert(name + ":" + std::to_string(port));
            origins_.insert("http://" + name + ":" + std::to_string(port));
        }
    }

    // The reason to refuse the request, or "".
    std::string refusal(const httplib::Request& req) const {
        if (!hosts_.contains(req.get_header_value("Host"))) return "this server answers only to its own address (Host)";
        if (req.has_header("Origin") && !origins_.contains(req.get_header_value("Origin")))
            return "requests from another site are refused (Origin)";
        if (req.path.starts_with("/api/") && req.get_header_value("X-Simt-Token") != token_)
            return "a missing or wrong token (X-Simt-Token)";
        if (req.path.starts_with("/run/") && req.get_param_value("token") != token_)
            return "a missing or wrong token (token=)";
        return "";
    }

private:
    std::string token_;
    std::set<std::string> hosts_, origins_;
};

void answer(httplib::Response& res, int status, const json& body) {
    res.status = status;
    // Output may stop in the middle of a UTF-8 sequence, or hold bytes that are not UTF-8.
    res.set_content(body.dump(-1, ' ', false, json::error_handler_t::replace), "application/json");
}

void refuse(httplib::Response& res, int status, const std::string& why) { answer(res, status, {{"error", why}}); }

// A request's JSON body, an object; nothing (and a 400 said) when it is not one.
std::optional<json> body_of(const httplib::Request& req, httplib::Response& res) {
    auto body = json::parse(req.body, nullptr, false);
    if (body.is_discarded() || !body.is_object()) {
        refuse(res, 400, "the body is not a JSON object");
        return std::nullopt;
    }
    return body;
}

bool is_string(const json& body, const char* key) { return body.contains(key) && body[key].is_string(); }

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

const char* page_not_built = R"(<!doctype html>
<html><head><meta charset="utf-8"><title>simt playground</title></head>
<body><h1>simt playground</h1>
<p>The playground's page was not built (it is built with Node.js and npm: <code>./lab serve</code>
builds it where they are). The API answers at <code>/api/</code>.</p></body></html>
)";

sigset_t quit_signals() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    return set;
}

}  // namespace

int main(int argc, char** argv) {
    auto options = parse(argc, argv);
    // SIGINT and SIGTERM are taken by one thread (below), never by the threads that serve.
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGPIPE, SIG_IGN);
    auto quit = quit_signals();
    pthread_sigmask(SIG_BLOCK, &quit, nullptr);

    auto simt_nvcc = options.build / "bin" / "simt-nvcc";
    if (!fs::exists(simt_nvcc))
        std::cerr << "simt_serve: " << simt_nvcc.string() << " is missing: runs will fail until it is built\n";
    std::optional<fs::path> nvcc = find_program("nvcc");
    if (!nvcc && fs::exists("/usr/local/cuda/bin/nvcc")) nvcc = "/usr/local/cuda/bin/nvcc";
    auto smi = find_program("nvidia-smi");
    if (!smi || run_quietly({smi->string(), "-L"}) != 0) nvcc.reset();  // no GPU answers

    Catalog catalog(options.root, *options.state / "work", options.folder);
    Runs runs({options.root, options.build, *options.state / "runs", nvcc});

    httplib::Server server;
    server.set_payload_max_length(4 << 20);
    int port = options.port == 0 ? server.bind_to_any_port(options.host)
                                 : (server.bind_to_port(options.host, options.port) ? options.port : -1);
    if (port <= 0) {
        std::cerr << "simt_serve: cannot listen on " << options.host << ":" << options.port << "\n";
        return 1;
    }
    auto token = make_token();
    Gate gate(token, options.host, port);

    server.set_pre_routing_handler([&](const httplib::Request& req, httplib::Response& res) {
        auto why = gate.refusal(req);
        if (why.empty()) return httplib::Server::HandlerResponse::Unhandled;
        refuse(res, 403, why);
        return httplib::Server::HandlerResponse::Handled;
    });
    server.set_post_routing_handler([](const httplib::Request&, httplib::Response& res) {
        res.set_header("Cache-Control", "no-store");
        res.set_header("X-Content-Type-Options", "nosniff");
        res.set_header("Referrer-Policy", "no-referrer");  // the page's address holds the token
    });
    server.set_error_handler([](const httplib::Request&, httplib::Response& res) {
        if (res.body.empty()) refuse(res, res.status, res.status == 404 ? "no such thing here" : "refused");
    });
    server.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr e) {
        std::string what = "the server failed";
        try {
            std::rethrow_exception(e);
        } catch (const std::exception& x) {
            what += ": " + std::string(x.what());
        } catch (...) {
        }
        refuse(res, 500, what);
    });

    server.Get("/", [&](const httplib::Request&, httplib::Response& res) {
        auto page = options.build / "web" / "playground.html";
        std::error_code ec;
        res.set_content(fs::is_regular_file(page, ec) ? read_file(page) : page_not_built, "text/html; charset=utf-8");
    });

    server.Get("/api/lessons", [&](const httplib::Request&, httplib::Response& res) {
        json lessons = json::array();
        for (const auto& l : catalog.lessons()) {
            json variants = json::array();
            for (const auto& v : l.variants) variants.push_back({{"label", v.label}, {"args", v.args}});
            lessons.push_back({{"id", l.id}, {"title", l.title}, {"files", l.files}, {"readme", l.readme},
                               {"variants", variants}});
        }
        answer(res, 200, {{"lessons", lessons}, {"gpu", runs.gpu()}});
    });

    server.Get("/api/file", [&](const httplib::Request& req, httplib::Response& res) {
        auto lesson = catalog.lesson(req.get_param_value("lesson"));
        auto file = req.get_param_value("file");
        if (!lesson || !lesson->lists(file)) return refuse(res, 404, "no such lesson or file");
        bool edited = false;
        auto text = catalog.read(*lesson, file, edited);
        answer(res, 200, {{"text", text}, {"edited", edited}});
    });

    server.Put("/api/file", [&](const httplib::Request& req, httplib::Response& res) {
        auto body = body_of(req, res);
        if (!body) return;
        if (!is_string(*body, "lesson") || !is_string(*body, "file") || !is_string(*body, "text"))
            return refuse(res, 400, "the body needs \"lesson\", \"file\" and \"text\", each a string");
        auto lesson = catalog.lesson((*body)["lesson"].get<std::string>());
        auto file = (*body)["file"].get<std::string>();
        if (!lesson || !lesson->lists(file)) return refuse(res, 404, "no such lesson or file");
        catalog.write(*lesson, file, (*body)["text"].get<std::string>());
        answer(res, 200, {{"ok", true}});
    });

    server.Post("/api/reset", [&](const httplib::Request& req, httplib::Response& res) {
        auto body = body_of(req, res);
        if (!body) return;
        if (!is_string(*body, "lesson")) return refuse(res, 400, "the body needs \"lesson\", a string");
        auto lesson = catalog.lesson((*body)["lesson"].get<std::string>());
        if (!lesson) return refuse(res, 404, "no such lesson");
        catalog.reset(*lesson);
        answer(res, 200, {{"ok", true}});
    });

    server.Post("/api/run", [&](const httplib::Request& req, httplib::Response& res) {
        auto body = body_of(req, res);
        if (!body) return;
        auto& b = *body;
        std::optional<Mode> mode = Mode::checked;
        if (b.contains("mode")) mode = b.at("mode").is_string() ? mode_named(b.at("mode").get<std::string>()) : std::nullopt;
        bool args_ok = !b.contains("args") || (b["args"].is_array() &&
                                               std::all_of(b["args"].begin(), b["args"].end(),
                                                           [](const json& a) { return a.is_string(); }));
        if (!is_string(b, "lesson") || !mode || !args_ok)
            return refuse(res, 400, "the body needs \"lesson\", a string; \"mode\", one of checked, unchecked, "
                                    "profile, gpu; \"args\", an array of strings");
        auto lesson = catalog.lesson(b["lesson"].get<std::string>());
        if (!lesson) return refuse(res, 404, "no such lesson");
        if (*mode == Mode::gpu && !runs.gpu())
            return refuse(res, 400, "no GPU answers here (nvidia-smi -L, nvcc): runs are simulated");
        if (lesson->program.empty()) return refuse(res, 400, "the lesson has no .cu or .cpp file to build");
        auto args = b.contains("args") ? b["args"].get<std::vector<std::string>>() : std::vector<std::string>{};
        auto id = runs.start(catalog, *lesson, *mode, std::move(args));
        if (!id) return refuse(res, 429, "two runs are going: wait for one to end, or stop it");
        answer(res, 200, {{"id", *id}});
    });

    server.Get(R"(/api/run/(\d+))", [&](const httplib::Request& req, httplib::Response& res) {
        std::size_t from = 0;
        try {
            if (req.has_param("from")) from = std::stoull(req.get_param_value("from"));
        } catch (...) {
            return refuse(res, 400, "from= takes a byte offset");
        }
        auto status = runs.status(req.matches[1], from);
        if (!status) return refuse(res, 404, "no such run");
        answer(res, 200, *status);
    });

    server.Post(R"(/api/run/(\d+)/stop)", [&](const httplib::Request& req, httplib::Response& res) {
        if (!runs.stop(req.matches[1])) return refuse(res, 404, "no such run");
        answer(res, 200, {{"ok", true}});
    });

    server.Get(R"(/run/(\d+)/report\.html)", [&](const httplib::Request& req, httplib::Response& res) {
        auto page = runs.report(req.matches[1]);
        if (!page) return refuse(res, 404, "no such run, or it left no report page");
        res.set_content(read_file(*page), "text/html; charset=utf-8");
    });

    // Ctrl-C or SIGTERM: every run's processes go with the server.
    std::thread([&runs, quit] {
        int sig = 0;
        sigwait(&quit, &sig);
        runs.kill_all();
        std::fflush(stdout);
        _exit(0);
    }).detach();

    if (!is_loopback(options.host))
        std::cerr << "simt_serve: WARNING: listening on " << options.host << ", not on this machine alone: anyone "
                  << "who can reach port " << port << " and learns the token can run code on this machine as you\n";
    std::string shown = is_loopback(options.host) || options.host == "0.0.0.0" || options.host == "::"
                            ? "127.0.0.1" : options.host;
    std::cout << "simt playground: http://" << shown << ":" << port << "/?token=" << token << std::endl;
    return server.listen_after_bind() ? 0 : 1;
}
