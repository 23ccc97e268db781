// loc_of (symbolize.hpp), over GCC's libbacktrace: it reads DWARF line tables, inlined frames
// included, which is what turns an instrumented access's return address into file:line.
#include "symbolize.hpp"


#include <dlfcn.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#ifdef SIMT_BACKTRACE_H  // its full path: it sits in the compiler's own include directory
#include SIMT_BACKTRACE_H
#define SIMT_HAVE_BACKTRACE 1
#endif

namespace simt::sim::detail {

namespace {

static_assert(sizeof(Loc) == sizeof(const LocRecord*),
              "simt expects libstdc++'s std::source_location");

Loc make_loc(const LocRecord* r) { return std::bit_cast<Loc>(r); }

struct Frame {
    std::string file, function;
    int line = 0;
};

/// Frames that are simt's, the standard library's or a system header's: a report names the line
/// of the user's code that called them.
bool library_frame(const std::string& file) {
    return file.empty() || simt_header(file.c_str()) ||
           file.find("/cuda_include/") != std::string::npos ||
           file.find("/include/c++/") != std::string::npos || file.rfind("/usr/include/", 0) == 0;
}

const char* keep(Symbols& s, std::string text) {
    return s.strings.emplace_back(std::move(text)).c_str();
}

/// The frames at `pc`, innermost (inlined) first.
std::vector<Frame> frames([[maybe_unused]] Symbols& s, [[maybe_unused]] const void* pc) {
    std::vector<Frame> out;
#ifdef SIMT_HAVE_BACKTRACE
    if (!s.state) s.state = backtrace_create_state(nullptr, /*threaded=*/1, nullptr, nullptr);
    if (s.state)
        backtrace_pcinfo(
            static_cast<backtrace_state*>(s.state),
            reinterpret_cast<std::uintptr_t>(pc) - 1,  // inside the call instruction
            [](void* data, std::uintptr_t, const char* file, int line, const char* fn) {
                if (file || fn)
                    static_cast<std::vector<Frame>*>(data)->push_back(
                        {file ? file : "", fn ? fn : "", line});
                return 0;
            },
            [](void*, const char*, int) {}, &out);
#endif
    return out;
}

/// The innermost frame of the user's code, or null.
const Frame* user_frame(const std::vector<Frame>& fs) {
    for (const Frame& f : fs)
        if (!library_frame(f.file)) return &f;
    return nullptr;
}

Loc resolve(Symbols& s, const void* pc) {
    std::vector<Frame> fs = frames(s, pc);
    Frame pick;
    if (const Frame* f = user_frame(fs)) pick = *f;
    if (pick.file.empty() && !fs.empty()) pick = fs.back();
    if (pick.file.empty()) {  // no line table: at least the function
        Dl_info info{};
        if (dladdr(pc, &info) && info.dli_sname) pick.function = info.dli_sname;
        pick.file = "(no debug information)";
    }
    const LocRecord& r = s.records.emplace_back(
        LocRecord{keep(s, pick.file), keep(s, pick.function), static_cast<unsigned>(pick.line), 0});
    return make_loc(&r);
}

/// Where the basic block whose coverage call returns to `pc` lies: [start, end). Empty when the
/// machine code cannot be read as x86-64's or the function's extent is unknown.
std::pair<std::uintptr_t, std::uintptr_t> code_block([[maybe_unused]] Symbols& s,
                                                     [[maybe_unused]] const void* pc) {
#if defined(SIMT_HAVE_BACKTRACE) && defined(__x86_64__)
    if (!s.state) return {};
    struct Symbol {
        std::uintptr_t start = 0, size = 0;
    } fn;
    const auto ret = reinterpret_cast<std::uintptr_t>(pc);
    backtrace_syminfo(
        static_cast<backtrace_state*>(s.state), ret - 1,
        [](void* data, std::uintptr_t, const char* name, std::uintptr_t value,
           std::uintptr_t size) {
            if (name) *static_cast<Symbol*>(data) = {value, size};
        },
        [](void*, const char*, int) {}, &fn);
    const std::uintptr_t end = fn.start + fn.size;
    if (fn.size < 5 || ret < fn.start + 5 || ret > end) return {};
    // The call is `call rel32` (E8): its target, the coverage entry point (or the PLT's stub of
    // it), is what every other coverage call of the function names too.
    auto rel32 = [](std::uintptr_t at) {
        std::int32_t v;
        std::memcpy(&v, reinterpret_cast<const void*>(at), 4);
        return static_cast<std::intptr_t>(v);
    };
    const std::uintptr_t call = ret - 5;
    if (*reinterpret_cast<const unsigned char*>(call) != 0xE8) return {};
    const std::uintptr_t target = ret + rel32(ret - 4);
    // Another E8 whose displacement lands on the same target is another block's call; an E8
    // byte inside some other instruction matches only if its next four bytes happen to be that
    // displacement exactly.
    bool first = true;  // the function's first block begins with its prologue, before the call
    std::uintptr_t stop = end;
    for (std::uintptr_t at = fn.start; at + 5 <= end; ++at) {
        if (at == call || *reinterpret_cast<const unsigned char*>(at) != 0xE8 ||
            at + 5 + rel32(at + 1) != target)
            continue;
        if (at < call)
            first = false;
        else if (at < stop)
            stop = at;
    }
    return {first ? fn.start : call, stop};
#else
    return {};
#endif
}

/// Never destroyed (see Symbols).
Symbols& symbols() {
    static Symbols* s = new Symbols;
    return *s;
}

}  // namespace

bool simt_header(const char* file) { return file && std::strstr(file, "/include/simt/"); }

Loc library_call_site(Loc caller, const char* function) {
    Symbols& s = symbols();
    std::lock_guard lock(s.m);
    auto [it, added] = s.library_calls.try_emplace(
        {caller.file_name(), caller.line(), caller.column(), function}, nullptr);
    if (added) {
        it->second = &s.records.emplace_back(
            LocRecord{caller.file_name(), function, caller.line(), caller.column()});
        s.library_call_records.insert(it->second);
    }
    return make_loc(it->second);
}

bool is_library_call(const Loc& loc) {
    Symbols& s = symbols();
    std::lock_guard lock(s.m);
    return s.library_call_records.count(std::bit_cast<const LocRecord*>(loc)) != 0;
}

std::vector<std::pair<const char*, unsigned>> code_lines(const void* pc) {
    Symbols& s = symbols();
    std::lock_guard lock(s.m);
    auto [it, added] = s.code_lines.try_emplace(pc);
    if (!added) return it->second;
    std::set<std::pair<std::string, unsigned>> lines;
    // Only the user's own code: simt's and the library's, inlined into a user's line (an
    // atomic's compare-and-swap retries, wmma's per-lane loops), would count that line once per
    // iteration of loops the user did not write, some of them as often as other blocks contend.
    auto add = [&](const void* at) {  // the code at at - 1
        const std::vector<Frame> fs = frames(s, at);
        if (!fs.empty() && !library_frame(fs.front().file) && fs.front().line > 0)
            lines.emplace(fs.front().file, static_cast<unsigned>(fs.front().line));
    };
    add(pc);
    const auto [start, stop] = code_block(s, pc);
    for (std::uintptr_t at = start; at < stop; ++at) add(reinterpret_cast<const void*>(at + 1));
    for (const auto& [file, line] : lines) it->second.emplace_back(keep(s, file), line);
    return it->second;
}

Loc loc_of(const void* pc) {
    Symbols& s = symbols();
    std::lock_guard lock(s.m);
    auto it = s.done.find(pc);
    if (it == s.done.end()) it = s.done.emplace(pc, resolve(s, pc)).first;
    return it->second;
}

}  // namespace simt::sim::detail
