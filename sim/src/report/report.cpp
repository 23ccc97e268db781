// Findings: built in the cold path of the access hook, published in block order, printed once.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <set>

#include "../runtime.hpp"

namespace simt::sim::detail {

namespace {

struct Published {
    std::mutex m;
    std::vector<Finding> all;
    std::set<std::string> keys;
};

Published& published() {
    static Published* p = new Published;  // read by the exit summary, after other statics die
    return *p;
}

alignas(64) thread_local std::byte scratch[4096];
thread_local Allocation scratch_alloc = [] {
    Allocation a;
    a.base = scratch;
    a.bytes = a.size = sizeof scratch;
    a.scratch = true;
    a.name = "(scratch)";
    return a;
}();

std::byte* poisoned_scratch(std::size_t size) {
    if (size > sizeof scratch) {
        std::fprintf(stderr, "simt: an element of %zu bytes is too large for the simulator's "
                             "poison buffer (4096 bytes)\n", size);
        std::abort();
    }
    std::memset(scratch, 0xFF, size);
    return scratch;
}

const char* access_name(Access k) {
    return k == Access::read ? "read" : k == Access::write ? "write" : "atomic";
}

std::string read_source_line(const char* file, unsigned line) {
    std::ifstream in(file);
    std::string text;
    for (unsigned i = 0; i < line && std::getline(in, text); ++i) {
    }
    return in ? text : std::string();
}

/// The variable a line declares: `auto counter = simt::to_device(...)` gives "counter",
/// `__shared__ simt::shared<int[32][33]> tile;` gives "tile".
std::string declared_name(std::string text) {
    if (auto c = text.find("//"); c != std::string::npos) text.resize(c);
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
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])) || name == "auto") return "";
    return name;
}

std::string json_string(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\', out += c;
        else if (c == '\n') out += "\\n";
        else if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
        } else out += c;
    }
    return out + "\"";
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

std::string json_coord(uint3 c) {
    return bracketed('[', c, ']');
}

std::string to_json(const Finding& f) {
    std::string threads, blocks, sites;
    for (const Site& s : f.sites) {
        if (!threads.empty()) threads += ',', blocks += ',';
        threads += json_coord(s.thread);
        blocks += json_coord(s.block);
        sites += std::string(sites.empty() ? "" : ",") + "{\"file\":" + json_string(s.file) +
                 ",\"line\":" + std::to_string(s.line) + ",\"access\":" + json_string(s.access) +
                 ",\"thread\":" + json_coord(s.thread) + ",\"block\":" + json_coord(s.block) + "}";
    }
    const Site first = f.sites.empty() ? Site{} : f.sites.front();
    return "{\"kind\":" + json_string(f.kind) +
           (f.hazard.empty() ? "" : ",\"hazard\":" + json_string(f.hazard)) +
           ",\"space\":" + json_string(f.space) +
           ",\"array\":" + json_string(f.array) + ",\"index\":" + json_string(f.index) +
           ",\"threads\":[" + threads + "],\"blocks\":[" + blocks + "],\"file\":" +
           json_string(first.file) + ",\"line\":" + std::to_string(first.line) + ",\"sites\":[" +
           sites + "],\"text\":" + json_string(f.text) + "}";
}

}  // namespace

const char* space_name(Space s) { return s == Space::shared ? "shared" : "global"; }
Site site_here(const Loc& loc, const char* access) {
    Site s;
    s.file = loc.file_name();
    s.line = loc.line();
    if (tls_thread) {
        s.thread = tls_thread->idx;
        s.block = tls_worker->block.idx;
    }
    s.access = access;
    return s;
}

std::string describe(const Allocation* a) {
    std::string d(1, '\'');
    d += array_name(a);
    d += '\'';
    return d;
}

std::string origin(const Allocation* a) {
    return std::string(a->elem_type) + ", " + std::to_string(a->size / a->elem_size) + " element" +
           (a->size / a->elem_size == 1 ? "" : "s") + ", " +
           (a->space == Space::shared ? "declared" : "allocated") + " at " + where(a->site);
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
        if (file && *file) rec->name = declared_name(read_source_line(file, a->site.line()));
        if (rec->name.empty())
            rec->name = a->space == Space::shared ? "shared array" : "allocation #" + std::to_string(a->id);
    }
    return rec->name;
}

const Allocation* scratch_allocation() { return &scratch_alloc; }

void add_finding(std::string key, Finding f) {
    BlockState& b = tls_worker->block;
    for (const PendingFinding& p : b.findings)
        if (p.key == key) return;
    b.findings.push_back({b.linear, tls_thread ? tls_thread->linear : 0, std::move(key), std::move(f)});
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
        if (out) out << to_json(f.f) << "\n";
        p.all.push_back(std::move(f.f));
    }
    std::fflush(stderr);
}

void print_summary() {
    auto& p = published();
    std::lock_guard lock(p.m);
    if (p.all.empty()) return;
    std::vector<std::pair<std::string, int>> kinds;
    for (const Finding& f : p.all) {
        auto k = std::find_if(kinds.begin(), kinds.end(), [&](auto& e) { return e.first == f.kind; });
        if (k == kinds.end()) kinds.emplace_back(f.kind, 1);
        else ++k->second;
    }
    std::string list;
    for (auto& [kind, n] : kinds) list += (list.empty() ? "" : ", ") + std::to_string(n) + " " + kind;
    std::fprintf(stderr, "simt: %zu finding%s (%s)%s\n", p.all.size(), p.all.size() == 1 ? "" : "s",
                 list.c_str(),
                 config().report_json.empty() ? "" : ("; JSON in " + config().report_json).c_str());
    std::fflush(stderr);
}

