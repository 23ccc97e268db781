// The report pipeline's middle (finding.hpp): a checker's draft is kept per block, then filtered,
// de-duplicated by its one key, symbolised (the allocation's name) and handed to format.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <string_view>

#include "finding.hpp"
#include "page.hpp"

namespace simt::sim::detail {

namespace {

/// The findings printed so far, read by findings() and the exit summary.
struct Published {
    std::mutex m;
    std::vector<Finding> all;
    std::set<FindingKey> keys;  // published, by finding.hpp's one key
};

/// Never destroyed: workers may still publish while the process ends.
Published& published() {
    static Published* p = new Published;
    return *p;
}

/// Line `line` of `file` and the `more` lines after it, each without its // comment, joined by
/// spaces.
std::string read_source_lines(const char* file, unsigned line, unsigned more = 0) {
    std::string joined;
    for (std::string text : source_lines(file, line, line + more)) {
        if (auto c = text.find("//"); c != std::string::npos) text.resize(c);
        joined += (joined.empty() ? "" : " ") + text;
    }
    return joined;
}

/// A byte of a C++ identifier: ASCII letters, digits and _, or part of a UTF-8 character.
bool identifier_char(char c) {
    auto u = static_cast<unsigned char>(c);
    return std::isalnum(u) || c == '_' || u >= 0x80;
}

/// The calls whose first argument is the pointer they allocate into: cudaMalloc (and
/// cudaMallocManaged, cudaMallocPitch, ...), cudaHostAlloc, and CUB's allocator's DeviceAllocate.
constexpr std::string_view allocation_calls[] = {"cudaMalloc", "cudaHostAlloc", "DeviceAllocate"};

/// The allocation call on this line, or "".
std::string_view allocation_call(const std::string& text) {
    for (std::string_view call : allocation_calls)
        if (text.find(call) != std::string::npos) return call;
    return "";
}

/// The variable an allocation call (`name`, one of allocation_calls) stores into: its
/// first argument without the cast and the `&` that only convert it: `d_a` in `cudaMalloc(&d_a,
/// n)` or `cudaMalloc((void**)&d_a, n)`, `d_buf[k]` in a loop's `cudaMalloc(&d_buf[k], n)`, `p`
/// in a helper's `cudaMalloc(p, n)`; "" when the line has no such call. `column` (1-based, 0 when
/// unknown) is where the call's location points, its opening parenthesis: of two calls on one
/// line, the one that made the allocation.
std::string cuda_malloc_target(const std::string& text, std::string_view name, unsigned column) {
    std::size_t call = column > 0 && column <= text.size() ? text.rfind(name, column - 1)
                                                           : text.find(name);
    if (call == std::string::npos) call = text.find(name);
    if (call == std::string::npos) return "";
    std::size_t open = text.find('(', call);
    if (open == std::string::npos) return "";
    std::size_t end = open + 1;
    for (int depth = 0; end < text.size(); ++end) {
        char c = text[end];
        bool arrow = c == '>' && text[end - 1] == '-';
        if (c == '(' || c == '[' || c == '<') ++depth;
        else if ((c == ')' || c == ']' || (c == '>' && !arrow)) && depth-- == 0) break;
        else if (c == ',' && depth == 0) break;
    }
    std::string target;
    for (char c : text.substr(open + 1, end - open - 1))
        if (!std::isspace(static_cast<unsigned char>(c))) target += c;
    // Drop what only converts the pointer: the cast to void** and the address-of.
    for (std::string_view cast : {"reinterpret_cast<void**>", "static_cast<void**>", "(void**)"})
        for (std::size_t at; (at = target.find(cast)) != std::string::npos;)
            target.erase(at, cast.size());
    std::erase_if(target, [](char c) { return c == '&' || c == '(' || c == ')'; });
    // A variable, an element of one or a member: letters, digits, _ (and UTF-8, which C++
    // identifiers may hold), [ ] . and ->; not an expression such as p + 1.
    bool variable = !target.empty() && !std::isdigit(static_cast<unsigned char>(target[0]));
    for (char c : target)
        variable = variable && (identifier_char(c) || std::strchr("[].->", c));
    return variable ? target : "";
}

/// The variable a declaration on this line declares (`tile` in `__shared__ float tile[16][16];`).
std::string declared_name(const std::string& text) {
    std::size_t cut = std::string::npos;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '=' && (i + 1 == text.size() || text[i + 1] != '=') &&
            (i == 0 || !std::strchr("=!<>+-*/%&|^", text[i - 1]))) {
            cut = i;
            break;
        }
    }
    if (cut == std::string::npos) cut = text.find_first_of("({;");
    if (cut == std::string::npos) return "";
    std::size_t end = cut;
    while (end > 0 && text[end - 1] == ' ') --end;
    std::size_t begin = end;
    while (begin > 0 && identifier_char(text[begin - 1])) --begin;
    std::string name = text.substr(begin, end - begin);
    // Not a declaration: a member call (v.push_back(...)), or a statement (if (...), for (...)).
    static const char* const keywords[] = {"auto", "if", "for", "while", "switch", "return",
                                           "sizeof", "do", "else", "case", "new", "delete"};
    bool member = begin > 0 && (text[begin - 1] == '.' || (begin > 1 && text[begin - 1] == '>' &&
                                                             text[begin - 2] == '-'));
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])) || member ||
        std::find(std::begin(keywords), std::end(keywords), name) != std::end(keywords))
        return "";
    return name;
}

}  // namespace

