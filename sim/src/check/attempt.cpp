// A checked launch tried on every worker (attempt.hpp states the rule): the copies that undo it.
#include "attempt.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <new>
#include <sys/mman.h>
#include <thread>
#include <unordered_map>

#include "../memory/arena.hpp"
#include "../state/worker.hpp"
#include "host_pointers.hpp"
#include "shadow.hpp"

namespace simt::sim::detail {

namespace {

/// Bytes of copies one attempt may hold (an allocation's bytes and its shadow: 5 bytes per byte of
/// a float array, 9 once its Extras are in use): past it, the launch runs one block at a time.
constexpr std::size_t attempt_budget = std::size_t(1) << 30;

std::atomic<std::uint32_t> attempts{0};  ///< ids: every attempt's, a launch tried twice has two
std::atomic<std::size_t> tried_launches{0}, kept_attempts{0}, kept_owning{0};

/// What launches from one site (its source_location object, one per launch statement) cost per
/// block, tried on every worker and run in order, the latest of each: later launches from the
/// site take the cheaper way (worth_trying). Only timing depends on it, never a report.
struct SiteCost {
    double attempt = 0, in_order = 0;  ///< seconds per block; 0: not measured yet
    bool met = false;                  ///< an attempt from the site ended at a meeting
    bool shared = false;               ///< an owning attempt from it ended at a shared granule
    /// Pointer arguments (by PointerArgs index) whose arrays take one-element granules.
    std::uint32_t fine_args = 0;
    unsigned passed_over = 0;  ///< launches run in order because that was cheaper
};
struct SiteCosts {
    std::mutex m;
    std::unordered_map<const void*, SiteCost> sites;
};
SiteCosts& site_costs() {
    static SiteCosts& n = *new SiteCosts;  // never destroyed: launches may run at exit
    return n;
}
const void* site_key(const GridRun& g) { return std::bit_cast<const void*>(g.k.site); }
template <class F>
void update_cost(const GridRun& g, F f) {
    SiteCosts& n = site_costs();
    std::lock_guard lock(n.m);
    f(n.sites[site_key(g)]);
}

}  // namespace

/// Where an attempt's copies live: one reservation of the budget's size, handed out from its start
/// by each attempt. Pages once touched stay mapped for the next attempt: memory from the heap
/// would come back as fresh pages to zero on every attempt and go away with a TLB flush on every
/// worker, which cost more than the copies themselves (a virtual machine makes each flush an exit).
class CopySpace {
public:
    /// `bytes` of room, or null when the budget is spent (or could not be reserved). Any worker.
    std::byte* take(std::size_t bytes) {
        std::call_once(reserved_, [&] {
            void* p = mmap(nullptr, attempt_budget, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            if (p != MAP_FAILED) base_ = static_cast<std::byte*>(p);
        });
        bytes = (bytes + 63) & ~std::size_t(63);
        const std::size_t at = used_.fetch_add(bytes, std::memory_order_relaxed);
        if (!base_ || bytes > attempt_budget || at > attempt_budget - bytes) return nullptr;
        return base_ + at;
    }
    /// Starts an attempt's copies from the beginning.
    void clear() { used_.store(0, std::memory_order_relaxed); }
    /// Whether the copies since clear() reached room no earlier attempt touched: they paid
    /// for new pages once, which later attempts will not.
    bool grew() {
        const std::size_t used = std::min(used_.load(std::memory_order_relaxed), attempt_budget);
        if (used <= touched_) return false;
        touched_ = used;
        return true;
    }

private:
    std::once_flag reserved_;
    std::byte* base_ = nullptr;
    std::atomic<std::size_t> used_{0};
    std::size_t touched_ = 0;
};
CopySpace copy_space;  // one attempt at a time (Checkers::serial)

/// An owning attempt's copies of the granules its blocks claimed: each worker appends them to a
/// slab of its own, taken from the copy space, and ends what it wrote with a null header, so undo
/// can walk every slab without knowing how far each worker got.
struct GranuleCopy {
    Allocation* a;  ///< null: the slab's end
    std::size_t granule;
    std::size_t cells;  ///< cells copied: 0 for a shadow the attempt made
    std::size_t bytes;  ///< bytes of the array copied (taking up a multiple of 16)
    bool extras;          ///< its Extras follow its cells
};
constexpr std::size_t slab_bytes = std::size_t(1) << 20;
struct WorkerSlab {
    std::uint32_t attempt = 0;
    std::byte* at = nullptr;
    std::byte* end = nullptr;
};
thread_local WorkerSlab tls_slab;

/// An owning attempt's granule size for `a` (log2 elements): at most max_granule_shift, no more
/// than a row of a block's threads when its blocks have rows, nor than `a` has elements per block.
/// A block of 16 x 16 threads writes 16 elements of each row of a matrix, a reduction one
/// element per block: larger granules would be shared by neighbouring blocks, and end the
/// attempt.
unsigned granule_shift_for(const Allocation& a, const GridRun& g) {
    if (std::find(g.fine_granules.begin(), g.fine_granules.end(), &a) != g.fine_granules.end())
        return 0;
    auto floor_log2 = [](std::size_t v) {
        return unsigned(std::bit_width(std::max<std::size_t>(v, 1)) - 1);
    };
    unsigned shift = max_granule_shift;
    if (g.k.block.y * g.k.block.z > 1) shift = std::min(shift, floor_log2(g.k.block.x));
    return std::min(shift, floor_log2(a.shadow_cells / std::max<std::uint64_t>(g.nblocks, 1)));
}

struct ParallelAttempt::Saved {
    Allocation* a;
    std::byte* bytes;
    GlobalCell* cells;
    Extra* extras;  ///< null when its Extras were not in use
    bool host_init;
    bool fresh;  ///< its shadow was made by the copy: all zeros before, `cells` empty
};

ParallelAttempt::ParallelAttempt(GridRun& g, bool owning)
    : g_(g), id_(++attempts), owning_(owning) {
    // Later attempts at the same launch (owning again, or with locks) are the same try.
    if (!g.attempted) tried_launches.fetch_add(1, std::memory_order_relaxed);
    g.attempted = true;
    running_attempt = this;
    copy_space.clear();
    host_memory_launches.fetch_add(1);  // its writes outside the arena end it (host_pointers.cpp)
}

ParallelAttempt::~ParallelAttempt() {
    host_memory_launches.fetch_sub(1);
    running_attempt = nullptr;
    if (undone_) return;
    kept_attempts.fetch_add(1, std::memory_order_relaxed);
    if (owning_) kept_owning.fetch_add(1, std::memory_order_relaxed);
}

bool ParallelAttempt::save(Allocation& a) {
    std::lock_guard lock(m_);
    std::atomic_ref mark(a.attempt_mark);
    if (mark.load(std::memory_order_relaxed) == id_) return true;  // another block's copy
    // A shadow made now is all zeros: nothing to copy, and reading its untouched pages would map
    // the zero page, which each first write then replaces with a flush on every worker.
    const bool fresh = !a.shadow;
    auto* cells = static_cast<GlobalCell*>(shadow_of(a));
    if (owning_) {  // copy_granule copies what the blocks claim
        __atomic_store_n(&a.attempt_granule, static_cast<std::uint8_t>(granule_shift_for(a, g_)),
                         __ATOMIC_RELAXED);
        saved_.push_back(
            std::make_unique<Saved>(Saved{&a, nullptr, nullptr, nullptr, a.host_init, fresh}));
        a.attempt_fresh = fresh;
        mark.store(id_, std::memory_order_release);
        return true;
    }
    const std::size_t n = a.shadow_cells, ncells = fresh ? 0 : n;
    const std::size_t nextras = fresh || !extras_used(a) ? 0 : n;
    std::byte* room =
        copy_space.take(a.size + ncells * sizeof(GlobalCell) + nextras * sizeof(Extra));
    if (!room) return false;  // past the budget: the launch runs one block at a time
    auto s = std::make_unique<Saved>(Saved{
        &a, room, reinterpret_cast<GlobalCell*>(room + a.size),
        nextras ? reinterpret_cast<Extra*>(room + a.size + ncells * sizeof(GlobalCell)) : nullptr,
        a.host_init, fresh});
    std::memcpy(s->bytes, a.base, a.size);
    std::memcpy(static_cast<void*>(s->cells), cells, ncells * sizeof(GlobalCell));
    if (nextras) std::memcpy(static_cast<void*>(s->extras), cells + n, n * sizeof(Extra));
    saved_.push_back(std::move(s));
    // Release: a block that finds the mark finds the copy made, so its writes come after it.
    a.attempt_fresh = fresh;
    mark.store(id_, std::memory_order_release);
    return true;
}

bool ParallelAttempt::copy_granule(Allocation& a, std::size_t g) {
    // touch() came first, on this worker or with its release.
    const bool fresh = a.attempt_fresh;
    const std::size_t first = g << granule_shift(a), elems = std::size_t(1) << granule_shift(a);
    const std::size_t cells = fresh ? 0 : std::min(elems, a.shadow_cells - first);
    const std::size_t from = first * a.elem_size;
    const std::size_t bytes = from < a.size ? std::min(elems * a.elem_size, a.size - from) : 0;
    const bool with_extras = cells && extras_used(a);
    const std::size_t need = sizeof(GranuleCopy) + ((bytes + 15) & ~std::size_t(15)) +
                             cells * (sizeof(GlobalCell) + (with_extras ? sizeof(Extra) : 0));
    WorkerSlab& slab = tls_slab;
    // Room for this copy and the null header after it.
    if (slab.attempt != id_ || std::size_t(slab.end - slab.at) < need + sizeof(GranuleCopy)) {
        const std::size_t size = std::max(slab_bytes, need + sizeof(GranuleCopy));
        std::byte* p = copy_space.take(size);
        if (!p) return false;
        {
            std::lock_guard lock(m_);
            slabs_.push_back(p);
        }
        slab = {id_, p, p + size};
    }
    std::byte* at = slab.at;
    new (at)
        GranuleCopy{&a, g, cells, bytes, with_extras};
    at += sizeof(GranuleCopy);
    std::memcpy(at, a.base + from, bytes);
    at += (bytes + 15) & ~std::size_t(15);
    std::memcpy(at, global_cells(&a) + first, cells * sizeof(GlobalCell));
    at += cells * sizeof(GlobalCell);
    if (with_extras) {
        std::memcpy(at, extras(&a) + first, cells * sizeof(Extra));
        at += cells * sizeof(Extra);
    }
    new (at) GranuleCopy{};
    slab.at = at;
    return true;
}

void ParallelAttempt::undo_granules() {
    for (std::byte* p : slabs_) {
        for (auto* h = reinterpret_cast<GranuleCopy*>(p); h->a;) {
            Allocation& a = *h->a;
            const std::size_t first = std::size_t(h->granule) << granule_shift(a);
            std::byte* at = reinterpret_cast<std::byte*>(h + 1);
            std::memcpy(a.base + first * a.elem_size, at, h->bytes);
            at += (h->bytes + 15) & ~std::size_t(15);
            auto* cells = static_cast<GlobalCell*>(a.shadow);
            std::memcpy(static_cast<void*>(cells + first), at, h->cells * sizeof(GlobalCell));
            at += h->cells * sizeof(GlobalCell);
            if (h->extras) {
                std::memcpy(static_cast<void*>(extras(&a) + first), at, h->cells * sizeof(Extra));
                at += h->cells * sizeof(Extra);
            }
            h = reinterpret_cast<GranuleCopy*>(at);
        }
    }
    slabs_.clear();
}

void ParallelAttempt::undo() {
    undone_ = true;
    copy_space.grew();  // the next attempt finds the room this one touched
    // Blocks that share a granule may touch different elements of it: owning again, the array in
    // one-element granules, and so from then on at the site. Then blocks that share what they
    // read only may still be kept with locks (grid.cpp).
    const Allocation* at = shared_at_.load();
    again_owning_ = at && granule_shift(*at) > 0;
    if (again_owning_) g_.fine_granules.push_back(at);
    const PointerArgs& args = g_.k.pointers;
    update_cost(g_, [&](SiteCost& c) {
        if (!at)
            c.met = true;
        else if (!again_owning_)
            c.shared = true;
        else
            for (unsigned i = 0; i < args.count; ++i)
                if (arena::contains(args.value[i]) && arena::owner_in_range(args.value[i]) == at)
                    c.fine_args |= 1u << i;
    });
    undo_granules();
    for (auto& s : saved_) {
        Allocation& a = *s->a;
        auto* cells = static_cast<GlobalCell*>(a.shadow);
        const std::size_t n = a.shadow_cells;
        // Back to untouched pages, which read as zeros (race.cpp maps the shadow anonymous).
        if (s->fresh) madvise(cells, n * sizeof(GlobalCell), MADV_DONTNEED);
        a.host_init = s->host_init;
        if (owning_) continue;  // undo_granules gave back the rest
        std::memcpy(a.base, s->bytes, a.size);
        if (!s->fresh) std::memcpy(static_cast<void*>(cells), s->cells, n * sizeof(GlobalCell));
        // Extras the attempt began to use stay as it left them: none is read unless a flag in its
        // cell, written with it, says so, and the cells are back as they were.
        if (s->extras) std::memcpy(static_cast<void*>(cells + n), s->extras, n * sizeof(Extra));
    }
    saved_.clear();
    renumber_checked_blocks(g_);
    g_.findings.clear();
    g_.errors.clear();
    g_.first_failed = ~std::uint64_t(0);
    g_.blocks_done = 0;
}

void ParallelAttempt::keep(double seconds) {
    // An attempt that touched new room for its copies paid for pages once: not a measure of the
    // next one.
    if (!copy_space.grew())
        update_cost(g_, [&](SiteCost& c) { c.attempt = seconds / double(g_.nblocks); });
    if (!asides_.load()) return;
    // Cells several blocks read may hold a read set aside in w (race.cpp): w as it was.
    for (auto& s : saved_) restore_set_aside(*s->a, s->fresh ? nullptr : s->cells, s->extras);
}

void ParallelAttempt::wait_for_others(const BlockState&) {
    fail();
    tls::worker->abort_block({});  // abandoned, not failed: collect_block reports nothing
}

bool fits_attempt_budget(std::size_t bytes) { return bytes <= attempt_budget; }

bool worth_trying(const GridRun& g) {
    SiteCosts& n = site_costs();
    std::lock_guard lock(n.m);
    auto it = n.sites.find(site_key(g));
    if (it == n.sites.end()) return true;  // the first launch from the site tries
    SiteCost& c = it->second;
    if (c.met) return false;
    // A launch whose attempt took under a quarter of a second tries again whatever it costs:
    // the difference cannot matter. A longer one's next launch runs in order, to be weighed against
    // it; then the cheaper way, kept up to date by each launch. The copies an attempt makes (five
    // bytes per byte of a float array its blocks touch) can cost more than running in order
    // saves.
    if (c.attempt == 0 || c.attempt * double(g.nblocks) < 0.25) return true;
    if (c.in_order == 0) return false;
    if (c.attempt < c.in_order) return true;
    // In order was cheaper the last time each was measured: every fourth launch tries again, so
    // that one slow measurement (a busy machine) does not decide every later launch.
    return ++c.passed_over % 4 == 0;
}

bool worth_owning(GridRun& g) {
    SiteCosts& n = site_costs();
    std::lock_guard lock(n.m);
    auto it = n.sites.find(site_key(g));
    if (it == n.sites.end()) return true;
    const PointerArgs& args = g.k.pointers;
    for (unsigned i = 0; i < args.count; ++i)
        if (it->second.fine_args >> i & 1 && arena::contains(args.value[i]))
            if (const Allocation* a = arena::owner_in_range(args.value[i]))
                g.fine_granules.push_back(a);
    return !it->second.shared;
}

void ran_in_order(const GridRun& g, double seconds) {
    update_cost(g, [&](SiteCost& c) { c.in_order = seconds / double(g.nblocks); });
}

bool in_attempt() {
    return running_attempt && tls::thread && running_attempt->runs(*tls::worker->block.grid);
}

void leave_attempt() {
    running_attempt->fail();
    Worker& w = *tls::worker;
    w.abort_block({});
    w.leave_thread();
}

}  // namespace simt::sim::detail

namespace simt::sim {

CheckedLaunches checked_launches() {
    return {detail::tried_launches.load(), detail::kept_attempts.load(),
            detail::kept_owning.load()};
}

}  // namespace simt::sim
