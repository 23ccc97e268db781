// loc_of (symbolize.hpp), over GCC's libbacktrace: it reads DWARF line tables, inlined frames
// included, which is what turns an instrumented access's return address into file:line.
#include "symbolize.hpp"


#include <dlfcn.h>

#include <bit>
#include <cstring>
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

Loc resolve(Symbols& s, const void* pc) {
    std::vector<Frame> fs = frames(s, pc);
    Frame pick;
    for (const Frame& f : fs)
        if (!library_frame(f.file)) {
            pick = f;
            break;
        }
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

Loc loc_of(const void* pc) {
    Symbols& s = symbols();
    std::lock_guard lock(s.m);
    auto it = s.done.find(pc);
    if (it == s.done.end()) it = s.done.emplace(pc, resolve(s, pc)).first;
    return it->second;
}

}  // namespace simt::sim::detail