const char* space_name(Space s) {
    return s == Space::shared ? "shared" : s == Space::constant ? "constant" : "global";
}
std::string describe(const Allocation* a) { return fmt::format("'{}'", array_name(a)); }

std::string element_index(const Allocation* a, std::size_t flat) {
    if (a->rank == 1) return std::to_string(flat);
    std::size_t index[3] = {};
    for (unsigned i = a->rank; i-- > 0;) {
        index[i] = flat % a->extents[i];
        flat /= a->extents[i];
    }
    index[0] += flat * a->extents[0];  // past the end: the first index shows how far
    return fmt::format("({})", fmt::join(index, index + a->rank, ", "));
}

std::string array_extent(const Allocation* a) {
    if (a->rank == 1) return std::to_string(a->size / a->elem_size);
    return fmt::format("({})", fmt::join(a->extents, a->extents + a->rank, ", "));
}

bool untyped(const Allocation* a) {
    return a->elem_size == 1 && std::strcmp(a->elem_type, "byte") == 0;
}

std::string origin(const Allocation* a) {
    if (a->space == Space::shared && !*a->site.file_name())  // declared by no line of the kernel
        return fmt::format("dynamic shared memory, {} bytes given at the launch", a->size);
    std::size_t n = a->size / a->elem_size;
    std::string count = a->rank > 1
                            ? fmt::format("{}", fmt::join(a->extents, a->extents + a->rank, "x"))
                            : std::to_string(n);
    // Memory of no known type (cudaMalloc through a void*, a struct's bytes) is counted in bytes.
    std::string what =
        untyped(a) ? fmt::format("{} byte{}", n, n == 1 ? "" : "s")
                   : fmt::format("{}, {} element{}", a->elem_type, count, n == 1 ? "" : "s");
    return fmt::format(
        "{}, {}{} at {}", what, a->space == Space::shared || a->symbol ? "declared" : "allocated",
        a->cuda && cuda_several_devices() ? fmt::format(" on device {}", a->device) : "",
        where(a->site));
}

std::string coord(uint3 c) { return fmt::format("({},{},{})", c.x, c.y, c.z); }

const char* base_name(const char* file) {
    if (!file || !*file) return "?";
    const char* slash = std::strrchr(file, '/');
    return slash ? slash + 1 : file;
}

std::vector<std::string> source_lines(const char* file, unsigned first, unsigned last) {
    std::vector<std::string> lines;
    std::ifstream in(file ? file : "");
    std::string text;
    for (unsigned i = 1; i <= last && std::getline(in, text); ++i)
        if (i >= first) lines.push_back(std::move(text));
    return lines;
}

