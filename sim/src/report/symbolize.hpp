// Source lines of machine code: what a raw access's report names, found from its return address.
#pragma once
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <simt/simt.hpp>

namespace simt::sim::detail {

/// libstdc++'s std::source_location is one pointer to a record like this ({file, function, line,
/// column}); a Loc for a place known only at run time points to one that Symbols keeps.
struct LocRecord {
    const char* file;
    const char* function;
    unsigned line;
    unsigned column;
};

/// The places found so far (never destroyed: reports made at exit still point into them).
struct Symbols {
    std::mutex m;
    std::map<const void*, Loc> done;
    std::deque<std::string> strings;  ///< the records' text; a deque never moves them
    std::deque<LocRecord> records;
    /// library_call_site's records, one per call site and function, however often it is called.
    std::map<std::tuple<const char*, unsigned, unsigned, const char*>, const LocRecord*>
        library_calls;
    std::set<const LocRecord*> library_call_records;
    std::map<const void*, std::vector<std::pair<const char*, unsigned>>> code_lines;
    void* state = nullptr;            ///< libbacktrace's, made on first use
};

/// The user's source line of the code at `pc` (a return address into an instrumented function):
/// the innermost inlined frame that is neither simt's nor the standard library's, so that an
/// access made inside `atomicAdd` or `std::vector` names the line that called it. Slow the first
/// time for each pc (it reads debug information); only reports call it. Without debug
/// information: the function's name and line 0.
Loc loc_of(const void* pc);

/// The user's source lines with machine code in the basic block that starts with the coverage
/// call returning to `pc` (-fsanitize-coverage=trace-pc puts one at the start of every block):
/// the lines that run as often as that call does. The block runs from that call to the
/// function's next one (from the function's start, for its first), found in the function's
/// machine code on x86-64; elsewhere, or without a symbol table, only the line at `pc`. Only
/// code whose innermost frame is the user's counts: simt's and the standard library's, inlined
/// into a user's line, is left out. Slow the first time for each pc.
std::vector<std::pair<const char*, unsigned>> code_lines(const void* pc);

/// Whether `file` is one of simt's own headers.
bool simt_header(const char* file);

}  // namespace simt::sim::detail
