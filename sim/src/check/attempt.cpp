// A checked launch tried on every worker (attempt.hpp states the rule): the copies that undo it.
#include "attempt.hpp"

#include <cstring>
#include <new>

#include "../state/worker.hpp"
#include "shadow.hpp"

namespace simt::sim::detail {

namespace {

/// Bytes of copies one attempt may hold (an allocation's bytes and its shadow cells, 33 bytes
/// per byte of a float array): past it, the launch runs one block at a time, as before.
constexpr std::size_t attempt_budget = std::size_t(1) << 30;

std::atomic<std::uint32_t> attempts{0};
std::atomic<std::size_t> kept_attempts{0};

}  // namespace

struct ParallelAttempt::Saved {
    Allocation* a;
    std::unique_ptr<std::byte[]> bytes, cells;
    bool host_init;
};

ParallelAttempt::ParallelAttempt(GridRun& g) : g_(g), id_(++attempts) { running_attempt = this; }

ParallelAttempt::~ParallelAttempt() {
    running_attempt = nullptr;
    if (!undone_) kept_attempts.fetch_add(1, std::memory_order_relaxed);
}

bool ParallelAttempt::save(Allocation& a) {
    std::lock_guard lock(m_);
    std::atomic_ref mark(a.attempt_mark);
    if (mark.load(std::memory_order_relaxed) == id_) return true;  // another block's copy
    Cell* cells = shadow_of(a);
    const std::size_t cell_bytes = a.shadow_cells * sizeof(Cell);
    if (saved_bytes_ + a.size + cell_bytes > attempt_budget) return false;
    std::unique_ptr<Saved> s;
    try {
        s = std::make_unique<Saved>(Saved{&a, std::make_unique_for_overwrite<std::byte[]>(a.size),
                                          std::make_unique_for_overwrite<std::byte[]>(cell_bytes),
                                          a.host_init});
    } catch (const std::bad_alloc&) {
        return false;  // no room for the copies: the launch runs one block at a time
    }
    std::memcpy(s->bytes.get(), a.base, a.size);
    std::memcpy(s->cells.get(), static_cast<void*>(cells), cell_bytes);
    saved_bytes_ += a.size + cell_bytes;
    saved_.push_back(std::move(s));
    // Release: a block that finds the mark finds the copy made, so its writes come after it.
    mark.store(id_, std::memory_order_release);
    return true;
}

void ParallelAttempt::undo() {
    undone_ = true;
    for (auto& s : saved_) {
        std::memcpy(s->a->base, s->bytes.get(), s->a->size);
        std::memcpy(s->a->shadow, s->cells.get(), s->a->shadow_cells * sizeof(Cell));
        s->a->host_init = s->host_init;
    }
    saved_.clear();
    renumber_checked_blocks(g_);
    g_.findings.clear();
    g_.errors.clear();
    g_.first_failed = ~std::uint64_t(0);
    g_.blocks_done = 0;
}

void ParallelAttempt::keep() {
    // Cells several blocks read may hold a read set aside in w (race.cpp): w as it was.
    for (auto& s : saved_) {
        auto* cells = static_cast<Cell*>(s->a->shadow);
        const auto* before = reinterpret_cast<const Cell*>(s->cells.get());
        for (std::size_t i = 0; i < s->a->shadow_cells; ++i)
            if (cells[i].w.exec == exec_aside) cells[i].w = before[i].w;
    }
}

void ParallelAttempt::wait_for_others(const BlockState&) {
    fail();
    tls::worker->abort_block({});  // abandoned, not failed: collect_block reports nothing
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