/// Whether the CUDA atomic functions called on line `line` of `file` all drop their result and
/// have a form without one: each call a statement of its own (`atomicAdd(p, v);`, after `{`,
/// `;`, `}`, a label, `else`, `do`, the condition of `if`, `for` or `while`, or a cast to
/// `(void)`), of an operation PTX's `red` has (add, sub, min, max, inc, dec, and, or, xor; not
/// exchange or compare-and-swap). That is what nvcc sees when it issues a RED for the call rather
/// than an ATOM; from inside atomicAdd the simulator cannot see it, so it reads the statement. A
/// line without such a call (libcu++'s atomics, a macro, an unreadable file) is counted `_op_atom`.
///   `if (t == 0) atomicAdd(total, v);`     -> true
///   `int old = atomicAdd(total, v);`        -> false
bool atomic_result_unused(const char* file, unsigned line) {
    std::string context;
    std::size_t begin = 0, end = 0;  // the line's bytes in `context`
    const unsigned first = line > 3 ? line - 3 : 1;
    unsigned i = first;
    for (std::string& text : source_lines(file, first, line + 4)) {
        if (auto c = text.find("//"); c != std::string::npos) text.resize(c);
        if (i == line) begin = context.size();
        context += text + "\n";
        if (i == line) end = context.size();
        ++i;
    }
    if (end == 0) return false;
    auto word = [&](std::size_t at) {  // the identifier ending just before `at`
        std::size_t b = at;
        while (b > 0 && (std::isalnum(static_cast<unsigned char>(context[b - 1])) ||
                         context[b - 1] == '_'))
            --b;
        return context.substr(b, at - b);
    };
    auto back = [&](std::size_t at) {  // past the blanks before `at`
        while (at > 0 && std::isspace(static_cast<unsigned char>(context[at - 1]))) --at;
        return at;
    };
    // Whether an expression that starts at `at` starts a statement.
    auto starts_statement = [&](auto&& self, std::size_t at) -> bool {
        at = back(at);
        if (at == 0) return false;  // the start of what was read: unknown
        const char c = context[at - 1];
        if (c == ';' || c == '{' || c == '}') return true;
        if (c == ':') return at < 2 || context[at - 2] != ':';
        if (c == ')') {
            int depth = 0;
            std::size_t open = at - 1;
            for (;; --open) {
                if (context[open] == ')') ++depth;
                else if (context[open] == '(' && --depth == 0) break;
                if (open == 0) return false;
            }
            std::string inside = context.substr(open + 1, at - 2 - open);
            inside.erase(std::remove_if(inside.begin(), inside.end(),
                                        [](char x) { return std::isspace(static_cast<unsigned char>(x)); }),
                         inside.end());
            if (inside == "void") return self(self, open);
            const std::string w = word(back(open));
            return w == "if" || w == "for" || w == "while";
        }
        const std::string w = word(at);
        return w == "else" || w == "do";
    };
    static constexpr const char* reducible[] = {"Add", "Sub", "Min", "Max", "Inc",
                                                "Dec", "And", "Or",  "Xor"};
    bool any = false;
    for (std::size_t at = context.find("atomic", begin); at < end;
         at = context.find("atomic", at + 1)) {
        if (at > 0 && (std::isalnum(static_cast<unsigned char>(context[at - 1])) ||
                       context[at - 1] == '_' || context[at - 1] == '.'))
            continue;
        std::size_t name_end = at + 6;
        while (name_end < context.size() &&
               (std::isalnum(static_cast<unsigned char>(context[name_end])) ||
                context[name_end] == '_'))
            ++name_end;
        std::size_t open = name_end;
        while (open < context.size() && std::isspace(static_cast<unsigned char>(context[open])))
            ++open;
        if (open >= context.size() || context[open] != '(') continue;
        std::string op = context.substr(at + 6, name_end - at - 6);
        for (std::string_view suffix : {"_block", "_system"})
            if (op.ends_with(suffix)) op.erase(op.size() - suffix.size());
        const bool cuda_atomic =
            op == "Exch" || op == "CAS" ||
            std::find_if(std::begin(reducible), std::end(reducible),
                         [&](const char* r) { return op == r; }) != std::end(reducible);
        if (!cuda_atomic) continue;
        any = true;
        if (op == "Exch" || op == "CAS") return false;
        int depth = 0;
        std::size_t close = open;
        for (; close < context.size(); ++close) {
            if (context[close] == '(') ++depth;
            else if (context[close] == ')' && --depth == 0) break;
        }
        std::size_t after = close + 1;
        while (after < context.size() && std::isspace(static_cast<unsigned char>(context[after])))
            ++after;
        std::size_t start = at;  // `::atomicAdd`, `ns::atomicAdd`
        while (start >= 2 && context[start - 1] == ':' && context[start - 2] == ':')
            start = back(start - 2 - word(start - 2).size());
        if (close >= context.size() || after >= context.size() || context[after] != ';' ||
            !starts_statement(starts_statement, start))
            return false;
    }
    return any;
}

