// A checked launch tried on every worker (attempt.hpp states the rule): the copies that undo it.
#include "attempt.hpp"

#include <bit>
#include <cstring>
#include <new>
#include <sys/mman.h>
#include <thread>
#include <unordered_map>

#include "../state/worker.hpp"
#include "host_pointers.hpp"
#include "shadow.hpp"

namespace simt::sim::detail {

namespace {

/// Bytes of copies one attempt may hold (an allocation's bytes and its shadow: 5 bytes per byte of
/// a float array, 9 once its Extras are in use): past it, the launch runs one block at a time.
constexpr std::size_t attempt_budget = std::size_t(1) << 30;

std::atomic<std::uint32_t> attempts{0};
std::atomic<std::size_t> kept_attempts{0};

/// What launches from one site (its source_location object, one per launch statement) cost per
/// block, tried on every worker and run in order, the latest of each: later launches from the
/// site take the cheaper way (worth_trying). Only timing depends on it, never a report.
struct SiteCost {
    double attempt = 0, in_order = 0;  ///< seconds per block; 0: not measured yet
    bool met = false;                  ///< an attempt from the site ended at a meeting
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

struct ParallelAttempt::Saved {
    Allocation* a;
    std::unique_ptr<std::byte[]> bytes;
    std::unique_ptr<GlobalCell[]> cells;
    std::unique_ptr<Extra[]> extras;  ///< null when its Extras were not in use
    bool host_init;
    bool fresh;  ///< its shadow was made by the copy: all zeros before, `cells` empty
};

ParallelAttempt::ParallelAttempt(GridRun& g) : g_(g), id_(++attempts) {
    running_attempt = this;
    host_memory_launches.fetch_add(1);  // its writes outside the arena end it (host_pointers.cpp)
}

ParallelAttempt::~ParallelAttempt() {
    host_memory_launches.fetch_sub(1);
    running_attempt = nullptr;
    if (!undone_) kept_attempts.fetch_add(1, std::memory_order_relaxed);
}

bool ParallelAttempt::save(Allocation& a) {
    std::lock_guard lock(m_);
    std::atomic_ref mark(a.attempt_mark);
    if (mark.load(std::memory_order_relaxed) == id_) return true;  // another block's copy
    // A shadow made now is all zeros: nothing to copy, and reading its untouched pages would map
    // the zero page, which each first write then replaces with a flush on every worker.
    const bool fresh = !a.shadow;
    auto* cells = static_cast<GlobalCell*>(shadow_of(a));
    const std::size_t n = a.shadow_cells, ncells = fresh ? 0 : n;
    const std::size_t nextras = fresh || !extras_used(a) ? 0 : n;
    if (!fits_attempt_budget(saved_bytes_ + a.size + n * sizeof(GlobalCell) + nextras * sizeof(Extra)))
        return false;
    std::unique_ptr<Saved> s;
    try {
        s = std::make_unique<Saved>(Saved{&a, std::make_unique_for_overwrite<std::byte[]>(a.size),
                                          std::make_unique_for_overwrite<GlobalCell[]>(ncells),
                                          nextras ? std::make_unique_for_overwrite<Extra[]>(nextras)
                                                  : nullptr,
                                          a.host_init, fresh});
    } catch (const std::bad_alloc&) {
        return false;  // no room for the copies: the launch runs one block at a time
    }
    std::memcpy(s->bytes.get(), a.base, a.size);
    std::memcpy(static_cast<void*>(s->cells.get()), cells, ncells * sizeof(GlobalCell));
    if (nextras) std::memcpy(static_cast<void*>(s->extras.get()), cells + n, n * sizeof(Extra));
    saved_bytes_ += a.size + ncells * sizeof(GlobalCell) + nextras * sizeof(Extra);
    saved_.push_back(std::move(s));
    // Release: a block that finds the mark finds the copy made, so its writes come after it.
    mark.store(id_, std::memory_order_release);
    return true;
}

void ParallelAttempt::undo() {
    undone_ = true;
    update_cost(g_, [](SiteCost& c) { c.met = true; });
    for (auto& s : saved_) {
        Allocation& a = *s->a;
        std::memcpy(a.base, s->bytes.get(), a.size);
        auto* cells = static_cast<GlobalCell*>(a.shadow);
        const std::size_t n = a.shadow_cells;
        // Back to untouched pages, which read as zeros (race.cpp maps the shadow anonymous).
        if (s->fresh) madvise(cells, n * sizeof(GlobalCell), MADV_DONTNEED);
        else std::memcpy(static_cast<void*>(cells), s->cells.get(), n * sizeof(GlobalCell));
        // Extras the attempt began to use stay as it left them: none is read unless a flag in its
        // cell, written with it, says so, and the cells are back as they were.
        if (s->extras) std::memcpy(static_cast<void*>(cells + n), s->extras.get(), n * sizeof(Extra));
        a.host_init = s->host_init;
    }
    saved_.clear();
    renumber_checked_blocks(g_);
    g_.findings.clear();
    g_.errors.clear();
    g_.first_failed = ~std::uint64_t(0);
    g_.blocks_done = 0;
}

void ParallelAttempt::keep(double seconds) {
    update_cost(g_, [&](SiteCost& c) { c.attempt = seconds / double(g_.nblocks); });
    if (!asides_.load()) return;
    // Cells several blocks read may hold a read set aside in w (race.cpp): w as it was.
    for (auto& s : saved_)
        restore_set_aside(*s->a, s->fresh ? nullptr : s->cells.get(), s->extras.get());
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
    const SiteCost& c = it->second;
    if (c.met) return false;
    // A launch whose attempt took under a quarter of a second tries again whatever it costs:
    // the difference cannot matter. A longer one's next launch runs in order, to be weighed against
    // it; then the cheaper way, kept up to date by each launch. The copies an attempt makes of
    // the arrays it touches (five bytes per byte of a float array) can cost more than running
    // in order saves.
    if (c.attempt == 0 || c.attempt * double(g.nblocks) < 0.25) return true;
    return c.in_order > 0 && c.attempt < c.in_order;
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
    return {detail::attempts.load(), detail::kept_attempts.load()};
}

}  // namespace simt::sim
