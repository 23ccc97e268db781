// memcheck: accesses outside memory (null, freed, out of bounds, misaligned) and leaks.
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "checker.hpp"
#include "../report/finding.hpp"

namespace simt::sim::detail {

namespace {

const char* access_name(Access k) {
    return k == Access::read ? "read" : k == Access::write ? "write" : "atomic";
}

long long element_of(const Allocation* a, const void* p);

[[noreturn]] void host_access(const InvalidEvent& e) {
    if (e.why == Invalid::out_of_view)
        throw simt::Error("simt: device memory was indexed on the host at " + where(e.where) +
                          "; only kernels can touch device memory: copy it with copy_to_host()");
    if (!e.array) throw simt::Error("simt: a null simt::ptr was dereferenced at " + where(e.where));
    // A finding (its JSON line, SIMT_EXITCODE), printed now, and an error with its text: the
    // program ends with it unless it catches the error, as a GPU would end it with a crash.
    Draft d;
    d.kind = FindingKind::host_access;
    d.array = e.array;
    d.element = element_of(e.array, e.address);
    d.access_size = e.size;
    DraftSite host;
    host.loc = e.where;
    host.access = access_name(e.kind);
    host.host = true;
    d.sites.push_back(host);
    std::string text = format_text(d);
    std::vector<PendingFinding> fs{{0, 0, key_of(d), std::move(d), {}, 1}};
    publish(fs);
    throw simt::Error(std::move(text));
}

/// The element a pointer points at: rounded towards minus infinity below the array.
long long element_of(const Allocation* a, const void* p) {
    auto off = static_cast<long long>(reinterpret_cast<const std::byte*>(p) - a->base);
    auto es = static_cast<long long>(a->elem_size);
    return off >= 0 ? off / es : -((-off + es - 1) / es);
}

Draft outside(const InvalidEvent& e) {
    Draft d;
    d.array = e.array;
    d.raw = e.raw;
    switch (e.why) {
        case Invalid::null:
            d.kind = FindingKind::null_pointer;
            d.sites.push_back(draft_site(e.where, access_name(e.kind)));
            break;
        case Invalid::freed:
        case Invalid::out_of_bounds:
        case Invalid::constant_write:
            d.kind = e.why == Invalid::freed           ? FindingKind::use_after_free
                     : e.why == Invalid::constant_write ? FindingKind::constant_write
                                                        : FindingKind::out_of_bounds;
            d.element = element_of(e.array, e.address);
            d.access_size = e.size;
            d.sites.push_back(draft_site(e.where, access_name(e.kind)));
            break;
        case Invalid::out_of_view: {
            d.kind = FindingKind::out_of_bounds;
            d.sites.push_back(draft_site(e.where, "access"));
            d.view_index.assign(e.index, e.index + e.rank);
            d.view_extent.assign(e.extent, e.extent + e.rank);
            break;
        }
        case Invalid::misaligned:
            d.kind = e.kind == Access::atomic ? FindingKind::misaligned_atomic
                                              : FindingKind::misaligned_address;
            d.sites.push_back(draft_site(e.where, access_name(e.kind)));
            d.address = e.address;
            d.count = e.size;
            if (e.array) d.element = element_of(e.array, e.address);
            break;
    }
    return d;
}

/// Most course programs end without freeing what they allocated, and the memory goes with the
/// process on a GPU too (compute-sanitizer checks leaks only when asked): one line, not a
/// finding per array, and no effect on the exit status.
void leak_note(const std::vector<const Allocation*>& leaked) {
    LeakNote n;
    n.count = leaked.size();
    n.largest = leaked.front();
    n.all_cuda = true;
    for (const Allocation* a : leaked) {
        n.bytes += a->size;
        if (a->size > n.largest->size) n.largest = a;
        n.all_cuda = n.all_cuda && a->cuda;
    }
    const std::string message = leak_note_text(n);
    std::fflush(stdout);
    std::fprintf(stderr, "%s\n", message.c_str());
    std::fflush(stderr);
}

class MemCheck final : public Checker {
public:
    MemCheck() : Checker(/*wants_accesses=*/false, /*serial_blocks=*/false) {}
    /// Bounds are checked whatever the flags (an access outside memory is never performed, and
    /// it says why); SIMT_CHECK's `leak` makes each leak a finding instead of one note at exit.
    bool enabled(const Config&) const override { return true; }

    void invalid_access(const InvalidEvent& e) override {
        if (!e.thread) host_access(e);
        if (e.raw && e.why == Invalid::out_of_bounds)
            note_wild_access(e.where, e.kind == Access::read, e.array);
        add_finding(outside(e));
    }

    void allocated(const Allocation& a) override {
        std::lock_guard lock(m_);
        live_.emplace(a.id, &a);
    }
    void freed(Allocation& a) override {
        std::lock_guard lock(m_);
        live_.erase(a.id);
    }

    void exit() override {
        std::vector<const Allocation*> leaked;
        {
            std::lock_guard lock(m_);
            for (auto& [id, a] : live_) leaked.push_back(a);
        }
        if (leaked.empty()) return;
        const Config& c = config();
        // SIMT_CHECK=none, or a program built UNCHECKED (which has every check off), asks for
        // speed, not advice.
        if (!c.check_leak && !c.check_race && !c.check_init && !c.check_sync) return;
        if (!c.check_leak) return leak_note(leaked);
        std::vector<PendingFinding> fs;
        for (const Allocation* a : leaked) {
            Draft d;
            d.kind = FindingKind::leak;
            d.array = a;
            d.sites.push_back(draft_site(a->site, "allocation"));
            fs.push_back({0, 0, key_of(d), std::move(d), {}, 1});
        }
        publish(fs);
    }

private:
    std::mutex m_;
    std::map<std::uint64_t, const Allocation*> live_;  ///< by id: leaks in allocation order
};

}  // namespace

std::unique_ptr<Checker> make_memcheck() { return std::make_unique<MemCheck>(); }

namespace {
struct WildAccess {
    std::string file;
    unsigned line;
    bool read;
    const Allocation* array;
};
std::mutex wild_m;
std::vector<WildAccess> wild;  ///< few: one per line and kind that went out of bounds
}  // namespace

void note_wild_access(const Loc& where, bool read, const Allocation* a) {
    if (!a || !where.file_name() || where.line() == 0) return;
    std::lock_guard lock(wild_m);
    for (const WildAccess& w : wild)
        if (w.line == where.line() && w.read == read && w.file == where.file_name()) return;
    wild.push_back({where.file_name(), where.line(), read, a});
}

const Allocation* wild_access_array(const Loc& where, bool read) {
    if (!where.file_name()) return nullptr;
    std::lock_guard lock(wild_m);
    for (const WildAccess& w : wild)
        if (w.line == where.line() && w.read == read && w.file == where.file_name()) return w.array;
    return nullptr;
}

}  // namespace simt::sim::detail
