// memcheck: accesses outside memory (null, freed, out of bounds, misaligned atomics) and leaks.
#include <cstdio>
#include <map>

#include "checker.hpp"

namespace simt::sim::detail {

namespace {

const char* access_name(Access k) {
    return k == Access::read ? "read" : k == Access::write ? "write" : "atomic";
}

std::string key_of(const Finding& f, const Loc& loc, bool column) {
    return f.kind + "@" + f.sites[0].file + ":" + std::to_string(loc.line()) +
           (column ? ":" + std::to_string(loc.column()) : "");
}

[[noreturn]] void host_access(const InvalidEvent& e) {
    if (e.why == Invalid::out_of_view)
        throw simt::Error("simt: device memory was indexed on the host at " + where(e.where) +
                          "; only kernels can touch device memory: copy it with copy_to_host()");
    if (!e.array) throw simt::Error("simt: a null simt::ptr was dereferenced at " + where(e.where));
    throw simt::Error("simt: device memory " + describe(e.array) + " (" + origin(e.array) +
                      ") was accessed on the host at " + where(e.where) +
                      "; only kernels can touch device memory: copy it with copy_to_host()");
}

void report_outside(const InvalidEvent& e) {
    const Allocation* a = e.array;
    Finding f;
    std::string what = access_name(e.kind);
    f.sites.push_back(site_here(e.where, what.c_str()));
    std::string by = "  " + what + " by thread " + coord(tls_thread->idx) + " block " +
                     coord(tls_worker->block.idx) + " at " + where(e.where) + "\n";
    if (!a) {
        f.kind = "null-pointer";
        f.text = "simt: " + what + " through a null simt::ptr\n" + by +
                 "  not performed; the kernel was given no array for this parameter";
    } else {
        f.space = space_name(a->space);
        f.array = array_name(a);
        auto off = reinterpret_cast<const std::byte*>(e.address) - a->base;
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
    std::string key = key_of(f, e.where, true);
    add_finding(std::move(key), std::move(f));
}

void report_outside_view(const InvalidEvent& e) {
    const Allocation* a = e.array;
    Finding f;
    f.kind = "out-of-bounds";
    f.sites.push_back(site_here(e.where, "access"));
    std::string index, extent, bad;
    for (int d = 0; d < e.rank; ++d) {
        index += (d ? ", " : "") + std::to_string(e.index[d]);
        extent += (d ? ", " : "") + std::to_string(e.extent[d]);
        if (static_cast<std::size_t>(e.index[d]) >= e.extent[d] && bad.empty())
            bad = "index " + std::to_string(e.index[d]) + " is outside extent " +
                  std::to_string(e.extent[d]) + (e.rank > 1 ? " of dimension " + std::to_string(d) : "");
    }
    f.index = e.rank > 1 ? "(" + index + ")" : index;
    std::string view_extent = e.rank > 1 ? "(" + extent + ")" : extent;
    if (a) {
        f.space = space_name(a->space);
        f.array = array_name(a);
    }
    f.text = "simt: out-of-bounds access of " + (a ? f.space + " memory " + describe(a) : std::string("a view")) +
             "[" + f.index + "]: " + bad + " (view extents " + view_extent +
             (a ? "; " + origin(a) : std::string()) + ")\n  by thread " + coord(tls_thread->idx) +
             " block " + coord(tls_worker->block.idx) + " at " + where(e.where) +
             "\n  not performed (a read gives a poisoned value); guard the index with the view's "
             "extent";
    std::string key = key_of(f, e.where, true);
    add_finding(std::move(key), std::move(f));
}

void report_misaligned(const InvalidEvent& e) {
    const Allocation* a = e.array;
    Finding f;
    f.kind = "misaligned-atomic";
    f.sites.push_back(site_here(e.where, "atomic"));
    if (a) {
        f.space = space_name(a->space);
        f.array = array_name(a);
    }
    char addr[32];
    std::snprintf(addr, sizeof addr, "%p", e.address);
    f.text = "simt: misaligned atomic of " + std::to_string(e.size) + " bytes at address " + addr +
             (a ? " in " + describe(a) : std::string()) + "\n  by thread " +
             coord(tls_thread->idx) + " block " + coord(tls_worker->block.idx) + " at " +
             where(e.where) + "\n  not performed; an atomic needs an address aligned to its size";
    std::string key = key_of(f, e.where, false);
    add_finding(std::move(key), std::move(f));
}

class MemCheck final : public Checker {
public:
    MemCheck() : Checker(/*wants_accesses=*/false, /*serial_blocks=*/false) {}
    /// Bounds are checked whatever the flags (an access outside memory is never performed, and
    /// it says why); SIMT_CHECK's `mem` adds the leak check at exit.
    bool enabled(const Config&) const override { return true; }

    void invalid_access(const InvalidEvent& e) override {
        if (!e.thread) host_access(e);
        switch (e.why) {
            case Invalid::out_of_view: report_outside_view(e); break;
            case Invalid::misaligned: report_misaligned(e); break;
            default: report_outside(e);
        }
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
        if (!config().check_mem) return;
        std::vector<const Allocation*> leaked;
        {
            std::lock_guard lock(m_);
            for (auto& [id, a] : live_) leaked.push_back(a);
        }
        std::vector<PendingFinding> fs;
        for (const Allocation* a : leaked) {
            Finding f;
            f.kind = "leak";
            f.space = "global";
            f.array = array_name(a);
            Site s;
            s.file = a->site.file_name() ? a->site.file_name() : "";
            s.line = a->site.line();
            s.access = "allocation";
            f.sites.push_back(s);
            f.text = "simt: leak: device memory " + describe(a) + " (" + origin(a) +
                     ") was never freed\n  a DeviceArray frees its memory when it is destroyed; one "
                     "made with new and never deleted, or alive when std::exit is called, leaks";
            fs.push_back({0, 0, "leak@" + std::to_string(a->id), std::move(f)});
        }
        publish(fs);
    }

private:
    std::mutex m_;
    std::map<std::uint64_t, const Allocation*> live_;  ///< by id: leaks in allocation order
};

}  // namespace

Checker& memcheck() {
    static MemCheck* c = new MemCheck;  // freed arrays report to it from static destructors
    return *c;
}

}  // namespace simt::sim::detail
