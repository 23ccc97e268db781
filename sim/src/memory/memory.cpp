// Device memory: allocation records, copies, and per-block shared memory.
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>

#include "../report/text.hpp"
#include "arena.hpp"
#include "memory.hpp"

namespace simt::sim::detail {

namespace {

/// Every allocation record. A deque: records never move, and views point at them.
struct Allocations {
    std::mutex m;
    std::deque<Allocation> records;
    std::uint64_t next_id = 1;
};

/// Never destroyed: a stream thread may free memory while the process ends.
Allocations& allocations() {
    static Allocations* a = new Allocations;
    return *a;
}

/// Bytes of global memory allocated and not freed on each device (SIMT_DEVICES is at most 16),
/// against the simulated device's total.
std::atomic<std::size_t> global_in_use[16]{};

/// Whether `bytes` more fit on `device` (of properties `p`); they are then counted as in use.
/// When they do not, `why` says so.
bool claim(std::size_t bytes, int device, const DeviceProperties& p, OutOfMemory& why) {
    using Problem = OutOfMemory::Problem;
    why.bytes = bytes;
    why.total = p.total_global_mem;
    why.gpu = p.name.c_str();
    if (bytes > p.total_global_mem) {
        why.problem = Problem::device_total;
        return false;
    }
    // The simulator keeps each array in this machine's memory: a size the device would hold but
    // the host cannot is refused too, rather than the system running out of memory later.
    const std::size_t host = static_cast<std::size_t>(sysconf(_SC_PHYS_PAGES)) *
                             static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    if (host > 0 && bytes > host) {
        why.problem = Problem::host_total;
        why.host = host;
        return false;
    }
    std::atomic<std::size_t>& in_use = global_in_use[device];
    std::size_t used = in_use.load();
    do {
        if (bytes > p.total_global_mem - used) {
            why.problem = Problem::device_full;
            why.free = p.total_global_mem - used;
            why.device = device;
            return false;
        }
    } while (!in_use.compare_exchange_weak(used, used + bytes));
    return true;
}

/// The arena's `bytes` for `what` at `site` that it has no memory for, as an error says it.
OutOfMemory arena_shortage(const arena::Shortage& s, std::size_t bytes, const char* what,
                           Loc site) {
    OutOfMemory why;
    why.problem = s.system ? OutOfMemory::Problem::system : OutOfMemory::Problem::addresses;
    why.bytes = bytes;
    why.free = s.left;
    why.total = s.addresses;
    why.what = what;
    why.site = site;
    return why;
}

}  // namespace

std::size_t global_bytes_in_use(int device) { return global_in_use[device].load(); }

/// A new record with its memory from the arena; `what` says what it is for in an error.
Allocation& new_record(std::size_t bytes, std::size_t elem_size, const char* elem_type, Space space,
                       Loc site, const char* what) {
    auto& all = allocations();
    std::lock_guard lock(all.m);
    Allocation& a = all.records.emplace_back();
    arena::Shortage short_of;
    a.base = arena::reserve(&a, bytes, short_of);
    if (!a.base) {
        all.records.pop_back();
        throw simt::Error(out_of_memory_text(arena_shortage(short_of, bytes, what, site)));
    }
    a.bytes = a.size = bytes;
    a.elem_size = elem_size;
    a.elem_type = elem_type;
    a.space = space;
    a.site = site;
    a.id = all.next_id++;
    return a;
}

Allocation* new_device_array(std::size_t bytes, std::size_t elem_size, const char* elem_type,
                             Loc site, int device) {
    const DeviceProperties p = device_properties();
    if (OutOfMemory why; !claim(bytes, device, p, why)) {
        why.what = "device memory";
        why.site = site;
        throw simt::Error(out_of_memory_text(why));
    }
    Allocation* made;
    try {
        made = &new_record(bytes, elem_size, elem_type, Space::global, site, "device memory");
    } catch (...) {
        global_in_use[device] -= bytes;
        throw;
    }
    Allocation& a = *made;
    a.device = device;
    return &a;
}

void free_device_array(Allocation* a) {
    arena::release(a->base, a->size);
    if (a->space == Space::global && !a->symbol) global_in_use[a->device] -= a->size;
    a->bytes = 0;  // every later access fails the bounds check and is reported as use after free
    a->freed = true;
}

void name_allocation(const Allocation* a, const char* name) {
    std::lock_guard lock(allocations().m);
    const_cast<Allocation*>(a)->name = name;
}

void copy_in(Allocation* a, const void* src, std::size_t bytes) {
    simt::synchronize();
    if (bytes) std::memcpy(a->base, src, bytes);  // an empty vector's data() may be null
    a->host_init = true;  // every caller copies the whole array
}

void copy_out(const Allocation* a, void* dst, std::size_t bytes) {
    simt::synchronize();
    if (bytes) std::memcpy(dst, a->base, bytes);
}

Allocation* make_shared_array(std::size_t bytes, std::size_t elem_size, const char* elem_type,
                              unsigned rank, const std::size_t (&extents)[3], Loc site,
                              const char* name) {
    Allocation& a = new_record(bytes, elem_size, elem_type, Space::shared, site,
                               "memory for the shared array declared");
    a.rank = rank;
    if (rank > 1) std::copy(extents, extents + 3, a.extents);
    if (name) a.name = name;
    return &a;
}

Allocation* make_symbol(std::size_t bytes, std::size_t elem_size, const char* elem_type,
                        unsigned rank, const std::size_t (&extents)[3], Space space, bool managed,
                        Loc site, const char* name, const void* init) {
    Allocation& a = new_record(bytes, elem_size, elem_type, space, site,
                               "device memory for the variable declared");
    a.rank = rank;
    if (rank > 1) std::copy(extents, extents + 3, a.extents);
    a.name = name;
    a.symbol = true;  // never freed, so not a leak: memcheck is not told of it
    a.managed = managed;
    if (init) std::memcpy(a.base, init, bytes);
    else std::memset(a.base, 0, bytes);
    a.host_init = true;
    return &a;
}

}  // namespace simt::sim::detail