bool same_source(const char* a, const char* b) {
    if (!a || !b) return false;
    std::string_view x(a), y(b);
    while (x.starts_with("./")) x.remove_prefix(2);
    while (y.starts_with("./")) y.remove_prefix(2);
    if (x.size() < y.size()) std::swap(x, y);
    return x.ends_with(y) && (x.size() == y.size() || x[x.size() - y.size() - 1] == '/');
}

std::string file_line(const char* file, unsigned line) {
    return fmt::format("{}:{}", base_name(file), line);
}

std::string where(const Loc& loc) {
    const char* f = loc.file_name();
    if (!f || !*f) return "an unknown line (an access through *p: write p[0] to get its line)";
    return file_line(f, loc.line());
}

void called_on_host(const char* what, Loc loc, const char* only) {
    throw simt::Error(fmt::format("simt: {} called on the host at {}; {}", what, where(loc), only));
}

std::string array_name(const Allocation* a) {
    static std::mutex m;
    std::lock_guard lock(m);
    auto* rec = const_cast<Allocation*>(a);
    if (rec->name.empty()) {
        const char* file = a->site.file_name();
        if (file && *file) {
            std::string line = read_source_lines(file, a->site.line());
            // A call may go on over the next lines: `cudaMalloc(` here, its `&d_a` below.
            std::string_view call = allocation_call(line);
            rec->name = !call.empty()
                            ? cuda_malloc_target(read_source_lines(file, a->site.line(), 3), call,
                                                 a->site.column())
                            : declared_name(line);
        }
        if (rec->name.empty())
            rec->name =
                a->space == Space::shared ? "shared array" : "allocation #" + std::to_string(a->id);
    }
    return rec->name;
}

std::string not_reported_yet(const std::exception& e) {
    std::string what = e.what();
    const std::string first_line = what.substr(0, what.find('\n')) + " (reported above)";
    auto& p = published();
    std::lock_guard lock(p.m);
    auto* fault = dynamic_cast<const KernelFault*>(&e);
    // An error whose text is a finding's (a host access of device memory ends the program so).
    if (!fault)
        return std::any_of(p.all.begin(), p.all.end(),
                           [&](const Finding& f) { return f.text == what; })
                   ? first_line
                   : what;
    if (!fault->finding) return what;
    if (!p.keys.contains(*fault->finding)) return what;  // not printed (SIMT_CHECK, or cleared)
    return first_line;
}

