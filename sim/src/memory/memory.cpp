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

std::string gib(std::size_t bytes) {
    return std::to_string(bytes >> 30) + " GiB";
}

/// Why `bytes` more do not fit on `device`, or empty when they do (and are then counted as in
/// use).
std::string claim(std::size_t bytes, int device) {
    const DeviceProperties p = device_properties();
    if (bytes > p.total_global_mem)
        return ", more than the " + gib(p.total_global_mem) + " of memory the simulated " + p.name +
               " has in all" +
               (bytes > (SIZE_MAX >> 1)
                    ? "; a size this large is usually a negative number or an "
                      "overflowed product (an int n * sizeof(T) computed in int) "
                      "converted to size_t"
                    : "");
    // The simulator keeps each array in this machine's memory: a size the device would hold but
    // the host cannot is refused too, rather than the system running out of memory later.
    const std::size_t host = static_cast<std::size_t>(sysconf(_SC_PHYS_PAGES)) *
                             static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    if (host > 0 && bytes > host)
        return ": the simulated " + p.name + " would hold it, but this machine has " +
               std::to_string(host >> 20) + " MiB of memory to keep it in";
    std::atomic<std::size_t>& in_use = global_in_use[device];
    std::size_t used = in_use.load();
    do {
        if (bytes > p.total_global_mem - used)
            return ", but only " + std::to_string((p.total_global_mem - used) >> 20) +
                   " MiB of the " + gib(p.total_global_mem) + " of the simulated " + p.name +
                   (device != 0 ? " (device " + std::to_string(device) + ")" : std::string()) +
                   " are free (free arrays with cudaFree once the kernels using them are done)";
    } while (!in_use.compare_exchange_weak(used, used + bytes));
    return {};
}

}  // namespace

std::size_t global_bytes_in_use(int device) { return global_in_use[device].load(); }

/// A new record with its memory from the arena; `what` says what it is for in an error.
Allocation& new_record(std::size_t bytes, std::size_t elem_size, const char* elem_type, Space space,
                       Loc site, const char* what) {
    auto& all = allocations();
    std::lock_guard lock(all.m);
    Allocation& a = all.records.emplace_back();
    try {
        a.base = arena::reserve(&a, bytes);
    } catch (const simt::Error& e) {
        all.records.pop_back();
        throw simt::Error(std::string("simt: out of ") + what + " at " + where(site) + ": " +
                          e.what());
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
    if (std::string why = claim(bytes, device); !why.empty())
        throw simt::Error("simt: out of device memory at " + where(site) + ": " +
                          std::to_string(bytes) + " bytes asked for" + why);
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
                              unsigned rank, const std::size_t (&extents)[3], Loc site) {
    Allocation& a = new_record(bytes, elem_size, elem_type, Space::shared, site,
                               "memory for the shared array declared");
    a.rank = rank;
    if (rank > 1) std::copy(extents, extents + 3, a.extents);
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
