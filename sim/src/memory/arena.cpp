// The device arena (arena.hpp): a bump allocator over one reserved range, and its owner table.
#include "arena.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <mutex>
#include <string>

namespace simt::sim::detail::arena {

namespace {

/// The range and its owner table, made before anything else: `__constant__` and `__device__`
/// variables are allocated here during static initialisation, perhaps before the process starts.
std::atomic<std::atomic<Allocation*>*>& owners_out = arena::owners;  // the header's copies
std::atomic<int>& page_shift_out = arena::page_shift;

struct Arena {
    std::mutex m;
    std::byte* base = nullptr;
    std::size_t bytes = 0, page = 0, used = 0;
    int page_shift = 0;
    std::atomic<Allocation*>* owners = nullptr;  ///< one per page, never shrinks

    /// Reserves the largest range the system grants, from 1 TiB down: only address space, which
    /// a 64-bit process has plenty of; memory is committed as arrays are allocated.
    Arena() {
        page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
        while ((std::size_t(1) << page_shift) < page) ++page_shift;
        for (std::size_t want = std::size_t(1) << 40; want >= (std::size_t(1) << 32); want /= 2) {
            void* p =
                mmap(nullptr, want, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            if (p == MAP_FAILED) continue;
            void* t =
                mmap(nullptr, (want >> page_shift) * sizeof(Allocation*), PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            if (t == MAP_FAILED) {
                munmap(p, want);
                continue;
            }
            base = static_cast<std::byte*>(p);
            bytes = want;
            owners = static_cast<std::atomic<Allocation*>*>(t);
            break;
        }
        if (!base)
            throw simt::Error(
                "simt: could not reserve address space for device memory (mmap failed)");
        owners_out.store(owners, std::memory_order_relaxed);
        page_shift_out.store(page_shift, std::memory_order_relaxed);
        lo.store(reinterpret_cast<std::uintptr_t>(base), std::memory_order_relaxed);
        span.store(bytes, std::memory_order_relaxed);
    }
};

Arena& the_arena() {
    static Arena* a = new Arena;  // never destroyed: stream threads may still use it at exit
    return *a;
}

std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

}  // namespace

std::byte* reserve(Allocation* owner, std::size_t bytes, Shortage& why) {
    Arena& a = the_arena();
    std::size_t data = round_up(std::max<std::size_t>(bytes, 1), a.page);
    std::size_t whole = data + 2 * a.page;  // a red page on either side
    std::lock_guard lock(a.m);
    if (whole > a.bytes - a.used) {
        why = {a.bytes - a.used, a.bytes, false};
        return nullptr;
    }
    std::byte* start = a.base + a.used;
    if (mprotect(start, whole, PROT_READ | PROT_WRITE) != 0) {
        why = {a.bytes - a.used, a.bytes, true};
        return nullptr;
    }
    std::memset(start, poison_byte, whole);
    for (std::size_t i = a.used >> a.page_shift, n = i + (whole >> a.page_shift); i < n; ++i)
        a.owners[i].store(owner, std::memory_order_relaxed);
    a.used += whole;
    return start + a.page;
}

void release(std::byte* base, std::size_t bytes) {
    Arena& a = the_arena();
    madvise(base - a.page, round_up(std::max<std::size_t>(bytes, 1), a.page) + 2 * a.page,
            MADV_DONTNEED);
}

bool mapped(const void* p) {
    Arena& a = the_arena();
    std::lock_guard lock(a.m);
    return contains(p) &&
           static_cast<std::size_t>(static_cast<const std::byte*>(p) - a.base) < a.used;
}

}  // namespace simt::sim::detail::arena