FindingKey key_of(const Draft& d) {
    FindingKey key;
    key.kind = d.kind;
    if (d.kind == FindingKind::leak) {
        key.allocation = d.array->id;
        return key;
    }
    // Races and uninitialised reads: once per line (a line is usually hit by every thread, and
    // a race once per pair of lines, in either order). memcheck and synccheck: per column too.
    bool by_line = d.kind == FindingKind::data_race || d.kind == FindingKind::memory_model ||
                   d.kind == FindingKind::uninitialized_read ||
                   d.kind == FindingKind::misaligned_atomic ||
                   d.kind == FindingKind::misaligned_address;
    for (const DraftSite& s : d.sites)
        key.lines.push_back({s.loc.file_name() ? s.loc.file_name() : "", s.loc.line(),
                             by_line ? 0 : s.loc.column()});
    std::sort(key.lines.begin(), key.lines.end());
    return key;
}

bool was_published(const FindingKey& key) {
    auto& p = published();
    std::lock_guard lock(p.m);
    return p.keys.contains(key);
}

void publish(std::vector<PendingFinding>& fs, std::uint64_t failed) {
    std::stable_sort(fs.begin(), fs.end(), [](const PendingFinding& a, const PendingFinding& b) {
        return a.block != b.block ? a.block < b.block : a.thread < b.thread;
    });
    auto& p = published();
    std::lock_guard lock(p.m);
    // The program's output before the report, as it came: stdout is buffered in a pipe.
    if (std::any_of(fs.begin(), fs.end(), [&](const PendingFinding& f) { return f.block <= failed; }))
        std::fflush(stdout);
    // Each key's first finding in block and thread order is the one printed; the launch's others
    // of the same key are counted into it.
    std::map<FindingKey, Draft*> first;
    for (PendingFinding& f : fs) {
        if (f.block > failed) continue;
        const auto threads = static_cast<std::uint64_t>(f.threads.count());
        auto [it, added] = first.try_emplace(f.key, &f.draft);
        if (added) {
            f.draft.threads = threads;
            f.draft.accesses = f.accesses;
        } else {
            it->second->threads += threads;
            it->second->accesses += f.accesses;
        }
    }
    const std::string& json = config().report_json;
    std::ofstream out;
    if (!json.empty()) out.open(json, std::ios::app);
    for (PendingFinding& f : fs) {
        // A block after the launch's failed one may have run only because blocks run in
        // parallel: what it found depends on the core count, so it is dropped.
        if (f.block > failed) continue;
        if (!p.keys.insert(f.key).second) continue;
        if (f.draft.array) array_name(f.draft.array);  // symbolise: the name from its source line
        Finding finding = to_finding(f.draft);
        std::fprintf(stderr, "%s\n", finding.text.c_str());
        if (out) out << format_json(finding) << "\n";
        page_finding(finding, f.draft);
        p.all.push_back(std::move(finding));
    }
    std::fflush(stderr);
}

void print_summary(const CheckedKinds& checked) {
    auto& p = published();
    std::lock_guard lock(p.m);
    std::fflush(stdout);  // the program's own output first, in a pipe too
    if (p.all.empty()) {
        if (launches_ended.load() == 0) return;
        fmt::print(stderr, "{}\n", no_findings_text(checked));
        std::fflush(stderr);
        return;
    }
    std::vector<std::pair<FindingKind, int>> kinds;
    for (const Finding& f : p.all) {
        auto k =
            std::find_if(kinds.begin(), kinds.end(), [&](auto& e) { return e.first == f.kind; });
        if (k == kinds.end()) kinds.emplace_back(f.kind, 1);
        else ++k->second;
    }
    std::vector<std::string> counts;
    for (auto& [kind, n] : kinds) counts.push_back(fmt::format("{} {}", n, to_string(kind)));
    fmt::print(stderr, "simt: {} finding{} ({}){}\n", p.all.size(), p.all.size() == 1 ? "" : "s",
               fmt::join(counts, ", "),
               config().report_json.empty() ? "" : "; JSON in " + config().report_json);
    std::fflush(stderr);
}

}  // namespace simt::sim::detail

namespace simt::sim {

std::vector<Finding> findings() {
    auto& p = detail::published();
    std::lock_guard lock(p.m);
    return p.all;
}

void clear_findings() {
    auto& p = detail::published();
    std::lock_guard lock(p.m);
    p.all.clear();
    p.keys.clear();
}

}  // namespace simt::sim