std::byte* bad_access(const Allocation* a, const void* p, std::size_t size, Access kind, Loc loc) {
    if (!tls_thread) {
        if (!a)
            throw simt::Error("simt: a null simt::ptr was dereferenced at " + where(loc));
        throw simt::Error("simt: device memory " + describe(a) + " (" + origin(a) +
                          ") was accessed on the host at " + where(loc) +
                          "; only kernels can touch device memory: copy it with copy_to_host()");
    }
    Finding f;
    std::string what = access_name(kind);
    f.sites.push_back(site_here(loc, what.c_str()));
    std::string by = "  " + what + " by thread " + coord(tls_thread->idx) + " block " +
                     coord(tls_worker->block.idx) + " at " + where(loc) + "\n";
    if (!a) {
        f.kind = "null-pointer";
        f.text = "simt: " + what + " through a null simt::ptr\n" + by +
                 "  not performed; the kernel was given no array for this parameter";
    } else {
        f.space = space_name(a->space);
        f.array = array_name(a);
        auto off = reinterpret_cast<const std::byte*>(p) - a->base;
        long long index = off >= 0 ? off / static_cast<long long>(a->elem_size)
                                   : -((-off + static_cast<long long>(a->elem_size) - 1) /
                                       static_cast<long long>(a->elem_size));
        f.index = std::to_string(index);
        if (a->freed) {
            f.kind = "use-after-free";
            f.text = "simt: use after free: " + what + " of " + f.space + " memory " + describe(a) +
                     "[" + f.index + "] (" + origin(a) + ", already freed)\n" + by +
                     "  not performed; keep the DeviceArray alive until the kernels using it have "
                     "finished";
        } else {
            f.kind = "out-of-bounds";
            f.text = "simt: out-of-bounds " + what + " of " + f.space + " memory " + describe(a) +
                     "[" + f.index + "] (" + origin(a) + ")\n" + by +
                     "  not performed (a read gives a poisoned value); valid indices are 0.." +
                     std::to_string(static_cast<long long>(a->size / a->elem_size) - 1) +
                     ": guard the access with the array's size or fix the index";
        }
    }
    std::string key = f.kind + "@" + f.sites[0].file + ":" + std::to_string(loc.line()) + ":" +
                      std::to_string(loc.column());
    add_finding(std::move(key), std::move(f));
    return poisoned_scratch(size);
}

std::byte* bad_index(const Allocation* a, const std::ptrdiff_t* idx, const std::size_t* ext,
                     int rank, std::size_t size, Loc loc) {
    if (!tls_thread)
        throw simt::Error("simt: device memory was indexed on the host at " + where(loc) +
                          "; only kernels can touch device memory: copy it with copy_to_host()");
    Finding f;
    f.kind = "out-of-bounds";
    f.sites.push_back(site_here(loc, "access"));
    std::string index, extent, bad;
    for (int d = 0; d < rank; ++d) {
        index += (d ? ", " : "") + std::to_string(idx[d]);
        extent += (d ? ", " : "") + std::to_string(ext[d]);
        if (static_cast<std::size_t>(idx[d]) >= ext[d] && bad.empty())
            bad = "index " + std::to_string(idx[d]) + " is outside extent " + std::to_string(ext[d]) +
                  (rank > 1 ? " of dimension " + std::to_string(d) : "");
    }
    f.index = rank > 1 ? "(" + index + ")" : index;
    std::string view_extent = rank > 1 ? "(" + extent + ")" : extent;
    if (a) {
        f.space = space_name(a->space);
        f.array = array_name(a);
    }
    f.text = "simt: out-of-bounds access of " + (a ? f.space + " memory " + describe(a) : std::string("a view")) +
             "[" + f.index + "]: " + bad + " (view extents " + view_extent +
             (a ? "; " + origin(a) : std::string()) + ")\n  by thread " + coord(tls_thread->idx) +
             " block " + coord(tls_worker->block.idx) + " at " + where(loc) +
             "\n  not performed (a read gives a poisoned value); guard the index with the view's "
             "extent";
    std::string key = "out-of-bounds@" + f.sites[0].file + ":" + std::to_string(loc.line()) + ":" +
                      std::to_string(loc.column());
    add_finding(std::move(key), std::move(f));
    return poisoned_scratch(size);
}

std::byte* misaligned_atomic(const Allocation* a, const void* p, std::size_t size, Loc loc) {
    Finding f;
    f.kind = "misaligned-atomic";
    f.sites.push_back(site_here(loc, "atomic"));
    if (a) {
        f.space = space_name(a->space);
        f.array = array_name(a);
    }
    char addr[32];
    std::snprintf(addr, sizeof addr, "%p", p);
    f.text = "simt: misaligned atomic of " + std::to_string(size) + " bytes at address " + addr +
             (a ? " in " + describe(a) : std::string()) + "\n  by thread " +
             coord(tls_thread->idx) + " block " + coord(tls_worker->block.idx) + " at " +
             where(loc) + "\n  not performed; an atomic needs an address aligned to its size";
    std::string key = "misaligned-atomic@" + f.sites[0].file + ":" + std::to_string(loc.line());
    add_finding(std::move(key), std::move(f));
    return poisoned_scratch(size);
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
