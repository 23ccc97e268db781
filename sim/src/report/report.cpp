// Findings: built in the cold path of the access hook, published in block order, printed once.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <set>

#include "finding.hpp"
#include "../process.hpp"

namespace simt::sim::detail {

namespace {

Published& published() { return process().published; }

std::string read_source_line(const char* file, unsigned line) {
    std::ifstream in(file);
    std::string text;
    for (unsigned i = 0; i < line && std::getline(in, text); ++i) {
    }
    return in ? text : std::string();
}

/// The variable a line declares: `auto counter = simt::to_device(...)` gives "counter",
/// `__shared__ simt::shared<int[32][33]> tile;` gives "tile".
/// The variable a cudaMalloc call stores into: `d_a` in `cudaMalloc(&d_a, bytes)` or
/// `cudaMalloc((void**)&d_a, bytes)`; "" when the line has no such call. `column` (1-based, 0
/// when unknown) is where the call's location points, its opening parenthesis: of two calls on
/// one line, the one that made the allocation.
std::string cuda_malloc_target(const std::string& text, unsigned column) {
    std::size_t call = column > 0 && column <= text.size() ? text.rfind("cudaMalloc", column - 1)
                                                           : text.find("cudaMalloc");
    if (call == std::string::npos) call = text.find("cudaMalloc");
    if (call == std::string::npos) return "";
    std::size_t amp = text.find('&', call), comma = text.find(',', call);
    if (amp == std::string::npos || amp > comma) return "";
    std::size_t end = comma;
    while (end > amp && !(std::isalnum(static_cast<unsigned char>(text[end - 1])) || text[end - 1] == '_'))
        --end;
    std::size_t begin = end;
    while (begin > amp && (std::isalnum(static_cast<unsigned char>(text[begin - 1])) || text[begin - 1] == '_'))
        --begin;
    return text.substr(begin, end - begin);
}

std::string declared_name(std::string text, unsigned column) {
    if (auto c = text.find("//"); c != std::string::npos) text.resize(c);
    if (std::string target = cuda_malloc_target(text, column); !target.empty()) return target;
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
    while (begin > 0 && (std::isalnum(static_cast<unsigned char>(text[begin - 1])) || text[begin - 1] == '_'))
        --begin;
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

/// "(x,y,z)" or "[x,y,z]", built by appending: `"(" + std::string&&` trips a false -Wrestrict
/// in GCC 12's optimiser.
std::string bracketed(char open, uint3 c, char close) {
    std::string s(1, open);
    s += std::to_string(c.x);
    s += ',';
    s += std::to_string(c.y);
    s += ',';
    s += std::to_string(c.z);
    s += close;
    return s;
}

}  // namespace

const char* space_name(Space s) {
    return s == Space::shared ? "shared" : s == Space::constant ? "constant" : "global";
}
std::string describe(const Allocation* a) {
    std::string d(1, '\'');
    d += array_name(a);
    d += '\'';
    return d;
}

namespace {
/// "(a, b)" from the numbers `part(i)` for i < n.
template <class Part>
std::string tuple_of(unsigned n, Part part) {
    std::string s = "(";
    for (unsigned i = 0; i < n; ++i) s += (i ? ", " : "") + std::to_string(part(i));
    return s + ")";
}
}  // namespace

std::string element_index(const Allocation* a, std::size_t flat) {
    if (a->rank == 1) return std::to_string(flat);
    std::size_t index[3] = {};
    for (unsigned i = a->rank; i-- > 0;) {
        index[i] = flat % a->extents[i];
        flat /= a->extents[i];
    }
    index[0] += flat * a->extents[0];  // past the end: the first index shows how far
    return tuple_of(a->rank, [&](unsigned i) { return index[i]; });
}

std::string array_extent(const Allocation* a) {
    if (a->rank == 1) return std::to_string(a->size / a->elem_size);
    return tuple_of(a->rank, [&](unsigned i) { return a->extents[i]; });
}

std::string origin(const Allocation* a) {
    if (a->space == Space::shared && !*a->site.file_name())  // declared by no line of the kernel
        return "dynamic shared memory, " + std::to_string(a->size) + " bytes given at the launch";
    std::string count = std::to_string(a->size / a->elem_size);
    if (a->rank > 1) {
        count = std::to_string(a->extents[0]);
        for (unsigned i = 1; i < a->rank; ++i) count += "x" + std::to_string(a->extents[i]);
    }
    return std::string(a->elem_type) + ", " + count + " element" +
           (a->size / a->elem_size == 1 ? "" : "s") + ", " +
           (a->space == Space::shared || a->symbol ? "declared" : "allocated") +
           (a->cuda && cuda_several_devices() ? " on device " + std::to_string(a->device) : "") +
           " at " + where(a->site);
}

std::string coord(uint3 c) { return bracketed('(', c, ')'); }

std::string where(const Loc& loc) {
    const char* f = loc.file_name();
    if (!f || !*f) return "an unknown line (an access through *p: write p[0] to get its line)";
    const char* slash = std::strrchr(f, '/');
    return std::string(slash ? slash + 1 : f) + ":" + std::to_string(loc.line());
}

std::string array_name(const Allocation* a) {
    static std::mutex m;
    std::lock_guard lock(m);
    auto* rec = const_cast<Allocation*>(a);
    if (rec->name.empty()) {
        const char* file = a->site.file_name();
        if (file && *file) rec->name = declared_name(read_source_line(file, a->site.line()), a->site.column());
        if (rec->name.empty())
            rec->name = a->space == Space::shared ? "shared array" : "allocation #" + std::to_string(a->id);
    }
    return rec->name;
}

std::string not_reported_yet(const std::string& what) {
    const std::string first_line = what.substr(0, what.find('\n'));
    if (first_line == what) return what;
    for (const Finding& f : simt::sim::findings())
        if (f.text.rfind(first_line, 0) == 0) return first_line + " (reported above)";
    return what;
}

void add_finding(Draft d) {
    BlockState& b = tls_worker->block;
    std::string key = dedup_key(d);
    for (const PendingFinding& p : b.findings)
        if (p.key == key) return;
    b.findings.push_back({b.linear, tls_thread ? tls_thread->linear : 0, std::move(key), to_finding(d)});
}

void publish(std::vector<PendingFinding>& fs) {
    std::stable_sort(fs.begin(), fs.end(), [](const PendingFinding& a, const PendingFinding& b) {
        return a.block != b.block ? a.block < b.block : a.thread < b.thread;
    });
    auto& p = published();
    std::lock_guard lock(p.m);
    const std::string& json = config().report_json;
    std::ofstream out;
    if (!json.empty()) out.open(json, std::ios::app);
    for (PendingFinding& f : fs) {
        if (!p.keys.insert(f.key).second) continue;
        std::fprintf(stderr, "%s\n", f.f.text.c_str());
        if (out) out << format_json(f.f) << "\n";
        p.all.push_back(std::move(f.f));
    }
    std::fflush(stderr);
}

void print_summary() {
    auto& p = published();
    std::lock_guard lock(p.m);
    if (p.all.empty()) return;
    std::vector<std::pair<FindingKind, int>> kinds;
    for (const Finding& f : p.all) {
        auto k = std::find_if(kinds.begin(), kinds.end(), [&](auto& e) { return e.first == f.kind; });
        if (k == kinds.end()) kinds.emplace_back(f.kind, 1);
        else ++k->second;
    }
    std::string list;
    for (auto& [kind, n] : kinds) list += (list.empty() ? "" : ", ") + std::to_string(n) + " " + std::string(to_string(kind));
    std::fprintf(stderr, "simt: %zu finding%s (%s)%s\n", p.all.size(), p.all.size() == 1 ? "" : "s",
                 list.c_str(),
                 config().report_json.empty() ? "" : ("; JSON in " + config().report_json).c_str());
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
    detail::findings_generation.fetch_add(1);
}

}  // namespace simt::sim
