// Host memory handed to a kernel (host_pointers.hpp says why it is watched).
#include "host_pointers.hpp"

#include <algorithm>
#include <bit>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <pthread.h>
#include <string>

#include "../memory/arena.hpp"
#include "../report/symbolize.hpp"
#include "../state/worker.hpp"
#include "attempt.hpp"
#include "../thread/fault.hpp"

namespace simt::sim::detail {

namespace {

/// The host memory one launch's argument reaches: [lo, hi), lock-free for the access path (hi
/// is written last and cleared first), and what a report says of it, under `Watch::m`.
struct Slot {
    std::atomic<std::uintptr_t> lo{0}, hi{0};
    unsigned position = 0;  ///< the argument's place in the kernel's parameters, from 0
    const char* what = "";  ///< "the host's heap", ...
    Loc launch;
};

struct Watch {
    static constexpr unsigned capacity = 32;
    std::mutex m;
    unsigned used = 0;  ///< bit i: slot i is taken
    Slot slots[capacity];
};
Watch& watch() {
    static Watch* w = new Watch;  // read by kernel threads until the very end of the program
    return *w;
}

/// The mapping of this process that holds `p`, as /proc/self/maps lists it.
struct Mapping {
    std::uintptr_t lo = 0, hi = 0;
    bool file = false;  ///< backed by a file (a program's or library's code and globals)
    char name[32] = "";  ///< "[heap]", "[stack]", or empty
};

bool mapping_of(const void* p, Mapping& out) {
    std::FILE* f = std::fopen("/proc/self/maps", "r");
    if (!f) return false;
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    char line[512];
    bool found = false;
    while (!found && std::fgets(line, sizeof line, f)) {
        std::uintptr_t lo, hi;
        unsigned long long offset, inode;
        char perms[8], dev[16];
        int name_at = 0;
        if (std::sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %7s %llx %15s %llu %n", &lo, &hi, perms,
                        &offset, dev, &inode, &name_at) < 6 ||
            a < lo || a >= hi)
            continue;
        found = true;
        out.lo = lo;
        out.hi = hi;
        out.file = inode != 0;
        std::snprintf(out.name, sizeof out.name, "%.*s", int(std::strcspn(line + name_at, "\n")),
                      line + name_at);
    }
    std::fclose(f);
    return found;
}

/// The end of the block glibc's malloc returned at `p`, or 0 when `p` is not the start of one
/// in use. Only the words of the chunk's header and of the next chunk's are read, each checked
/// to lie in the mapping first: a wrong guess costs a smaller watched extent, never a fault.
std::uintptr_t heap_block_end(std::uintptr_t p, const Mapping& m) {
    constexpr std::uintptr_t header = 2 * sizeof(std::size_t), in_use = 1, mmapped = 2;
    if (p % 16 != 0 || p < m.lo + header) return 0;
    const std::uintptr_t chunk = p - header;
    const std::size_t field = *reinterpret_cast<const std::size_t*>(chunk + sizeof(std::size_t));
    const std::size_t size = field & ~std::size_t(7);
    if (size < 32 || size % 16 != 0 || size > m.hi - chunk) return 0;
    if (field & mmapped) return chunk + size;
    if (size + header > m.hi - chunk) return 0;
    const std::size_t next =
        *reinterpret_cast<const std::size_t*>(chunk + size + sizeof(std::size_t));
    return (next & in_use) ? chunk + size + sizeof(std::size_t) : 0;
}

/// What a kernel may reach from host pointer `p` before it reaches something else, and what it
/// is, or false when `p` is not host memory at all (nothing mapped: a wild pointer, which faults
/// by itself).
bool host_extent(const void* p, std::uintptr_t& hi, const char*& what) {
    Mapping m;
    if (!mapping_of(p, m)) return false;
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    // The host's stack above `p` holds the caller's frames and nothing of the simulator's a
    // kernel reads; a heap block has its size; a global's size is unknown, so only a few bytes
    // (the first access of a kernel to an array is mostly its first element).
    constexpr std::uintptr_t unknown = 64;
    if (std::strcmp(m.name, "[stack]") == 0) {
        hi = m.hi;
        what = "the host's stack (a local variable or array of the host code)";
    } else if (m.file) {
        hi = std::min(m.hi, a + unknown);
        what = "a global variable or constant of the host program";
    } else if (std::uintptr_t end = heap_block_end(a, m)) {
        hi = end;
        what = "the host's heap (malloc, new or a std::vector)";
    } else {
        hi = std::min(m.hi, a + unknown);
        what = "host memory (not from cudaMalloc, cudaMallocManaged or cudaMallocHost)";
    }
    return true;
}

/// Whether `p` lies in the running OS thread's own stack block, where glibc also puts the
/// thread's thread-local storage: a function's `__shared__` declaration is a thread-local
/// object (memory/shared.hpp) whose first use writes there. Never memory of the host program's.
bool in_own_thread_block(const void* p) {
    thread_local std::uintptr_t lo = 0, hi = 0;
    if (hi == 0) {
        pthread_attr_t attr;
        void* base = nullptr;
        std::size_t size = 0;
        if (pthread_getattr_np(pthread_self(), &attr) == 0) {
            pthread_attr_getstack(&attr, &base, &size);
            pthread_attr_destroy(&attr);
        }
        lo = reinterpret_cast<std::uintptr_t>(base);
        hi = size ? lo + size : 1;
    }
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    return a >= lo && a < hi;
}

/// Whether `p` lies in the stack of one of this worker's fibers: another thread of the running
/// block's frame, which only simt's own collectives write (wmma's mma_sync gives each lane its
/// part of D). What an undone attempt leaves there goes with the block.
bool in_worker_fibers(const void* p) {
    for (const auto& f : tls::worker->fibers)
        if (p >= f->guard_lo && p < f->stack_hi) return true;
    return false;
}

}  // namespace

HostMemoryArgs::HostMemoryArgs(const KernelLaunch& k) {
    const PointerArgs& args = k.pointers;
    for (unsigned i = 0; i < args.count; ++i) {
        const void* p = args.value[i];
        if (!p || arena::contains(p) || pinned_host_memory(p)) continue;
        std::uintptr_t hi;
        const char* what;
        if (!host_extent(p, hi, what)) continue;
        Watch& w = watch();
        std::lock_guard lock(w.m);
        if (w.used == ~0u) break;  // 32 watched at once: the rest go unwatched
        const unsigned s = static_cast<unsigned>(std::countr_one(w.used));
        w.used |= 1u << s;
        watched_ |= 1u << s;
        Slot& slot = w.slots[s];
        slot.position = args.position[i];
        slot.what = what;
        slot.launch = k.site;
        slot.lo.store(reinterpret_cast<std::uintptr_t>(p), std::memory_order_relaxed);
        slot.hi.store(hi, std::memory_order_release);
    }
    if (watched_) {
        watching_launches.fetch_add(1);
        host_memory_launches.fetch_add(1);
    }
}

HostMemoryArgs::~HostMemoryArgs() {
    if (!watched_) return;
    host_memory_launches.fetch_sub(1);
    watching_launches.fetch_sub(1);
    Watch& w = watch();
    std::lock_guard lock(w.m);
    for (unsigned s = 0; s < Watch::capacity; ++s)
        if (watched_ & (1u << s)) w.slots[s].hi.store(0, std::memory_order_release);
    w.used &= ~watched_;
}

void host_memory_access(const void* p, std::size_t n, Access k, const void* pc) {
    if (!tls::thread) return;  // the host's own access
    // A kernel's local variables, and the OS thread's own: never host memory.
    const FiberSlot& fiber = *tls::worker->current;
    if ((p >= fiber.guard_lo && p < fiber.stack_hi) || in_own_thread_block(p)) return;
    // Memory that an attempt neither copies nor sees (pinned memory, host memory reached through
    // a struct, a host global): an undone attempt would leave the write made twice.
    if (k != Access::read && in_attempt()) {
        if (!in_worker_fibers(p)) leave_attempt();
        return;
    }
    if (watching_launches.load(std::memory_order_relaxed) == 0) return;
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    Watch& w = watch();
    for (Slot& slot : w.slots) {
        const std::uintptr_t hi = slot.hi.load(std::memory_order_acquire);
        if (a >= hi || a < slot.lo.load(std::memory_order_relaxed)) continue;
        unsigned position;
        const char* what;
        Loc launch;
        {
            std::lock_guard lock(w.m);
            position = slot.position;
            what = slot.what;
            launch = slot.launch;
        }
        FaultDraft f = fault_here(FaultDraft::Problem::host_memory, loc_of(pc));
        f.access = k;
        f.bytes = n;
        f.address = p;
        f.offset = a - slot.lo.load(std::memory_order_relaxed);
        f.argument = position + 1;
        f.launch = launch;
        f.what = what;
        end_thread(f, cudaErrorIllegalAddress);
    }
}

}  // namespace simt::sim::detail
